// SPDX-License-Identifier: GPL-3.0-or-later
// gpu-benches' footprint sweeps against the model's levels: the plateaus of today's MI100 outputs
// (tests/data/gpu_benches, README there) beside the parameters' values, numbers read off the files by hand.
#include "core/calibration/footprint_comparison.h"
#include "core/traces/trace_import.h"

#include <QTest>

#include <cmath>

using namespace crossroof;
using core::KernelLimit;

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/gpu_benches/";

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

} // namespace

class TestFootprintComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pointerChaseLevelsBesideTheLatencies();
    void cacheSweepLevelsBesideTheBandwidths();
    void aLevelWithoutItsBandwidthIsNamedStill();
    void otherTracesGetANote();
};

void TestFootprintComparison::pointerChaseLevelsBesideTheLatencies()
{
    const core::MeasuredTrace trace = core::readTraceFile(kData + "latency_mi100.txt").traces.front();
    core::XModelParams p;
    p.L_s = 120;
    p.L_2 = 300;
    p.L = 600;
    const core::FootprintComparison c = core::compareFootprintTrace(trace, p);
    QVERIFY2(c.note.empty(), c.note.c_str());
    QCOMPARE(c.levels.size(), std::size_t(3));
    // MI100: L1 135 cycles, L2 264.4, DRAM 634.3 (the medians tst_gpu_benches_outputs checks, the L2 to 1 %).
    QCOMPARE(c.levels[0].level, KernelLimit::L1);
    QVERIFY(near(c.levels[0].measured, 135.0, 0.5));
    QCOMPARE(c.levels[0].model, 120.0);
    QVERIFY(near(c.levels[0].offBy(), 120.0 / 135.0 - 1, 0.005));
    QCOMPARE(c.levels[1].level, KernelLimit::L2);
    QVERIFY(near(c.levels[1].measured, 264.4, 0.01 * 264.4)); // the run in order of footprint: within 1 %
    QCOMPARE(c.levels[1].model, 300.0);
    QCOMPARE(c.levels[2].level, KernelLimit::DRAM);
    QVERIFY(near(c.levels[2].measured, 634.3, 0.5));
    QCOMPARE(c.levels[2].model, 600.0);
    QVERIFY(c.levels[0].to_kb < c.levels[1].from_kb);
}

void TestFootprintComparison::cacheSweepLevelsBesideTheBandwidths()
{
    const core::MeasuredTrace trace = core::readTraceFile(kData + "cache_mi100.txt").traces.front();
    QCOMPARE(trace.kind, core::TraceKind::BandwidthVsFootprint);
    // An MI100-like machine: 16 KiB of L1 per CU, 8 MiB of L2 over 120 CUs.
    core::XModelParams p;
    p.sm_count = 120;
    p.S_s = 16;
    p.S_2 = 8192.0 / 120;
    p.R_l1 = 10000;
    p.R_l2 = 4000;
    p.R_dram = 1000;
    const core::FootprintComparison c = core::compareFootprintTrace(trace, p);
    QVERIFY2(c.note.empty(), c.note.c_str());
    QVERIFY(c.levels.size() >= 2);
    // The first level, at the smallest data sets, is the L1's: the model gives R_l1 there; each later level
    // lies at larger footprints and measures less.
    QCOMPARE(c.levels[0].level, KernelLimit::L1);
    QCOMPARE(c.levels[0].model, 10000.0);
    QVERIFY(c.levels[0].measured > 5000 && c.levels[0].measured < 15000);
    for (std::size_t i = 1; i < c.levels.size(); ++i) {
        QVERIFY(c.levels[i].from_kb > c.levels[i - 1].to_kb);
        QVERIFY(c.levels[i].measured < c.levels[i - 1].measured);
        QCOMPARE(c.levels[i].model, core::valueAtFootprint(core::bandwidthByFootprint(p),
                                                            std::sqrt(c.levels[i].from_kb * c.levels[i].to_kb)));
    }
}

void TestFootprintComparison::aLevelWithoutItsBandwidthIsNamedStill()
{
    // The MI100's cache sweep beside a V100-like machine that knows only its DRAM bandwidth: the plateau at 4 to
    // 16 kB lies in the 64 KiB L1 and is named so, beside the DRAM bandwidth the model gives there (it said
    // "DRAM" for a 9 TB/s plateau).
    const core::MeasuredTrace trace = core::readTraceFile(kData + "cache_mi100.txt").traces.front();
    core::XModelParams p;
    p.S_s = 64;
    p.R_l1 = 0;
    p.R_l2 = 0;
    p.R_dram = 895;
    const core::FootprintComparison c = core::compareFootprintTrace(trace, p);
    QVERIFY2(c.note.empty(), c.note.c_str());
    QCOMPARE(c.levels.front().level, KernelLimit::L1);
    QCOMPARE(c.levels.front().model_level, KernelLimit::DRAM);
    QCOMPARE(c.levels.front().model, 895.0);
    QVERIFY(c.levels.front().measured > 5000);
}

void TestFootprintComparison::otherTracesGetANote()
{
    core::MeasuredTrace trace;
    trace.name = "stream";
    trace.kind = core::TraceKind::BandwidthVsWarps;
    trace.x = {1, 2, 3};
    trace.y = {1, 2, 3};
    const core::FootprintComparison c = core::compareFootprintTrace(trace, core::XModelParams{});
    QVERIFY(c.levels.empty());
    QCOMPARE(c.note, std::string("stream: not a footprint sweep"));
    // A chase too short for its levels says so, naming the trace.
    trace.kind = core::TraceKind::LatencyVsFootprint;
    trace.x = {1, 2};
    trace.y = {30, 400};
    const core::FootprintComparison shortChase = core::compareFootprintTrace(trace, core::XModelParams{});
    QVERIFY(shortChase.levels.empty());
    QVERIFY(shortChase.note.starts_with("stream:"));
}

QTEST_APPLESS_MAIN(TestFootprintComparison)
#include "tst_footprint_comparison.moc"
