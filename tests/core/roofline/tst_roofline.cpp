// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline's model on hand-worked numbers: the memory, compute and issue ceilings, Little's law per level,
// the FP32 and FP64 pipes of a compute capability, a kernel's DRAM, L2 and L1 intensities and its predicted
// point, the ceilings at a kernel's intensities, and the X-model's operating point under the roof.
#include "core/profiles/profile_library.h"
#include "core/roofline/measured_roofline.h"
#include "core/roofline/roofline.h"
#include "core/support/error.h"
#include "core/traces/trace_import.h"
#include "core/traces/kernel_table.h"

#include <QTest>

using namespace crossroof;

namespace {

/// 100 SMs at 1.5 GHz, 32-thread warps, R = 1600 GB/s, M = 4, E = 2 per L_c = 4 cycles, 16 warps with 2
/// requests of 128 B in flight each; L = 600, L_2 = 200, L_s = 32 cycles.
core::XModelParams machine()
{
    core::XModelParams p;
    p.sm_count = 100;
    p.clock_ghz = 1.5;
    p.warp_size = 32;
    p.R = 1600;
    p.M = 4;
    p.E = 2;
    p.L_c = 4;
    p.n = 16;
    p.m = 2;
    p.request_bytes = 128;
    p.L = 600;
    p.L_2 = 200;
    p.L_s = 32;
    return p;
}

/// 1e6 warp-instructions in 10 µs at 200 GB/s of DRAM, 2e5 load and 5e4 store sectors, 75 % L1 hits.
core::NcuKernel cachedKernel()
{
    core::NcuKernel k;
    k.id = "7";
    k.name = k.short_name = "cached";
    k.instructions = 1e6;
    k.duration_ns = 1e4;
    k.dram_gbs = 200;
    k.sectors_ld = 2e5;
    k.sectors_st = 5e4;
    k.l1_hit_rate = 0.75;
    return k;
}

} // namespace

class TestRoofline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void measuredRooflineInInstructions();
    void ceilings();
    void littlesLawPerLevel();
    void pipesOfTheComputeCapability();
    void kernelIntensities();
    void kernelsWithoutTheCounters();
    void predictedPoint();
    void ceilingsAtAKernel();
    void operatingPointUnderTheRoof();
    void realExport();
};

void TestRoofline::ceilings()
{
    const core::RooflineCeilings c = core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), machine());
    QCOMPARE(c.memory_gbs, 1600.0);
    // 4 warp-instructions per cycle per SM x 32 threads x 1.5 GHz x 100 SMs.
    QCOMPARE(c.compute_gops, 19200.0);
    QCOMPARE(c.ridge(), 12.0);
    // 16 warps issuing E/L_c = 0.5 instructions per cycle each: 8 > M = 4, the issue slots are full.
    QVERIFY(!c.issue_gops);
    core::XModelParams few = machine();
    few.n = 4; // 4 x 0.5 = 2 per cycle, half of M: 2 x 32 x 1.5 x 100
    QCOMPARE(*core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), few).issue_gops, 9600.0);
}

void TestRoofline::littlesLawPerLevel()
{
    const core::XModelParams p = machine();
    // 16 x 2 requests x 128 B = 4096 B in flight per SM over 600 cycles, x 1.5 GHz x 100 SMs = 1024 GB/s.
    QCOMPARE(*core::littleCeilingGbs(p, p.L), 1024.0);
    const core::RooflineCeilings c = core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), p);
    QCOMPARE(*c.dram_latency_gbs, 1024.0);
    QCOMPARE(*c.l2_latency_gbs, 3072.0); // over 200 cycles
    QCOMPARE(*c.l1_latency_gbs, 19200.0); // over 32 cycles
    // The workload's own request size: 32 B requests put a quarter of the bytes in flight.
    core::XModelParams small = p;
    small.req_bytes = 32;
    QCOMPARE(*core::littleCeilingGbs(small, small.L), 256.0);
    // No latency (a profile without L_2): no ceiling.
    small.L_2 = 0;
    QVERIFY(!core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), small).l2_latency_gbs);
}

void TestRoofline::pipesOfTheComputeCapability()
{
    // Hopper, 9.0: 128 FP32 and 64 FP64 lanes per SM; at 1.5 GHz on 100 SMs 19.2 and 9.6 Top/s.
    const auto pipes = core::pipeCeilings(*core::findBundledProfile("h100-sxm"), machine());
    QCOMPARE(pipes.size(), std::size_t(2));
    QCOMPARE(pipes[0].precision, std::string("FP32"));
    QCOMPARE(pipes[0].lanes, 128);
    QCOMPARE(pipes[0].gops, 19200.0);
    QCOMPARE(pipes[1].precision, std::string("FP64"));
    QCOMPARE(pipes[1].gops, 9600.0);
    // A GeForce Fermi's own FP64 rate: 4 lanes where compute capability 2.0 has 16.
    QCOMPARE(core::pipeCeilings(*core::findBundledProfile("gtx570-dp"), machine()).back().lanes, 4);
    // A CPU has none.
    QVERIFY(core::pipeCeilings(*core::findBundledProfile("epyc-9654"), machine()).empty());
}

void TestRoofline::kernelIntensities()
{
    const auto k = core::rooflineKernel(cachedKernel(), 32, nullptr);
    QVERIFY(k);
    // 32e6 thread-instructions in 10 µs: 3200 Gop/s; over 200 GB/s: 16 per DRAM byte.
    QCOMPARE(k->gops, 3200.0);
    QCOMPARE(k->dram_intensity, 16.0);
    QCOMPARE(k->duration_ns, 1e4);
    // 2.5e5 sectors x 32 B = 8 MB through L1: 4 per L1 byte; a quarter of it misses to L2: 16 per L2 byte.
    QCOMPARE(*k->l1_intensity, 4.0);
    QCOMPARE(*k->l2_intensity, 16.0);
    QVERIFY(!k->predicted_gops);
    // Without a hit rate no L2 point; without sectors no L1 point either.
    core::NcuKernel noHits = cachedKernel();
    noHits.l1_hit_rate.reset();
    QVERIFY(!core::rooflineKernel(noHits, 32, nullptr)->l2_intensity);
    noHits.sectors_ld.reset();
    noHits.sectors_st.reset();
    QVERIFY(!core::rooflineKernel(noHits, 32, nullptr)->l1_intensity);
}

void TestRoofline::kernelsWithoutTheCounters()
{
    core::NcuReport report;
    core::NcuKernel noDuration = cachedKernel();
    noDuration.duration_ns.reset();
    core::NcuKernel idle = cachedKernel();
    idle.dram_gbs = 0;
    report.kernels = {noDuration, idle, cachedKernel()};
    const auto kernels = core::rooflineKernels(report, {}, 32);
    QCOMPARE(kernels.size(), std::size_t(1));
    QCOMPARE(kernels.front().kernel, std::size_t(2));
}

void TestRoofline::predictedPoint()
{
    core::KernelRow row;
    row.predicted_gbs = 400;
    row.predicted_gops = 1600;
    const auto k = core::rooflineKernel(cachedKernel(), 32, &row);
    QCOMPARE(*k->predicted_gops, 1600.0);
    QCOMPARE(*k->predicted_gbs, 400.0);
    QCOMPARE(*k->predicted_intensity, 4.0);
    row.predicted_gbs = 0; // no DRAM traffic predicted: no point
    QVERIFY(!core::rooflineKernel(cachedKernel(), 32, &row)->predicted_gops);
}

void TestRoofline::ceilingsAtAKernel()
{
    const core::RooflineCeilings c = core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), machine());
    const core::KernelCeilings at = core::ceilingsAt(c, *core::rooflineKernel(cachedKernel(), 32, nullptr));
    QCOMPARE(at.memory_gops, 1600.0 * 16);
    QCOMPARE(at.compute_gops, 19200.0);
    QVERIFY(!at.issue_gops);
    QCOMPARE(*at.fp32_gops, 19200.0);
    QCOMPARE(*at.fp64_gops, 9600.0);
    QCOMPARE(*at.dram_latency_gops, 1024.0 * 16); // at 16 per DRAM byte
    QCOMPARE(*at.l2_latency_gops, 3072.0 * 16);   // at 16 per L2 byte
    QCOMPARE(*at.l1_latency_gops, 19200.0 * 4);   // at 4 per L1 byte
}

void TestRoofline::operatingPointUnderTheRoof()
{
    core::XModelParams p = machine();
    p.Z = 8; // 8 warp-instructions per 128 B request: 2 thread-instructions per byte
    const auto op = core::rooflineOperatingPoint(p);
    QVERIFY(op);
    QCOMPARE(op->intensity, 2.0);
    const core::RooflineCeilings c = core::rooflineCeilings(*core::findBundledProfile("h100-sxm"), p);
    QVERIFY(op->gops > 0);
    QVERIFY(op->gops <= std::min(c.memory_gbs * op->intensity, c.compute_gops) * (1 + 1e-9));
    // Half the requests hit: twice the instructions per DRAM byte.
    p.cache = core::CacheMode::Fixed;
    p.h = 0.5;
    QCOMPARE(core::rooflineOperatingPoint(p)->intensity, 4.0);
    // Every request hits: no DRAM traffic, no point.
    p.h = 1;
    QVERIFY(!core::rooflineOperatingPoint(p));
}

void TestRoofline::realExport()
{
    // Kernel 0 of the H100 export: 25,967,573 warp-instructions over 4,325,376 sectors of 32 B, no hit rates.
    const core::NcuReport report = core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
    const auto kernels = core::rooflineKernels(report, {}, 32);
    QCOMPARE(kernels.size(), std::size_t(10));
    QCOMPARE(*kernels.front().l1_intensity, 25967573.0 / 4325376.0);
    QVERIFY(!kernels.front().l2_intensity);
}

void TestRoofline::measuredRooflineInInstructions()
{
    // gpu-benches' gpu-roofline on an H200 (tests/data/gpu_benches): 940 GF/s at 0.25 Fl/B in its first row, best
    // 37,227 GF/s, best 3,780 GB/s. Its FMAs are two flops per thread-instruction: 470 Gop/s at 0.125 op/B, a peak
    // of 18,613.5 Gop/s, and the ridge halves too, to 37227 / 3780 / 2 op/B.
    const core::MeasuredTrace trace
            = core::readTraceFile(std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/gpu_benches/roofline_h200.txt")
                      .traces.front();
    const core::MeasuredRoofline r = core::measuredRoofline(trace);
    QCOMPARE(r.name, std::string("h200 roofline"));
    QCOMPARE(r.intensity.size(), std::size_t(14));
    QCOMPARE(r.intensity.front(), 0.125);
    QCOMPARE(r.gops.front(), 470.0);
    QCOMPARE(r.peak_gops, 37227.0 / 2);
    // The bandwidth of a row is its GF/s over its Fl/B: the file's GB/s column to its rounding.
    QVERIFY(std::abs(r.peak_gbs - 3780) < 0.005 * 3780);
    QVERIFY(std::abs(r.ridge - 37227.0 / 3780.0 / 2) < 0.005 * r.ridge);

    core::MeasuredTrace stream = trace;
    stream.kind = core::TraceKind::BandwidthVsWarps;
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::measuredRoofline(stream));
}

QTEST_MAIN(TestRoofline)
#include "tst_roofline.moc"
