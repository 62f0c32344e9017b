// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli skeleton on the bundled samples and on files.
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using nlohmann::json;

namespace {

using crossroof::test::expectUsageError;
using crossroof::test::run;
using crossroof::test::runJson;
using crossroof::test::writeFile;

} // namespace

class TestCliSkeleton : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void haccmkJson()
    {
        const json j = runJson({"skeleton", "--sample", "haccmk", "--json"});
        QCOMPARE(j["profile"].get<std::string>(), std::string("xeon-phi-7210"));
        QCOMPARE(j["statements"].size(), std::size_t(28));
        QCOMPARE(j["statements"][0]["kind"].get<std::string>(), std::string("ld"));
        QCOMPARE(j["statements"][0]["pipeline"].get<std::string>(), std::string("load"));
        QVERIFY(j["edges"].size() > 30);
        QCOMPARE(j["edges"][0]["kind"].get<std::string>(), std::string("RAW"));
        QCOMPARE(j["critical_path_cycles"].get<double>(), 89.0);
        QCOMPARE(j["unroll"].size(), std::size_t(16));
        QCOMPARE(j["unroll"][0]["factor"].get<int>(), 1);
        QCOMPARE(j["unroll"][0]["cycles_per_iteration"].get<double>(), 5.625);
        QCOMPARE(j["unroll"][3]["body_cycles"].get<double>(), 94.0);
        QVERIFY(j["unroll"][3]["total_cycles"].get<double>() > 960562);
        // The best factor is the smallest within 5 % of the least cycles per iteration with the spill code:
        // unroll 6, 66 values live for 32 registers, (100 + 34) / 96 cycles (unroll 8, the least: 173 / 128).
        QCOMPARE(j["unroll"][5]["spill_cycles"].get<double>(), 34.0);
        QCOMPARE(j["unroll"][5]["cost_per_iteration"].get<double>(), 134 / 96.0);
        QCOMPARE(j["unroll"][7]["cost_per_iteration"].get<double>(), 173 / 128.0);
        QCOMPARE(j["best_unroll"].get<int>(), 6);
        QCOMPARE(j["Z"].get<double>(), 7.0);
        QCOMPARE(j["E"].get<double>(), 6 * 164 / 100.0);
        QCOMPARE(j["workload_unroll"].get<int>(), 6);
        QVERIFY(j["measured"].empty());
    }

    void oneFactorAndMeasured()
    {
        const json j = runJson({"skeleton", "--sample", "haccmk", "--unroll", "1", "--measured", "4=1149040",
                                "--json"});
        QCOMPARE(j["unroll"].size(), std::size_t(1));
        QCOMPARE(j["unroll"][0]["factor"].get<int>(), 1);
        QCOMPARE(j["workload_unroll"].get<int>(), 1);
        QCOMPARE(j["best_unroll"].get<int>(), 6); // still chosen among all factors
        QCOMPARE(j["measured"].size(), std::size_t(1));
        const double error = j["measured"][0]["error_percent"];
        QVERIFY2(error > -16.45 && error < -16.35, qPrintable(QString::number(error)));
    }

    void fileAndOtherProfile()
    {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, "k.skel", "def k ()\n{\n  for i = 0:100\n  {\n    ld a\n    fma s: s, a, w\n  }\n}\n");
        const json j = runJson({"skeleton", "--file", path, "--profile", "epyc-9654", "--json"});
        QCOMPARE(j["profile"].get<std::string>(), std::string("epyc-9654"));
        QCOMPARE(j["statements"].size(), std::size_t(2));
        // L1 load-to-use 7 and FMA 4 on Zen 4.
        QCOMPARE(j["critical_path_cycles"].get<double>(), 11.0);
        const auto text = run({"skeleton", "--file", path, "--profile", "epyc-9654"});
        QCOMPARE(text.status, 0);
        QVERIFY(QString::fromStdString(text.out).contains(QLatin1String("<- best")));
    }

    void badInput()
    {
        QTemporaryDir dir;
        const std::string bad = writeFile(dir, "bad.skel", "def k ()\n{\n  fp x a\n}\n");
        expectUsageError({"skeleton", "--file", QString::fromStdString(bad)},
                         QStringLiteral("bad.skel: line 3, column 8: expected ':'"));
        expectUsageError({"skeleton", "--sample", "haccmk", "--profile", "v100"},
                         QStringLiteral("profile 'v100' has no core_model"));
        expectUsageError({"skeleton", "--sample", "haccmk", "--unroll", "17"},
                         QStringLiteral("option '--unroll': must be a whole number from 1 to 16"));
        expectUsageError({"skeleton", "--sample", "nope"}, QStringLiteral("no sample 'nope'"));
        expectUsageError({"skeleton"}, QStringLiteral("give either '--file FILE' or '--sample NAME'"));
        expectUsageError({"skeleton", "--sample", "haccmk", "--measured", "4"},
                         QStringLiteral("option '--measured': expected FACTOR=CYCLES"));
        // Fewer than one cycle for the whole nest: 1e-300 printed "+inf %" with exit 0.
        for (const char *tiny : {"1=1e-300", "1=0.5", "2=4e-320"}) {
            expectUsageError({"skeleton", "--sample", "haccmk", "--measured", tiny, "--json"},
                             QStringLiteral("option '--measured': expected FACTOR=CYCLES with a factor from 1 to 16 "
                                            "and cycles from 1 to 1e300, those of the whole nest (got '%1')")
                                     .arg(QLatin1String(tiny)));
        }
        const json edge = runJson({"skeleton", "--sample", "haccmk", "--unroll", "1", "--measured", "1=1", "--json"});
        QVERIFY(std::isfinite(edge["measured"][0]["error_percent"].get<double>()));
        expectUsageError({"skeleton", "--file", "/nonexistent.skel"}, QStringLiteral("/nonexistent.skel"));
    }
};

QTEST_APPLESS_MAIN(TestCliSkeleton)
#include "tst_cli_skeleton.moc"
