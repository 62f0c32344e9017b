// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using nlohmann::json;

namespace {

const std::string kTidy = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches/stream_vs_warps_per_sm.csv";
const std::string kExcerpt = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_excerpt.tsv";

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;
using crossroof::test::writeFile;

bool haveShared()
{
    return QFile::exists(QString::fromStdString(kTidy));
}

} // namespace

class TestCliTrace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fitTraceJsonKeys();
    void fitTraceWhereAndText();
    void fitTraceCacheModel();
    void fitTraceTwoLevel();
    void fitTraceLongTrace();
    void fitTraceHoldGroupAndErrors();
    void bandwidthCurveJson();
    void bandwidthCurvePerfStat();
    void help();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
};

void TestCliTrace::fitTraceJsonKeys()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    const json j = runJson({"fit-trace", "--trace", kTidy, "--x", "warps_per_sm", "--y", "init_GBs",
                            "--where", "gpu=v100", "--json"});
    for (const char *key :
         {"R_gbs", "slope_gbs_per_warp", "delta", "rmse", "r2", "points", "model", "residuals"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["points"].get<int>(), 32);
    QVERIFY(std::abs(j["R_gbs"].get<double>() - 895) < 1e-9);
    QVERIFY(std::abs(j["delta"].get<double>()
                     - j["R_gbs"].get<double>() / j["slope_gbs_per_warp"].get<double>())
            < 1e-9);
    QVERIFY(j["r2"].get<double>() >= 0.99);
    QCOMPARE(j["residuals"].size(), std::size_t(32));
    QCOMPARE(j["model"].get<std::string>(), std::string("roofline"));
}

void TestCliTrace::fitTraceWhereAndText()
{
    QTemporaryDir dir;
    const std::string path
            = writeFile(dir, "t.csv",
                    "# synthetic\nrun;k;gbs\nA;1;100\nA;2;200\nA;4;300\nA;8;300\nB;1;5\nB;2;10\nB;3;10\n");
    const json a
            = runJson({"fit-trace", "--trace", path, "--x", "k", "--y", "gbs", "--where", "run=A", "--json"});
    QCOMPARE(a["points"].get<int>(), 4);
    QVERIFY(std::abs(a["R_gbs"].get<double>() - 300) < 1e-9);
    QVERIFY(std::abs(a["slope_gbs_per_warp"].get<double>() - 100) < 1e-9);
    // Numbers match numerically ("300.0" finds 300); filters combine.
    const json both = runJson({"fit-trace", "--trace", path, "--x", "k", "--y", "gbs", "--where", "run=A",
                               "--where", "gbs=300.0", "--json"});
    QCOMPARE(both["points"].get<int>(), 2);
    const Run text = run({"fit-trace", "--trace", path, "--x", "k", "--y", "gbs", "--where", "run=B"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.err.empty());
    QVERIFY(text.out.find("Plateau   R = 10 GB/s") != std::string::npos);
    QVERIFY(text.out.find("where run=B, 3 points") != std::string::npos);
}

void TestCliTrace::fitTraceCacheModel()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    const json j = runJson({"fit-trace", "--trace", kTidy, "--x", "warps_per_sm", "--y", "init_GBs",
                            "--where", "gpu=v100", "--model", "fixed", "--profile", "v100", "--json"});
    for (const char *key : {"model", "L_s", "h", "rmse", "r2", "points", "converged", "at_bounds", "profile"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["model"].get<std::string>(), std::string("fixed"));
    QCOMPARE(j["points"].get<int>(), 32);
    const Run text = run({"fit-trace", "--trace", kTidy, "--x", "warps_per_sm", "--y", "read_GBs", "--where",
                          "gpu=v100", "--model", "locality", "--profile", "v100"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("alpha = ") != std::string::npos);
}

void TestCliTrace::fitTraceTwoLevel()
{
    // The H100 SXM's 16 KiB-per-warp thrashing curve (L1 collapse, then the L2's fall): r^2 >= 0.9, every
    // number finite, the fitted keys in the JSON.
    const std::string cache = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/cache.csv";
    const json j
            = runJson({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--where",
                       "bytes_per_warp=16384", "--model", "two-level", "--profile", "h100-sxm", "--json"});
    for (const char *key : {"model", "L_s", "L_2", "L", "R_gbs", "R_dram", "R_l2", "beta", "S_s", "S_2", "alpha",
                            "alpha_2", "rmse", "r2", "points", "converged", "at_bounds", "residuals"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["model"].get<std::string>(), std::string("two-level"));
    QCOMPARE(j["points"].get<int>(), 32);
    QVERIFY(j["r2"].get<double>() >= 0.9);
    QCOMPARE(j["residuals"].size(), std::size_t(32));
    QVERIFY(j["S_2"].get<double>() > j["S_s"].get<double>());
    // The 8 KiB curve, which crosses both capacities within its 64 warps: 0.88 while every request past the
    // L1 queued at memory's rate R, at least 0.9 with the L2's own R_l2 (docs/MODEL.md 1.3).
    const json eight
            = runJson({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--where",
                       "bytes_per_warp=8192", "--model", "two-level", "--profile", "h100-sxm", "--json"});
    QVERIFY2(eight["r2"].get<double>() >= 0.9, qPrintable(QString::number(eight["r2"].get<double>())));
    const Run text
            = run({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--where",
                   "bytes_per_warp=16384", "--model", "two-level", "--profile", "h100-sxm"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("Cache fit (two-level)") != std::string::npos);
    QVERIFY(text.out.find("S_2 = ") != std::string::npos);
    // A filter that leaves one point: refused before any fit (the core test checks the 10-point rule).
    const Run few = run({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs",
                         "--where", "bytes_per_warp=16384", "--where", "ms=3.9683", "--model", "two-level",
                         "--profile", "h100-sxm"});
    QCOMPARE(few.status, 2);
    QVERIFY2(few.err.find("cache fit: needs at least 2 points (got 1)")
                     != std::string::npos,
             few.err.c_str());
}

void TestCliTrace::fitTraceHoldGroupAndErrors()
{
    // --hold R,L keeps the profile's R and L; every key gets a standard error, and the warnings say what is
    // degenerate: the 8 KiB curve's plateau lands above the H100's DRAM peak (2964 GB/s).
    const std::string cache = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/cache.csv";
    const json held = runJson({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--where",
                               "bytes_per_warp=8192", "--model", "two-level", "--profile", "h100-sxm", "--hold",
                               "R, L", "--json"});
    QCOMPARE(held["R_gbs"].get<double>(), 2072.0);
    QCOMPARE(held["L"].get<double>(), 763.5);
    QCOMPARE(held["parameters"].size(), std::size_t(10));
    for (const json &p : held["parameters"]) {
        const std::string key = p["key"].get<std::string>();
        QCOMPARE(p["held"].get<bool>(), key == "R" || key == "L");
        QVERIFY(p["sigma"].is_null() || p["sigma"].get<double>() >= 0);
        QVERIFY(p["lo"].get<double>() <= p["value"].get<double>() && p["value"].get<double>() <= p["hi"].get<double>());
    }
    QVERIFY(!held["warnings"].empty());
    const Run text = run({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--where",
                          "bytes_per_warp=8192", "--model", "two-level", "--profile", "h100-sxm"});
    QCOMPARE(text.status, 0);
    QVERIFY2(text.out.find("Errors    L_s +-") != std::string::npos, text.out.c_str());
    QVERIFY2(text.out.find("inf") == std::string::npos && text.out.find("nan") == std::string::npos, text.out.c_str());
    QVERIFY2(text.out.find("Warning   the plateau R_dram = ") != std::string::npos, text.out.c_str());

    // --group: the 8 and 16 KiB curves as one machine, a beta each, the larger footprint's about twice.
    QTemporaryDir dir;
    std::ifstream in(cache);
    std::ostringstream both;
    std::string line;
    std::getline(in, line);
    both << line << '\n';
    while (std::getline(in, line)) {
        if (line.find(",8192,") != std::string::npos || line.find(",16384,") != std::string::npos)
            both << line << '\n';
    }
    const std::string two = writeFile(dir, "cache_8_16.csv", both.str());
    const json joint = runJson({"fit-trace", "--trace", two, "--x", "warps_per_sm", "--y", "request_gbs", "--group",
                                "bytes_per_warp", "--model", "two-level", "--profile", "h100-sxm", "--json"});
    QCOMPARE(joint["points"].get<int>(), 64);
    QCOMPARE(joint["traces"].size(), std::size_t(2));
    QCOMPARE(joint["traces"][0]["name"].get<std::string>(), std::string("bytes_per_warp=8192"));
    const double ratio = joint["traces"][1]["beta"].get<double>() / joint["traces"][0]["beta"].get<double>();
    QVERIFY2(ratio > 1.5 && ratio < 2.6, qPrintable(QString::number(ratio)));
    QVERIFY(joint["r2"].get<double>() > 0.9);

    // Refused: a key that is no parameter, --hold or --group with the roofline, --group without a table.
    const Run bad = run({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--model",
                         "locality", "--profile", "h100-sxm", "--hold", "Rx"});
    QCOMPARE(bad.status, 2);
    QVERIFY2(bad.err.find("cannot hold 'Rx': it is no parameter (the locality fit fits L_s, alpha, beta)")
                     != std::string::npos, bad.err.c_str());
    const Run roof = run({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs", "--hold", "R"});
    QCOMPARE(roof.status, 2);
    QVERIFY(roof.err.find("'--hold' and '--group' go with --model fixed") != std::string::npos);
}

void TestCliTrace::fitTraceLongTrace()
{
    // The H100 SXM's curve at 1 KiB per warp, its 32 points 100 times over, each throughput moved by up to
    // 1 %: 3,200 points, fitted on 2,048 spread over k, with rmse, r^2 and the residuals over all 3,200.
    const std::string cache = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/cache.csv";
    std::ifstream in(cache);
    std::string line;
    std::getline(in, line);
    std::vector<std::pair<std::string, double>> curve;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string cell; std::getline(fields, cell, ',');)
            f.push_back(cell);
        if (f.at(1) == "1024")
            curve.emplace_back(f.at(0), std::stod(f.at(5)));
    }
    QCOMPARE(curve.size(), std::size_t(32));
    std::string text = "warps_per_sm,request_gbs\n";
    for (int copy = 0; copy < 100; ++copy) {
        for (std::size_t i = 0; i < curve.size(); ++i)
            text += curve[i].first + "," + std::to_string(curve[i].second * (1 + 0.01 * std::sin(copy * 7.0 + i))) + "\n";
    }
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "long.csv", text);
    const json j = runJson({"fit-trace", "--trace", path, "--x", "warps_per_sm", "--y", "request_gbs", "--model",
                            "locality", "--profile", "h100-sxm", "--json"});
    QCOMPARE(j["points"].get<int>(), 3200);
    QCOMPARE(j["fit_points"].get<int>(), 2048);
    QCOMPARE(j["residuals"].size(), std::size_t(3200));
    // The same fit as on the 32 points themselves, within the noise (the locality curve does not follow this
    // L1-resident curve well: r^2 is below 0 either way).
    const json one = runJson({"fit-trace", "--trace", cache, "--x", "warps_per_sm", "--y", "request_gbs",
                              "--where", "bytes_per_warp=1024", "--model", "locality", "--profile", "h100-sxm",
                              "--json"});
    QCOMPARE(one["fit_points"].get<int>(), 32);
    QVERIFY2(std::abs(j["rmse"].get<double>() / one["rmse"].get<double>() - 1) < 0.01,
             (std::to_string(j["rmse"].get<double>()) + " vs " + std::to_string(one["rmse"].get<double>())).c_str());
    QVERIFY(std::abs(j["r2"].get<double>() - one["r2"].get<double>()) < 0.02);
    const Run r = run({"fit-trace", "--trace", path, "--x", "warps_per_sm", "--y", "request_gbs", "--model",
                       "locality", "--profile", "h100-sxm"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.find(", 3200 points, fitted on 2048 of them spread over k\n") != std::string::npos, r.out.c_str());
}

void TestCliTrace::bandwidthCurveJson()
{
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "bw.tsv", "t\tbytes\n0\t10\n1\t2\n2\t10\n3\t2\n");
    const json j = runJson({"bandwidth-curve", "--trace", path, "--column", "bytes", "--window", "1",
                            "--limit", "5", "--json"});
    for (const char *key : {"sorted", "slowdown", "units", "window", "limit", "area_bytes", "total_bytes"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["sorted"].get<std::vector<double>>(), (std::vector<double> {10, 10, 2, 2}));
    QCOMPARE(j["slowdown"].get<double>(), 1.5);
    QCOMPARE(j["units"].get<int>(), 4);
    QCOMPARE(j["area_bytes"].get<double>(), 24.0);
    const json smooth = runJson({"bandwidth-curve", "--trace", path, "--column", "bytes", "--window", "2",
                                 "--limit", "5", "--json"});
    // Centred, the trace mirrored at its ends (MODEL.md 4): 10/4 + 10/2 + 2/4 = 8 first, 10/4 + 2/2 + 2/4 = 4
    // last; the area stays the 24 bytes moved.
    QCOMPARE(smooth["sorted"].get<std::vector<double>>(), (std::vector<double> {8, 6, 6, 4}));
    QCOMPARE(smooth["area_bytes"].get<double>(), 24.0);
    const Run text = run({"bandwidth-curve", "--trace", path, "--column", "bytes", "--limit", "5"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("Slowdown  1.5000") != std::string::npos);
}

void TestCliTrace::bandwidthCurvePerfStat()
{
    const json j = runJson({"bandwidth-curve", "--trace", kExcerpt, "--format", "perf-stat", "--column",
                            "imc-bytes", "--limit", "1e8", "--json"});
    QCOMPARE(j["units"].get<int>(), 3);
    QCOMPARE(j["sorted"].size(), std::size_t(3));
    QVERIFY(j["slowdown"].get<double>() > 1);
    const json cycles = runJson({"bandwidth-curve", "--trace", kExcerpt, "--input-format", "perf-stat", "--column",
                                 "cycles:D", "--limit", "1e12", "--json"});
    QCOMPARE(cycles["slowdown"].get<double>(), 1.0);
}

void TestCliTrace::help()
{
    for (const char *command : {"fit-trace", "bandwidth-curve"}) {
        const Run r = run({command, "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find("Usage: crossroof-cli ") != std::string::npos);
    }
    const Run usage = run({"--help"});
    QVERIFY(usage.out.find("fit-trace") != std::string::npos);
    QVERIFY(usage.out.find("bandwidth-curve") != std::string::npos);
}

void TestCliTrace::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no trace") << QStringList {"fit-trace", "--x", "k", "--y", "gbs"}
                              << "crossroof-cli fit-trace: option '--trace' is required";
    QTest::newRow("no y") << QStringList {"fit-trace", "--trace", "@/t.csv", "--x", "k"}
                          << "crossroof-cli fit-trace: option '--y' is required";
    QTest::newRow("missing file")
            << QStringList {"fit-trace", "--trace", "@/none.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/none.csv: cannot read (No such file or directory)";
    QTest::newRow("unknown column")
            << QStringList {"fit-trace", "--trace", "@/t.csv", "--x", "warps", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/t.csv:1: no column 'warps' in the header (columns: run, k, gbs)";
    QTest::newRow("junk cell")
            << QStringList {"fit-trace", "--trace", "@/junk.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/junk.csv:3:3: column 'gbs': 'n/a' is not a number";
    QTest::newRow("nan cell")
            << QStringList {"fit-trace", "--trace", "@/nan.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/nan.csv:4:5: column 'gbs': 'NaN' is not a finite number";
    // As the GUI's table import: refused with the line, not later by the fit's point number (issue 19).
    QTest::newRow("negative warps")
            << QStringList {"fit-trace", "--trace", "@/negk.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/negk.csv:3:1: column 'k': must not be negative (got -2)";
    // Squares beyond a double (1.7e308 GB/s printed R = inf, r^2 = -nan): refused with the line.
    QTest::newRow("throughput whose square overflows")
            << QStringList {"fit-trace", "--trace", "@/big.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/big.csv:3:3: column 'gbs': 1.7e308 is too large to fit (at most "
               "1e+150: its square would overflow)";
    QTest::newRow("json too: nothing infinite printed")
            << QStringList {"fit-trace", "--trace", "@/big.csv", "--x", "k", "--y", "gbs", "--json"}
            << "crossroof-cli fit-trace: @/big.csv:3:3: column 'gbs': 1.7e308 is too large to fit (at most "
               "1e+150: its square would overflow)";
    QTest::newRow("bad where")
            << QStringList {"fit-trace", "--trace", "@/t.csv", "--x", "k", "--y", "gbs", "--where", "run"}
            << "crossroof-cli fit-trace: option '--where': expected COLUMN=VALUE (got 'run')";
    QTest::newRow("no rows")
            << QStringList {"fit-trace", "--trace", "@/t.csv", "--x", "k", "--y", "gbs", "--where", "run=C"}
            << "crossroof-cli fit-trace: @/t.csv: no rows where run=C (values of 'run': A, B)";
    QTest::newRow("bad model")
            << QStringList {"fit-trace", "--trace", "@/t.csv", "--x", "k", "--y", "gbs", "--model", "spline"}
            << "crossroof-cli fit-trace: option '--model': must be roofline, fixed, locality or two-level "
               "(got 'spline')";
    QTest::newRow("one point")
            << QStringList {"fit-trace", "--trace", "@/t.csv", "--x",     "k",    "--y",
                            "gbs",       "--where", "k=1",     "--where", "run=A"}
            << "crossroof-cli fit-trace: @/t.csv: roofline fit: needs at least 2 points (got 1)";
    QTest::newRow("empty file") << QStringList {"fit-trace", "--trace", "@/empty.csv", "--x",
                                                "k",         "--y",     "gbs"}
                                << "crossroof-cli fit-trace: @/empty.csv: empty file, no CSV header";
    QTest::newRow("binary")
            << QStringList {"fit-trace", "--trace", "@/binary.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/binary.csv:1:2: binary data (byte 0x00); not CSV files "
               "text";
    QTest::newRow("huge")
            << QStringList {"fit-trace", "--trace", "@/huge.csv", "--x", "k", "--y", "gbs"}
            << "crossroof-cli fit-trace: @/huge.csv: 300000000 bytes, over the 64 MiB limit for CSV "
               "files";
    QTest::newRow("bw no limit") << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs"}
                                 << "crossroof-cli bandwidth-curve: option '--limit' is required";
    QTest::newRow("bw bad limit")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs", "--limit", "-3"}
            << "crossroof-cli bandwidth-curve: option '--limit': must be a finite number > 0 "
               "(got '-3')";
    QTest::newRow("bw bad window")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs",
                            "--window",        "0",       "--limit", "1"}
            << "crossroof-cli bandwidth-curve: option '--window': must be between 1 and "
               "1000000000 (got 0)";
    QTest::newRow("bw long window")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs",
                            "--window",        "99",      "--limit", "1"}
            << "crossroof-cli bandwidth-curve: @/t.csv: column 'gbs': bandwidth curve: the "
               "smoothing window (99 units) is longer than the trace (6 units)";
    QTest::newRow("bw negative bytes")
            << QStringList {"bandwidth-curve", "--trace", "@/neg.csv", "--column", "bytes", "--limit", "1"}
            << "crossroof-cli bandwidth-curve: @/neg.csv: column 'bytes': bandwidth curve: "
               "unit 2: bytes must be a finite number >= 0 (got -5)";
    // Sums and ratios beyond a double (mean -nan, JSON nulls, an inf slowdown): refused, naming the unit.
    QTest::newRow("bw bytes whose sum overflows")
            << QStringList {"bandwidth-curve", "--trace", "@/bigbytes.csv", "--column", "bytes", "--limit", "1e8"}
            << "crossroof-cli bandwidth-curve: @/bigbytes.csv: column 'bytes': bandwidth curve: unit 2: the bytes "
               "up to this unit add up to more than a double holds (about 1.8e308)";
    QTest::newRow("bw json too: no nulls printed")
            << QStringList {"bandwidth-curve", "--trace", "@/bigbytes.csv", "--column", "bytes", "--limit", "1e8",
                            "--json"}
            << "crossroof-cli bandwidth-curve: @/bigbytes.csv: column 'bytes': bandwidth curve: unit 2: the bytes "
               "up to this unit add up to more than a double holds (about 1.8e308)";
    QTest::newRow("bw denormal limit")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs", "--limit", "1e-310"}
            << "crossroof-cli bandwidth-curve: @/t.csv: column 'gbs': bandwidth curve: unit 1: the demand 100 "
               "bytes is more than 1.8e308 times the limit 1e-310 bytes per unit (a limit this small means "
               "nothing)";
    QTest::newRow("bw denormal limit of a connection")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--column", "gbs", "--limit", "1e-310",
                            "--column", "k", "--limit", "1"}
            << "crossroof-cli bandwidth-curve: @/t.csv: dominance: connection 'gbs': unit 1: the demand 100 "
               "bytes is more than 1.8e308 times the limit 1e-310 bytes per unit (a limit this small means "
               "nothing)";
    QTest::newRow("bw bad format")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv",  "--column", "gbs",
                            "--limit",         "1",       "--input-format", "xml"}
            << "crossroof-cli bandwidth-curve: option '--input-format': must be csv or perf-stat "
               "(got 'xml')";
    QTest::newRow("bw bad output format")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv",  "--column", "gbs",
                            "--limit",         "1",       "--format", "xml"}
            << "crossroof-cli bandwidth-curve: option '--format': must be text, json or csv (got 'xml')";
    QTest::newRow("bw json and csv")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv",  "--column", "gbs",
                            "--limit",         "1",       "--format", "csv", "--json"}
            << "crossroof-cli bandwidth-curve: option '--json': conflicts with '--format csv'";
    QTest::newRow("bw unknown option")
            << QStringList {"bandwidth-curve", "--trace", "@/t.csv", "--colum", "gbs"}
            << "crossroof-cli bandwidth-curve: unknown option '--colum'";
}

void TestCliTrace::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeFile(dir, "t.csv", "run,k,gbs\nA,1,100\nA,2,200\nA,4,300\nA,8,300\nB,1,5\nB,2,10\n");
    writeFile(dir, "junk.csv", "k,gbs\n1,100\n2,n/a\n");
    writeFile(dir, "nan.csv", "k,gbs\n1,100\n2,200\n4,  NaN\n");
    writeFile(dir, "neg.csv", "bytes\n1\n-5\n");
    writeFile(dir, "bigbytes.csv", "bytes\n1e308\n1e308\n1e308\n");
    writeFile(dir, "negk.csv", "k,gbs\n1,100\n-2,200\n");
    writeFile(dir, "big.csv", "k,gbs\n1,1e150\n2,1.7e308\n3,1.7e308\n");
    writeFile(dir, "empty.csv", "");
    writeFile(dir, "binary.csv", std::string("k\0ELF", 5));
    const std::string huge = (dir.path() + QStringLiteral("/huge.csv")).toStdString();
    writeFile(dir, "huge.csv", "k,gbs\n");
    std::filesystem::resize_file(huge, 300ull * 1000 * 1000);
    std::vector<std::string> argv;
    for (QString a : args)
        argv.push_back(a.replace(QLatin1Char('@'), dir.path()).toStdString());
    const Run r = run(argv);
    QCOMPARE(r.status, 2);
    QVERIFY(r.out.empty());
    QCOMPARE(QString::fromStdString(r.err),
             message.replace(QLatin1Char('@'), dir.path()) + QLatin1Char('\n'));
}

QTEST_APPLESS_MAIN(TestCliTrace)
#include "tst_cli_trace.moc"
