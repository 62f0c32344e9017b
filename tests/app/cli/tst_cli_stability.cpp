// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"
#include "core/model_fixtures.h"
#include "core/xmodel/xmodel.h"

#include <nlohmann/json.hpp>

#include <QTest>
#include <QTemporaryDir>

#include <fstream>
#include <set>
#include <sstream>

using nlohmann::json;

namespace {

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;

} // namespace

class TestCliStability : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void measuredSupply();
    void badMeasuredSupply();
    void stabilityMapJson();
    void stabilityMapCountsMatchSolve();
    void stabilityMapText();
    void hysteresisJson();
    void hysteresisOtherParameter();
    void hysteresisText();
    void adviseJson();
    void adviseText();
    void adviseGivesThroughputsWithPrefixes();
    void helpTexts();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
};

void TestCliStability::stabilityMapJson()
{
    const json j = runJson(
            {"stability-map", "--profile", "gtx570-sp", "--x", "n:1:96:12", "--y", "Z:4:40:9:log", "--json"});
    for (const char *key : {"x", "y", "stable_count", "operating_gbs"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["x"]["key"].get<std::string>(), std::string("n"));
    QCOMPARE(j["y"]["key"].get<std::string>(), std::string("Z"));
    QCOMPARE(j["x"]["values"].size(), std::size_t(12));
    QCOMPARE(j["y"]["values"].size(), std::size_t(9));
    QCOMPARE(j["y"]["values"][0].get<double>(), 4.0);
    QCOMPARE(j["y"]["values"][8].get<double>(), 40.0);
    QVERIFY(j["y"]["log"].get<bool>());
    // stable_count[j][i]: y index j, x index i.
    QCOMPARE(j["stable_count"].size(), std::size_t(9));
    QCOMPARE(j["operating_gbs"].size(), std::size_t(9));
    for (const auto &row : j["stable_count"]) {
        QCOMPARE(row.size(), std::size_t(12));
        for (const auto &c : row)
            QVERIFY(c.is_number_integer() && c.get<int>() >= 1);
    }
    for (const auto &row : j["operating_gbs"]) {
        for (const auto &g : row)
            QVERIFY(g.get<double>() > 0);
    }
}

void TestCliStability::stabilityMapCountsMatchSolve()
{
    const json j = runJson({"stability-map", "--profile", "gtx570-sp-lc", "--x", "n:8:64:8", "--y", "Z:8:16:5",
                            "--threads", "1", "--json"});
    int bistable = 0;
    for (std::size_t jj = 0; jj < 5; ++jj) {
        for (std::size_t i = 0; i < 8; ++i) {
            auto p = crossroof::test::thrashingFermi(); // the gtx570-sp profile's workload
            p.L_c = 20;                                 // and gtx570-sp-lc's dependent-issue latency
            p.n = j["x"]["values"][i].get<double>();
            p.Z = j["y"]["values"][jj].get<double>();
            const auto r = crossroof::core::XModel(p).solve();
            QCOMPARE(j["stable_count"][jj][i].get<int>(), r.stableCount());
            QVERIFY(std::abs(j["operating_gbs"][jj][i].get<double>() - r.operatingPoint().ms_gbs)
                    <= 1e-9 * r.operatingPoint().ms_gbs);
            bistable += r.stableCount() == 2;
        }
    }
    QVERIFY(bistable > 0);
}

void TestCliStability::stabilityMapText()
{
    const Run r = run({"stability-map", "--profile", "gtx570-sp", "--x", "n:1:96:24", "--y", "Z:8:16:6"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("bistable") != std::string::npos);
    QVERIFY(r.out.find("Stable states per cell") != std::string::npos);
    QVERIFY(r.out.find("222") != std::string::npos);
}

void TestCliStability::hysteresisJson()
{
    const json j = runJson({"hysteresis", "--profile", "gtx570-sp-lc", "--set", "E=0.12", "--set", "Z=9", "--n",
                            "120:160:2", "--json"});
    for (const char *key : {"n", "up_gbs", "down_gbs"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["n"].size(), std::size_t(21));
    QCOMPARE(j["n"][0].get<double>(), 120.0);
    QCOMPARE(j["n"][20].get<double>(), 160.0);
    QCOMPARE(j["up_gbs"].size(), std::size_t(21));
    QCOMPARE(j["down_gbs"].size(), std::size_t(21));
    QCOMPARE(j["param"].get<std::string>(), std::string("n"));
    // The branches differ exactly where two stable states exist, and the jumps are reported.
    int differing = 0;
    for (std::size_t i = 0; i < 21; ++i) {
        const bool differs = std::abs(j["up_gbs"][i].get<double>() - j["down_gbs"][i].get<double>()) > 1e-6;
        QCOMPARE(differs, j["stable_count"][i].get<int>() >= 2);
        differing += differs;
    }
    QVERIFY(differing > 0);
    QCOMPARE(j["jumps"].size(), std::size_t(2));
    QCOMPARE(j["jumps"][0]["direction"].get<std::string>(), std::string("up"));
    QCOMPARE(j["jumps"][1]["direction"].get<std::string>(), std::string("down"));
}

void TestCliStability::hysteresisOtherParameter()
{
    const json j = runJson(
            {"hysteresis", "--profile", "gtx570-sp", "--param", "Z", "--range", "8:16:0.5", "--json"});
    QVERIFY(!j.contains("n")); // "n" names an n sweep
    QCOMPARE(j["param"].get<std::string>(), std::string("Z"));
    QCOMPARE(j["values"].size(), std::size_t(17));
    QCOMPARE(j["up_gbs"].size(), std::size_t(17));
    const json same = runJson(
            {"hysteresis", "--profile", "gtx570-sp", "--param", "n", "--range", "40:48:4", "--json"});
    QCOMPARE(same["n"].size(), std::size_t(3));
}

void TestCliStability::hysteresisText()
{
    const Run r = run(
            {"hysteresis", "--profile", "gtx570-sp-lc", "--set", "E=0.12", "--set", "Z=9", "--n", "130:150:2"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("branches differ") != std::string::npos);
    QVERIFY(r.out.find("Jump up sweep") != std::string::npos);
}

void TestCliStability::adviseJson()
{
    const json j = runJson({"advise", "--profile", "gtx570-sp", "--set", "Z=4", "--json"});
    for (const char *key : {"parameters", "current", "operations", "degradation"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["operations"].size(), std::size_t(6));
    std::set<std::string> ids;
    int rank = 0;
    for (const auto &op : j["operations"]) {
        ids.insert(op["id"].get<std::string>());
        for (const char *key : {"rank", "id", "name", "applicable", "reason", "changes"})
            QVERIFY2(op.contains(key), key);
        if (!op["applicable"].get<bool>())
            continue;
        QCOMPARE(op["rank"].get<int>(), ++rank);
        for (const char *key :
             {"ms_throughput_gbs", "cs_throughput_gops", "ms_change_gbs", "ms_change_percent",
              "cs_change_gops", "cs_change_percent", "principle", "why"})
            QVERIFY2(op.contains(key), key);
        QVERIFY(op["changes"].is_object() && !op["changes"].empty());
        const int principle = op["principle"].get<int>();
        QVERIFY(principle >= 1 && principle <= 3);
    }
    QCOMPARE(ids, (std::set<std::string> {"thread_throttling", "cache_bypassing", "larger_cache",
                                          "faster_cache", "raise_z", "lower_e"}));
    for (const char *key : {"max_gbs", "tangency_n", "tangency_high_gbs", "tangency_low_gbs", "min_drop_gbs"})
        QVERIFY2(j["degradation"].contains(key), key);
    const json big
            = runJson({"advise", "--profile", "gtx570-sp", "--set", "Z=4", "--cache-size", "48", "--json"});
    for (const auto &op : big["operations"]) {
        if (op["id"] == "larger_cache")
            QCOMPARE(op["changes"]["S_s"].get<double>(), 48.0);
    }
}

void TestCliStability::adviseText()
{
    const Run r = run({"advise", "--profile", "gtx570-sp", "--set", "Z=4"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("ranked by CS throughput gain") != std::string::npos);
    QVERIFY(r.out.find("Principle 2") != std::string::npos);
    QVERIFY(r.out.find("Degradation") != std::string::npos);
}

void TestCliStability::adviseGivesThroughputsWithPrefixes()
{
    // An H100's CS throughput is some 16,600 Gop/s and Z's gain 4,144: read as people read them, with their SI
    // prefix ("16.58 Top/s", "+4.144 Top/s"), never "1.658e+04 Gop/s".
    const Run r = run({"advise", "--profile", "h100-sxm"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.find("e+0") == std::string::npos, r.out.c_str());
    const auto now = r.out.find("Now ");
    QVERIFY(now != std::string::npos);
    QVERIFY2(r.out.substr(now, r.out.find('\n', now) - now).find("Top/s") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("CS +4.1") != std::string::npos && r.out.find("Top/s (+25.0 %)") != std::string::npos,
             r.out.c_str());
}

void TestCliStability::helpTexts()
{
    for (const char *command : {"stability-map", "hysteresis", "advise"}) {
        const Run r = run({command, "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find(std::string("crossroof-cli ") + command) != std::string::npos);
    }
    const Run all = run({"--help"});
    for (const char *command : {"stability-map", "hysteresis", "advise"})
        QVERIFY(all.out.find(command) != std::string::npos);
}

void TestCliStability::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    auto row = [](const char *name, QStringList args, const char *names) {
        QTest::newRow(name) << args << QString::fromLatin1(names);
    };
    const QString map = QStringLiteral("stability-map");
    row("map: --x missing", {map, QStringLiteral("--y"), QStringLiteral("Z:1:2:3")}, "--x");
    row("map: --y missing", {map, QStringLiteral("--x"), QStringLiteral("Z:1:2:3")}, "--y");
    row("map: malformed axis",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:2"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: bad flag",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:3:sqrt"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: unknown key",
        {map, QStringLiteral("--x"), QStringLiteral("Q:1:2:3"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: count zero",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:0"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: count fraction",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:2.5"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: log from zero",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:4"), QStringLiteral("--y"),
         QStringLiteral("h:0:1:3:log")},
        "--y");
    row("map: out of range",
        {map, QStringLiteral("--x"), QStringLiteral("n:0:20:4"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--x");
    row("map: same keys",
        {map, QStringLiteral("--x"), QStringLiteral("Z:1:20:4"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3")},
        "--y");
    row("map: too many cells",
        {map, QStringLiteral("--x"), QStringLiteral("Z:1:20:4096"), QStringLiteral("--y"),
         QStringLiteral("E:1:2:4096")},
        "--y");
    row("map: bad threads",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:4"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3"), QStringLiteral("--threads"), QStringLiteral("0")},
        "--threads");
    row("map: bad --set",
        {map, QStringLiteral("--x"), QStringLiteral("n:1:20:4"), QStringLiteral("--y"),
         QStringLiteral("Z:1:2:3"), QStringLiteral("--set"), QStringLiteral("Z")},
        "--set");
    const QString hy = QStringLiteral("hysteresis");
    row("hysteresis: nothing to sweep", {hy}, "--n");
    row("hysteresis: malformed --n", {hy, QStringLiteral("--n"), QStringLiteral("1:10")}, "--n");
    row("hysteresis: fractional n", {hy, QStringLiteral("--n"), QStringLiteral("1:10:0.5")}, "--n");
    row("hysteresis: zero step", {hy, QStringLiteral("--n"), QStringLiteral("1:10:0")}, "--n");
    row("hysteresis: min above max", {hy, QStringLiteral("--n"), QStringLiteral("10:1:1")}, "--n");
    row("hysteresis: --param without --range", {hy, QStringLiteral("--param"), QStringLiteral("Z")},
        "--range");
    row("hysteresis: --range without --param", {hy, QStringLiteral("--range"), QStringLiteral("1:2:1")},
        "--range");
    row("hysteresis: both",
        {hy, QStringLiteral("--n"), QStringLiteral("1:10:1"), QStringLiteral("--param"), QStringLiteral("Z"),
         QStringLiteral("--range"), QStringLiteral("1:2:1")},
        "--n");
    row("hysteresis: unknown param",
        {hy, QStringLiteral("--param"), QStringLiteral("Q"), QStringLiteral("--range"),
         QStringLiteral("1:2:1")},
        "--param");
    row("hysteresis: range out of bounds",
        {hy, QStringLiteral("--param"), QStringLiteral("h"), QStringLiteral("--range"),
         QStringLiteral("0:2:0.5")},
        "--range");
    const QString ad = QStringLiteral("advise");
    row("advise: small cache", {ad, QStringLiteral("--cache-size"), QStringLiteral("1")}, "--cache-size");
    row("advise: cache not a number", {ad, QStringLiteral("--cache-size"), QStringLiteral("big")},
        "--cache-size");
    row("advise: unknown option", {ad, QStringLiteral("--bogus")}, "--bogus");
}

void TestCliStability::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    crossroof::test::expectUsageError(args, names);
}

void TestCliStability::measuredSupply()
{
    // The H100's measured 16 KiB-per-warp thrashing curve as f(k): the advisor's thread throttling brings the
    // operating point to the curve's peak (3230 GB/s at 10 warps in the memory system).
    const std::string cache = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/cache.csv";
    const std::vector<std::string> supply{"--supply", cache, "--supply-x", "warps_per_sm", "--supply-y",
                                          "request_gbs", "--supply-where", "bytes_per_warp=16384"};
    std::vector<std::string> args{"advise", "--profile", "h100-sxm", "--set", "n=64", "--set", "Z=20", "--json"};
    args.insert(args.end(), supply.begin(), supply.end());
    const json a = runJson(args);
    const json &throttle = a["operations"][0];
    QCOMPARE(throttle["id"].get<std::string>(), std::string("thread_throttling"));
    QVERIFY(throttle["changes"]["n"].get<double>() < 64);
    QVERIFY2(std::abs(throttle["ms_throughput_gbs"].get<double>() - 3230) < 0.03 * 3230, throttle.dump().c_str());
    // xgraph: the cache peak and valley are measured points; hysteresis and the map take the same options.
    args = {"xgraph", "--profile", "h100-sxm", "--set", "n=64", "--set", "Z=20", "--json"};
    args.insert(args.end(), supply.begin(), supply.end());
    const json x = runJson(args);
    QCOMPARE(x["landmarks"]["psi"].get<double>(), 10.0);
    args = {"hysteresis", "--profile", "h100-sxm", "--set", "Z=20", "--n", "4:64:4", "--json"};
    args.insert(args.end(), supply.begin(), supply.end());
    QCOMPARE(runJson(args)["up_gbs"].size(), std::size_t(16));
    args = {"stability-map", "--profile", "h100-sxm", "--x", "n:8:64:8", "--y", "Z:5:40:8", "--json"};
    args.insert(args.end(), supply.begin(), supply.end());
    QCOMPARE(runJson(args)["stable_count"].size(), std::size_t(8));
}

void TestCliStability::badMeasuredSupply()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (dir.path() + QStringLiteral("/f.csv")).toStdString();
    const auto refused = [&](const std::string &text, const std::string &message) {
        std::ofstream(path, std::ios::binary) << text;
        const auto r = run({"xgraph", "--supply", path, "--supply-x", "k", "--supply-y", "gbs"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.find(message) != std::string::npos, r.err.c_str());
    };
    refused("k,gbs\n1,10\n2,20\n", path + ": a measured curve needs at least 3 points (got 2)");
    refused("k,gbs\n1,10\n2,20\n2,25\n", path + ":4: warps 2 repeat");
    refused("k,gbs\n1,10\n3,20\n2,25\n", path + ":4: warps 2 come after 3");
    refused("k,gbs\n1,10\n2,-20\n3,25\n", path + ":3: throughput must not be negative");
    const auto noColumns = run({"xgraph", "--supply", path});
    QCOMPARE(noColumns.status, 2);
    QVERIFY2(noColumns.err.find("--supply-x COLUMN and --supply-y COLUMN") != std::string::npos,
             noColumns.err.c_str());
}

QTEST_APPLESS_MAIN(TestCliStability)
#include "tst_cli_stability.moc"
