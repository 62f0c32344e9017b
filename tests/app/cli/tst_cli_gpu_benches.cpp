// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli on gpu-benches' outputs as its programs write them today (tests/data/gpu_benches): fit-trace
// picks a kernel by its own name, a wrong --format is refused naming the file's format, and calibrate makes
// an MI100 profile from one run's gpu-latency and gpu-stream files as they are, and its levels' bandwidths and
// capacities from its gpu-cache and gpu-l2-stream files.
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

using nlohmann::json;
using crossroof::test::run;
using crossroof::test::runJson;

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/gpu_benches/";
const std::string kStream = kData + "stream_mi100.txt";
const std::string kLatency = kData + "latency_mi100.txt";
const std::string kShared = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches/current/";

} // namespace

class TestCliGpuBenches : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fitTraceTakesTheKernelsName_data();
    void fitTraceTakesTheKernelsName();
    void wrongFormatNamed();
    void calibrateMi100FromItsFiles_data();
    void calibrateMi100FromItsFiles();
    void calibrateLevelsFromCacheAndL2Stream_data();
    void calibrateLevelsFromCacheAndL2Stream();
};

void TestCliGpuBenches::fitTraceTakesTheKernelsName_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("series");
    QTest::addColumn<QString>("name");
    QTest::newRow("today's gpu-stream") << "stream_mi100.txt" << "triad" << "mi100 triad";
    QTest::newRow("older gpu-stream") << "a100_40.txt" << "triad" << "a100_40 triad";
    QTest::newRow("the whole name") << "a100_40.txt" << "a100_40 read" << "a100_40 read";
    QTest::newRow("gpu-l2-stream") << "l2-stream_mi100.txt" << "kernel 2, 511 kB" << "mi100 kernel 2, 511 kB";
}

void TestCliGpuBenches::fitTraceTakesTheKernelsName()
{
    QFETCH(QString, file);
    QFETCH(QString, series);
    QFETCH(QString, name);
    const auto r = run({"fit-trace", "--trace", kData + file.toStdString(), "--series", series.toStdString()});
    QVERIFY2(r.status == 0, r.err.c_str());
    QVERIFY2(QString::fromStdString(r.out).contains("series '" + name + "'"), r.out.c_str());
    // Today's header is gpu-stream too when asked for by name.
    if (file == "stream_mi100.txt") {
        QCOMPARE(run({"fit-trace", "--trace", kStream, "--format", "gpu-stream", "--series", "read"}).status, 0);
    }
}

void TestCliGpuBenches::wrongFormatNamed()
{
    const std::string roofline = kData + "roofline_h200.txt";
    const auto r = run({"fit-trace", "--trace", roofline, "--format", "perf-stat"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find(roofline + ": a gpu-benches roofline output, not perf stat output") != std::string::npos,
             r.err.c_str());
    // Detected, it is a roofline, with no throughput against warps to fit.
    const auto detected = run({"fit-trace", "--trace", roofline});
    QCOMPARE(detected.status, 2);
    QVERIFY2(detected.err.find("a gpu-roofline file holds no throughput against warps per SM") != std::string::npos,
             detected.err.c_str());
    // A latency output is no stream curve, and the other way round.
    const auto swapped = run({"calibrate", "--stream", kLatency, "--profile", "a100-40", "--fit", "R"});
    QCOMPARE(swapped.status, 2);
    QVERIFY2(swapped.err.find("a gpu-benches latency output, not a stream curve") != std::string::npos,
             swapped.err.c_str());
    // --cache takes gpu-cache output, --l2-stream gpu-l2-stream output; the others are named.
    const std::string l2Cache = kData + "l2-cache_mi100.txt";
    const auto notCache = run({"calibrate", "--cache", l2Cache});
    QCOMPARE(notCache.status, 2);
    QVERIFY2(notCache.err.find(l2Cache + ": a gpu-benches l2-cache output, not a gpu-benches cache output (what "
                                         "--cache takes)")
                     != std::string::npos,
             notCache.err.c_str());
    const auto notL2Stream = run({"calibrate", "--l2-stream", kData + "cache_mi100.txt"});
    QCOMPARE(notL2Stream.status, 2);
    QVERIFY2(notL2Stream.err.find("a gpu-benches cache output, not a gpu-benches l2-stream output") != std::string::npos,
             notL2Stream.err.c_str());
    // The bundled l2-stream excerpt has two footprints: no level of three.
    const auto twoFootprints = run({"calibrate", "--l2-stream", kData + "l2-stream_mi100.txt"});
    QCOMPARE(twoFootprints.status, 2);
    QVERIFY2(twoFootprints.err.find("3 footprints or more (the file has 2)") != std::string::npos,
             twoFootprints.err.c_str());
    // A gpu-cache output whose L1 rows (4, 8, 16 kB) read 0 GB/s measures no L1 level: refused, not R_l1 = 0
    // (no L1 ceiling) as if measured.
    const std::string zero = (std::filesystem::temp_directory_path() / "crossroof_cache_zero.txt").string();
    {
        std::ifstream in(kData + "cache_mi100.txt");
        std::ofstream o(zero);
        for (std::string line; std::getline(in, line);) {
            for (const char *l1 : {"    9098.8 GB/s", "    8304.3 GB/s", "   10485.8 GB/s"}) {
                if (const std::size_t at = line.find(l1); at != std::string::npos)
                    line.replace(at, std::strlen(l1), "       0.0 GB/s");
            }
            o << line << '\n';
        }
    }
    const auto zeros = run({"calibrate", "--cache", zero});
    std::filesystem::remove(zero);
    QCOMPARE(zeros.status, 2);
    QVERIFY2(zeros.err.find("one level only") != std::string::npos, zeros.err.c_str());
    // Nothing to fit with the levels alone: a fit is refused naming the file.
    const auto fitR = run({"calibrate", "--cache", kData + "cache_mi100.txt", "--fit", "R"});
    QCOMPARE(fitR.status, 2);
    QVERIFY2(fitR.err.find("cache_mi100.txt: 0 measured values cannot fit 1 parameters") != std::string::npos,
             fitR.err.c_str());
}

void TestCliGpuBenches::calibrateMi100FromItsFiles_data()
{
    QTest::addColumn<QString>("dir");
    QTest::newRow("bundled copies") << QString::fromStdString(kData);
    QTest::newRow("shared files") << QString::fromStdString(kShared);
}

void TestCliGpuBenches::calibrateMi100FromItsFiles()
{
    QFETCH(QString, dir);
    const std::string stream = dir.toStdString() + "stream_mi100.txt";
    const std::string latency = dir.toStdString() + "latency_mi100.txt";
    if (!std::filesystem::exists(latency))
        QSKIP("../shared/data/gpu-benches/current is not here");
    // The library has no MI100: a profile from one gpu-benches run, starting from another GPU's.
    const json j = runJson({"calibrate", "--latency", latency, "--stream", stream, "--profile", "a100-40", "--fit",
                            "R", "--json"});
    // The latency file's plateaus, in its clock (1430 MHz): DRAM (medians of the five largest and smallest
    // footprints) and the L2 run from 16.6 kB.
    QCOMPARE(j["set"]["L"]["value"].get<double>(), 634.3);
    QCOMPARE(j["set"]["L_s"]["value"].get<double>(), 135.0);
    const double l2 = j["set"]["L_2"]["value"].get<double>();
    QVERIFY2(l2 > 261 && l2 < 268, qPrintable(QString::number(l2)));
    QCOMPARE(j["set"]["clock_ghz"]["value"].get<double>(), 1.43);
    QCOMPARE(j["parameters"]["L"].get<double>(), 634.3);
    QCOMPARE(j["machine"]["clock_ghz"].get<double>(), 1.43);
    // R from the read kernel's rows with whole warps per SM: its plateau is 880-900 GB/s above 50 %
    // occupancy.
    const double R = j["parameters"]["R"].get<double>();
    QVERIFY2(R > 800 && R < 960, qPrintable(QString::number(R)));
}

void TestCliGpuBenches::calibrateLevelsFromCacheAndL2Stream_data()
{
    QTest::addColumn<QString>("l2Stream");
    QTest::addColumn<double>("l2Gbs");
    QTest::addColumn<double>("dramGbs");
    QTest::addColumn<double>("dramFromKb");
    // The excerpt's ten footprints (kernels' best over the occupancies): kernel 3 is fastest at the smallest,
    // 2402, 2481, 2446, 2324 GB/s up to 2431 kB (median 2424), then 1244 GB/s at 3839 kB, above the geometric
    // mean of 2424 and its last level (453-515, median 483): 1082; 503 at 5759 kB. Kernel 4's last level is the
    // highest: 834, 810, 808 GB/s from 16255 kB.
    QTest::newRow("bundled excerpt") << QString::fromStdString(kData + "l2-stream_mi100_footprints.txt") << 2424.0
                                     << 810.0 << 16255.0;
    // The whole file: kernel 3's 16 footprints 383-3071 kB (1994-2484 GB/s, median 2433.5), 1244 GB/s at 3839
    // kB and 1070 at 4095 kB below the midpoint 1086 to its last level (485); kernel 4's last level the 81
    // footprints from 11647 kB (805-936 GB/s, median 812).
    QTest::newRow("shared file") << QString::fromStdString(kShared + "l2-stream_mi100.txt") << 2433.5 << 812.0
                                 << 11647.0;
}

void TestCliGpuBenches::calibrateLevelsFromCacheAndL2Stream()
{
    QFETCH(QString, l2Stream);
    QFETCH(double, l2Gbs);
    QFETCH(double, dramGbs);
    QFETCH(double, dramFromKb);
    if (!std::filesystem::exists(l2Stream.toStdString()))
        QSKIP("../shared/data/gpu-benches/current is not here");
    const std::string cache = kData + "cache_mi100.txt";
    const std::string stream = l2Stream.toStdString();
    const std::vector<std::string> mi100 {"--profile", "a100-40", "--set", "sm_count=120", "--json"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.end(), mi100.begin(), mi100.end());
        return runJson(args);
    };

    // gpu-cache: the L1 level is the 4, 8 and 16 kB data sets (9098.8, 8304.3, 10485.8 GB/s: median 9098.8),
    // which the 24 kB one leaves (2700 GB/s); the L2 level the 20 data sets 24-320 kB (median of 2515.0 and
    // 2516.7). The data sets never leave the L2: no DRAM level, so no R_dram and no S_2.
    const json c = with({"calibrate", "--cache", cache});
    QCOMPARE(c["fitted"].size(), std::size_t(0));
    QCOMPARE(c["set"]["R_l1"]["value"].get<double>(), 9098.8);
    QCOMPARE(c["set"]["S_s"]["value"].get<double>(), 16.0);
    QCOMPARE(c["set"]["R_l2"]["value"].get<double>(), 2515.85);
    QVERIFY(!c["set"].contains("R_dram") && !c["set"].contains("S_2"));
    QCOMPARE(c["machine"]["R_l1"].get<double>(), 9098.8);
    QVERIFY2(c["notes"].dump().find("stay in the L2: no DRAM level") != std::string::npos, c["notes"].dump().c_str());

    // gpu-l2-stream: the L2 bandwidth, its capacity (3839 kB over the 120 SMs) and the DRAM bandwidth.
    const json s = with({"calibrate", "--l2-stream", stream});
    QCOMPARE(s["set"]["R_l2"]["value"].get<double>(), l2Gbs);
    QCOMPARE(s["set"]["S_2"]["value"].get<double>(), 3839.0 / 120);
    QCOMPARE(s["set"]["R_dram"]["value"].get<double>(), dramGbs);
    QVERIFY2(s["set"]["R_dram"]["how"].get<std::string>().find("kernel 4") != std::string::npos,
             s["set"]["R_dram"]["how"].dump().c_str());
    QVERIFY2(s["set"]["R_dram"]["how"].get<std::string>().find(QString::number(dramFromKb).toStdString() + "-323839 kB")
                     != std::string::npos
                     || s["set"]["R_dram"]["how"].get<std::string>().find(QString::number(dramFromKb).toStdString() + "-336895 kB")
                                != std::string::npos,
             s["set"]["R_dram"]["how"].dump().c_str());

    // A key the fit is to take is fitted, the measurement noted as not used.
    const json fitted = with({"calibrate", "--l2-stream", stream, "--stream", kStream, "--fit", "R,R_dram"});
    QVERIFY(!fitted["set"].contains("R_dram"));
    QVERIFY2(fitted["notes"].dump().find("R_dram measured by " + std::filesystem::path(stream).filename().string()
                                         + " as " + QString::number(dramGbs).toStdString()
                                         + " GB/s: fitted instead, as it is among the keys to fit")
                     != std::string::npos,
             fitted["notes"].dump().c_str());

    // Both, with the latency and stream files of the same run: a profile for the MI100. The cache file,
    // given first, sets R_l2; the report says which file sets which level.
    const std::string profile = (std::filesystem::temp_directory_path() / "crossroof_mi100_levels.json").string();
    const auto text = run({"calibrate", "--cache", cache, "--l2-stream", stream, "--latency", kData + "latency_mi100.txt",
                           "--stream", kStream, "--fit", "R", "--profile", "a100-40", "--set", "sm_count=120", "--out", profile});
    QVERIFY2(text.status == 0, text.err.c_str());
    QVERIFY2(text.out.find("R_l2 = 2516 GB/s  (" + cache + ": gpu-cache: L2 plateau") != std::string::npos,
             text.out.c_str());
    QVERIFY2(text.out.find("R_dram = " + QString::number(dramGbs).toStdString() + " GB/s  (" + stream
                           + ": gpu-l2-stream: DRAM plateau")
                     != std::string::npos,
             text.out.c_str());
    QVERIFY2(text.out.find("note: R_l2 measured by " + std::filesystem::path(stream).filename().string() + " as "
                           + QString::number(l2Gbs).toStdString() + " GB/s: not used, cache_mi100.txt sets it")
                     != std::string::npos,
             text.out.c_str());
    std::ifstream file(profile);
    const json written = json::parse(file);
    const json &p = written["parameters"];
    QCOMPARE(p["R_l1"].get<double>(), 9098.8);
    QCOMPARE(p["R_l2"].get<double>(), 2515.85);
    QCOMPARE(p["S_s"].get<double>(), 16.0);
    QCOMPARE(p["S_2"].get<double>(), 3839.0 / 120);
    QCOMPARE(p["R_dram"].get<double>(), dramGbs);
    QCOMPARE(p["L"].get<double>(), 634.3);
    std::filesystem::remove(profile);
}

QTEST_APPLESS_MAIN(TestCliGpuBenches)
#include "tst_cli_gpu_benches.moc"
