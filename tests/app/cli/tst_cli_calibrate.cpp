// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli calibrate on the measured H100 SXM family (tests/data/h100_sxm).
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using nlohmann::json;

namespace {

const std::string kProbe = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm";
const std::string kFamily = kProbe + "/family.csv";

using crossroof::test::run;
using crossroof::test::runJson;
using crossroof::test::writeFile;

} // namespace

class TestCliCalibrate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void probeJson()
    {
        const json j = runJson({"calibrate", "--probe", kProbe, "--json"});
        for (const char *key : {"R", "L", "M", "L_c"})
            QVERIFY2(j["parameters"].contains(key), key);
        QCOMPARE(j["rows"].get<int>(), 312);
        QCOMPARE(j["residuals"].size(), std::size_t(312));
        QVERIFY(j["accuracy"]["mean"].get<double>() >= 0.93);
        QVERIFY(j["accuracy"]["median"].get<double>() >= j["accuracy"]["min"].get<double>());
        QVERIFY(j["r2"].get<double>() > 0.9);
        QVERIFY(j["rmse_gbs"].get<double>() > 0);
        const double L_c = j["parameters"]["L_c"];
        QVERIFY2(L_c > 3 && L_c < 5, qPrintable(QString::number(L_c)));
        const json &first = j["residuals"][0];
        QCOMPARE(first["line"].get<int>(), 2);
        QCOMPARE(first["measured_gbs"].get<double>(), 42.73);
        QCOMPARE(first["accuracy"].get<double>(),
                 1 - std::abs(first["predicted_gbs"].get<double>() - 42.73) / 42.73);
        QCOMPARE(j["machine"]["sm_count"].get<double>(), 132.0);
        QVERIFY(j["out"].is_null());
    }

    void heldParametersAndOut()
    {
        QTemporaryDir dir;
        const std::string out = (dir.path() + QStringLiteral("/My H100.json")).toStdString();
        const json j = runJson({"calibrate", "--family", kFamily, "--profile", "h100-pcie", "--set", "sm_count=132",
                                "--set", "clock_ghz=1.98", "--set", "M=4", "--fit", "L,L_c", "--out", out, "--json"});
        QCOMPARE(j["parameters"]["M"].get<double>(), 4.0);
        QVERIFY(j["fitted"] == json({"L", "L_c"}));
        QCOMPARE(j["out"].get<std::string>(), out);

        // The written profile is complete: other commands take it, and its sources say where values came from.
        const json x = runJson({"xgraph", "--profile", out, "--json"});
        QCOMPARE(x["profile"].get<std::string>(), std::string("my-h100"));
        QCOMPARE(x["parameters"]["L_c"].get<double>(), j["parameters"]["L_c"].get<double>());
        QCOMPARE(x["parameters"]["sm_count"].get<double>(), 132.0);
        std::ifstream in(out);
        const json prof = json::parse(in);
        const json &sources = prof["sources"];
        const std::string fitted = sources.back()["text"];
        QVERIFY(sources.back()["fields"] == json({"L", "L_c"}));
        QVERIFY(fitted.find("family.csv (312 kernels") != std::string::npos);
        bool given = false;
        for (const json &s : sources) {
            if (s["text"].get<std::string>().find("command line") != std::string::npos) {
                given = true;
                QVERIFY2(s["fields"] == json({"sm_count", "clock_ghz", "M"}), s.dump().c_str());
            }
        }
        QVERIFY(given);
    }

    void textSummary()
    {
        const auto r = run({"calibrate", "--family", kFamily, "--profile", "h100-sxm", "--fit", "L_c"});
        QCOMPARE(r.status, 0);
        const QString text = QString::fromStdString(r.out);
        QVERIFY2(text.contains("Accuracy  mean") && text.contains("L_c") && text.contains("312 kernels"),
                 qPrintable(text));
    }

    void help()
    {
        const auto r = run({"calibrate", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find("--family FILE") != std::string::npos);
        QVERIFY(r.out.find("--probe DIR") != std::string::npos);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString family = QString::fromStdString(kFamily);
        QTest::newRow("no family") << QStringList{"calibrate", "--json"} << "--family FILE";
        QTest::newRow("both") << QStringList{"calibrate", "--family", family, "--probe", "x"} << "either";
        QTest::newRow("missing file") << QStringList{"calibrate", "--family", "/nonexistent.csv"}
                                      << "/nonexistent.csv";
        QTest::newRow("bad key") << QStringList{"calibrate", "--family", family, "--fit", "L,Z"}
                                 << "cannot fit 'Z'";
        QTest::newRow("n over max_warps")
                << QStringList{"calibrate", "--family", family, "--profile", "h100-sxm", "--set", "max_warps=48"}
                << "family.csv:13: n = 56 warps is more than the machine's max_warps = 48";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        crossroof::test::expectUsageError(args, message);
    }

    void badFiles()
    {
        QTemporaryDir dir;
        const std::string text = writeFile(dir, "text.csv", "n,Z,E,gbs\n1,17,1,42\n2,17,one,80\n");
        crossroof::test::expectUsageError({"calibrate", "--family", QString::fromStdString(text)},
                                          "text.csv:3:6: column 'E': 'one' is not a number");
        const std::string few = writeFile(dir, "few.csv", "n,Z,E,gbs\n1,17,1,42\n2,17,1,80\n");
        crossroof::test::expectUsageError({"calibrate", "--family", QString::fromStdString(few)},
                                          "few.csv: 2 rows cannot fit 4 parameters");
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
