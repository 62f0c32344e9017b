// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli on gpu-benches' outputs as its programs write them today (tests/data/gpu_benches): fit-trace
// picks a kernel by its own name, a wrong --format is refused naming the file's format, and calibrate makes
// an MI100 profile from one run's gpu-latency and gpu-stream files as they are.
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <filesystem>

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

QTEST_APPLESS_MAIN(TestCliGpuBenches)
#include "tst_cli_gpu_benches.moc"
