// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli counters --perf: p and q from real perf stat files, their events mapped by name.
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>

using nlohmann::json;

namespace {

using crossroof::test::expectUsageError;
using crossroof::test::run;
using crossroof::test::runJson;

const std::string kInterval = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_interval1.tsv";

/// CPU0's lines of the interval in DIR: a one-CPU slice of the same measurement for the single-threaded run.
std::string writeCpu0(const QTemporaryDir &dir)
{
    std::ifstream in(kInterval);
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.find("\tCPU0\t") != std::string::npos)
            out += line + '\n';
    }
    return crossroof::test::writeFile(dir, "cpu0.tsv", out);
}

const json *eventNamed(const json &events, const std::string &name)
{
    for (const json &e : events) {
        if (e["name"] == name)
            return &e;
    }
    return nullptr;
}

} // namespace

class TestCliCounters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bothRunsGivePAndQ();
    void multiRunAloneSaysWhatIsMissing();
    void textListsTheUses();
    void csvRowsOfTheEvents();
    void badUse();
};

void TestCliCounters::bothRunsGivePAndQ()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string single = writeCpu0(dir);
    const json j = runJson({"counters", "--perf", kInterval, "--perf-single", single, "--use", "r10d1=suspend+stall:40",
                            "--use", "r0e08=stall:30", "--groups", "32", "--threads-per-group", "2", "--json"});
    const json &perf = j["perf"];
    QCOMPARE(perf["single_file"].get<std::string>(), single);
    QVERIFY(perf["p_missing"].is_null());
    QVERIFY(perf["q_missing"].is_null());
    const json *l2 = eventNamed(perf["events"], "r10d1");
    QVERIFY(l2);
    QCOMPARE((*l2)["use"].get<std::string>(), std::string("suspend+stall"));
    QCOMPARE((*l2)["default_use"].get<std::string>(), std::string("suspend"));
    QCOMPARE((*l2)["latency"].get<double>(), 40.0);
    QVERIFY((*l2)["meaning"].get<std::string>().find("L2_MISS") != std::string::npos);
    // p: the five suspend events (r0e08 is now a stall only), their extra counts over the instructions.
    QCOMPARE(j["p"]["events"].size(), std::size_t(4));
    double extra = 0;
    for (const json &e : j["p"]["events"])
        extra += e["multi"].get<double>() - e["single"].get<double>();
    const double instructions = eventNamed(perf["events"], "instructions:D")->at("multi").get<double>();
    QCOMPARE(j["instructions"].get<double>(), instructions);
    const double p = j["p"]["all"].get<double>();
    QVERIFY(std::abs(p - extra / instructions) < 1e-15);
    QVERIFY(p > 1e-3 && p < 0.1);
    // q from the two latencies: M between them.
    QCOMPARE(j["q"]["events"].size(), std::size_t(2));
    const double q = j["q"]["all"].get<double>();
    QVERIFY(q > 1 - 1 / 30.0 && q < 1 - 1 / 40.0);
    // The measured CPI 0.64 is refused with the reason: no nearest pair, the pairs' CPIs still there.
    QVERIFY(j["measured_cpi"].is_null());
    QVERIFY(j["nearest"].is_null());
    QVERIFY(perf["cpi"].get<double>() < 0.7);
    QVERIFY(perf["cpi_note"].get<std::string>().find("superscalar") != std::string::npos);
    QCOMPARE(j["starting_pairs"].size(), std::size_t(9));
    for (const json &pair : j["starting_pairs"])
        QVERIFY(pair["cpi"].is_number() && pair["cpi"].get<double>() >= 1);
}

void TestCliCounters::multiRunAloneSaysWhatIsMissing()
{
    // q only: p needs the single-threaded run, and says so; no placeholder appears.
    const json j = runJson({"counters", "--perf", kInterval, "--use", "r10d1=stall:40", "--json"});
    QVERIFY(j["p"].is_null());
    QVERIFY(j["perf"]["p_missing"].get<std::string>().find("single-threaded run") != std::string::npos);
    QCOMPARE(j["q"]["events"].size(), std::size_t(1));
    QCOMPARE(j["q"]["all"].get<double>(), 1 - 1 / 40.0);
    // Neither: exit 2 naming both.
    expectUsageError({"counters", "--perf", QString::fromStdString(kInterval)},
                     "cannot estimate p: p needs the single"); // the list of events may lose its middle
    expectUsageError({"counters", "--perf", QString::fromStdString(kInterval)},
                     "cannot estimate q: no event is used as stall");
}

void TestCliCounters::textListsTheUses()
{
    const auto r = run({"counters", "--perf", kInterval, "--use", "r10d1=stall:40"});
    QCOMPARE(r.status, 0);
    const QString out = QString::fromStdString(r.out);
    QVERIFY2(out.contains("r10d1") && out.contains("stall:40 (set)  MEM_LOAD_RETIRED.L2_MISS"), qPrintable(out));
    QVERIFY(out.contains("cycles:D") && out.contains("instructions:D"));
    QVERIFY(out.contains("measured CPI 0.643433 is below 1"));
    QVERIFY(out.contains("p not estimated: p needs the single-threaded run"));
    QVERIFY(!out.contains("nan") && !out.contains("inf "));
}

void TestCliCounters::csvRowsOfTheEvents()
{
    const auto r = run({"counters", "--perf", kInterval, "--use", "r10d1=stall:40", "--format", "csv"});
    QCOMPARE(r.status, 0);
    const QString out = QString::fromStdString(r.out);
    QCOMPARE(out.count("\nperf_event,"), 21);
    QVERIFY2(out.contains("\nperf_event,r10d1,3447281,,,40,,,stall: MEM_LOAD_RETIRED.L2_MISS"), qPrintable(out));
}

void TestCliCounters::badUse()
{
    const QString file = QString::fromStdString(kInterval);
    expectUsageError({"counters", "--perf", file, "--use", "r10d1=stall"},
                     "option '--use r10d1=stall': event 'r10d1': the use 'stall' needs its latency in cycles");
    expectUsageError({"counters", "--perf", file, "--use", "r77d1=suspend"}, "no event 'r77d1' in the perf files");
    expectUsageError({"counters", "--use", "r10d1=suspend", "--instructions", "5", "--suspend", "a=1,0"},
                     "options '--perf-single' and '--use' go with '--perf'");
    expectUsageError({"counters", "--perf", file, "--instructions", "5"}, "option '--perf' replaces");
    expectUsageError({"counters", "--perf", file, "--use", "r10d1=stall:40", "--measured-cpi", "0.5", "--groups",
                      "2", "--threads-per-group", "2", "--perf-single", file},
                     "measured CPI 0.5 is below 1");
}

QTEST_APPLESS_MAIN(TestCliCounters)
#include "tst_cli_counters.moc"
