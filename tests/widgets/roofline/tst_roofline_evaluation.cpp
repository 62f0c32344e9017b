// SPDX-License-Identifier: GPL-3.0-or-later
// RooflineEvaluation without a view: the operating point is the X-model's for the state's parameters and
// follows them; kernels become points by their instructions, duration and DRAM throughput, those lacking one
// are left out; the X-model's prediction per kernel is the Kernels dock's; the Little's-law ceilings follow n, m
// and each level's latency; L1 and L2 intensities come from the sectors and the L1 hit rate.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "core/xmodel/xmodel.h"
#include "roofline/roofline_evaluation.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

class TestRooflineEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void operatingPointIsTheModels();
    void operatingPointCountsTheBypassingWarpsRequests();
    void kernelsBecomePoints();
    void littleCeilingsFollowNAndM();
    void predictionsAreTheKernelTables();
    void cacheLevelsFromTheTraffic();
    void pipeCeilingsFromTheComputeCapability();
};

void TestRooflineEvaluation::operatingPointIsTheModels()
{
    ParameterState state;
    RooflineEvaluation eval(&state);
    QSignalSpy updated(&eval, &RooflineEvaluation::updated);
    // Intensity per DRAM byte: Z·warp_size/request_bytes over the share of requests that miss.
    const auto expected = [&state] {
        const core::XModelParams &p = state.params();
        const core::XGraphResult solved = core::XModel(p).solve();
        const auto &op = solved.operatingPoint();
        return QPointF(p.Z * p.warp_size / p.request_bytes / (1 - op.hit_rate.value_or(0)), op.cs_gops);
    };
    eval.recompute();
    QCOMPARE(updated.count(), 1);
    const QPointF before = expected();
    QVERIFY(before.x() > 0);
    QCOMPARE(eval.operatingPoint(), before);
    QCOMPARE(eval.memoryCeilingGbs(), state.params().R);
    QCOMPARE(eval.computeCeilingGops(), state.params().M * state.params().gopsPerInstructionRate());
    QVERIFY(eval.points().empty());

    state.setValue(QStringLiteral("Z"), state.params().Z * 2);
    eval.recompute();
    QCOMPARE(updated.count(), 2);
    QCOMPARE(eval.operatingPoint(), expected());
    QVERIFY(eval.operatingPoint() != before);
}

void TestRooflineEvaluation::operatingPointCountsTheBypassingWarpsRequests()
{
    // gtx570-sp with half the warps bypassing the L1 and 4 requests in flight per warp: the hit rate of the
    // requests is 0.9582 (MODEL.md 1.3, worked out in tst_xmodel_definitions), so the point sits at
    // Z * 32 / 128 / (1 - 0.9582) = 71.8 instructions per DRAM byte (it sat at 278 with 0.9892).
    const core::HardwareProfile *profile = core::findBundledProfile("gtx570-sp");
    QVERIFY(profile);
    ParameterState state;
    state.setProfile(*profile, profile->params);
    state.setValue(QStringLiteral("bypass"), 0.5);
    state.setValue(QStringLiteral("m"), 4);
    RooflineEvaluation eval(&state);
    eval.recompute();
    const double intensity = eval.operatingPoint().x();
    QVERIFY2(std::abs(intensity - 12.0 * 32 / 128 / (1 - 0.9582084)) < 1e-3 * intensity,
             qPrintable(QString::number(intensity)));
}

void TestRooflineEvaluation::kernelsBecomePoints()
{
    ParameterState state;
    core::NcuReport report;
    core::NcuKernel drawn;
    drawn.id = "1";
    drawn.name = drawn.short_name = "stream";
    drawn.instructions = 1e6;
    drawn.duration_ns = 1e4;
    drawn.dram_gbs = 200;
    core::NcuKernel noDuration = drawn;
    noDuration.id = "2";
    noDuration.duration_ns.reset();
    report.kernels = {noDuration, drawn};
    RooflineEvaluation eval(&state);
    eval.setReport(report);
    eval.recompute();
    QCOMPARE(eval.points().size(), std::size_t(1));
    const auto &point = eval.points().front();
    QCOMPARE(point.kernel, std::size_t(1));
    QCOMPARE(point.gops, 1e6 * state.params().warp_size / 1e4);
    QCOMPARE(point.intensity, point.gops / 200);
    QCOMPARE(point.label, QStringLiteral("stream [1]"));
    eval.setReport(std::nullopt);
    eval.recompute();
    QVERIFY(eval.points().empty());
}

void TestRooflineEvaluation::littleCeilingsFollowNAndM()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    RooflineEvaluation eval(&state);
    // 64 warps x 1 request of 128 B in flight per SM, 132 SMs at 1.98 GHz, over L = 763.5 cycles: 2.20 TB/s.
    const core::XModelParams &p = state.params();
    QCOMPARE(*eval.littleCeilingGbs(p.L), 64 * 1 * 128 * 1.98 * 132 / 763.5);
    QCOMPARE(*eval.littleCeilingGbs(p.L_2), 64 * 1 * 128 * 1.98 * 132 / 284.8);
    state.setValue(QStringLiteral("n"), 16);
    state.setValue(QStringLiteral("m"), 4);
    QCOMPARE(*eval.littleCeilingGbs(p.L), 16 * 4 * 128 * 1.98 * 132 / 763.5); // n*m stays 64
    state.setValue(QStringLiteral("n"), 8);
    QCOMPARE(*eval.littleCeilingGbs(p.L), 8 * 4 * 128 * 1.98 * 132 / 763.5);
    QVERIFY(!eval.littleCeilingGbs(0)); // no latency (a profile without L_2): no ceiling
}

void TestRooflineEvaluation::predictionsAreTheKernelTables()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    const core::NcuReport report = core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
    RooflineEvaluation eval(&state);
    eval.setReport(report);
    eval.recompute();
    QCOMPARE(eval.points().size(), std::size_t(10));
    const core::KernelTable table = core::compareKernels(report, state.params(), *core::findBundledProfile("h100-sxm"));
    int predicted = 0;
    for (const auto &point : eval.points()) {
        const core::KernelRow &row = table.rows.at(point.kernel);
        QCOMPARE(QString::fromStdString(row.id), QString::number(point.kernel));
        QVERIFY(point.predicted.has_value());
        QCOMPARE(point.predicted->y(), *row.predicted_gops);
        QCOMPARE(point.predicted->x(), *row.predicted_gops / *row.predicted_gbs);
        ++predicted;
    }
    QCOMPARE(predicted, 10);
    // A prediction that follows E: the kernel's own workload, the state's E.
    const double before = eval.points().front().predicted->y();
    state.setValue(QStringLiteral("E"), 4);
    eval.recompute();
    QVERIFY(eval.points().front().predicted->y() != before);
}

void TestRooflineEvaluation::cacheLevelsFromTheTraffic()
{
    ParameterState state;
    RooflineEvaluation eval(&state);
    // The real export: global load sectors, no hit rates: L1 points only.
    eval.setReport(core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv"));
    eval.recompute();
    QVERIFY(eval.hasL1());
    QVERIFY(!eval.hasL2());
    // Kernel 0: 25,967,573 warp-instructions over 4,325,376 sectors of 32 B.
    const auto &first = eval.points().front();
    QCOMPARE(*first.l1Intensity, 25967573.0 * 32 / (4325376.0 * 32));
    QVERIFY(!first.l2Intensity);
    // With an L1 hit rate the bytes that miss go to L2.
    core::NcuReport report;
    core::NcuKernel k;
    k.id = "0";
    k.name = k.short_name = "cached";
    k.instructions = 1e6;
    k.duration_ns = 1e4;
    k.dram_gbs = 100;
    k.sectors_ld = 2e5;
    k.sectors_st = 5e4;
    k.l1_hit_rate = 0.75;
    report.kernels = {k};
    eval.setReport(report);
    eval.recompute();
    const auto &p = eval.points().front();
    QCOMPARE(*p.l1Intensity, 1e6 * 32 / (2.5e5 * 32));
    QCOMPARE(*p.l2Intensity, 1e6 * 32 / (2.5e5 * 32 * 0.25));
    QVERIFY(eval.hasL2());
}

void TestRooflineEvaluation::pipeCeilingsFromTheComputeCapability()
{
    ParameterState state;
    RooflineEvaluation eval(&state);
    const auto pipes = [&eval] {
        QStringList out;
        for (const auto &pipe : eval.pipeCeilings())
            out << QStringLiteral("%1 %2 %3").arg(pipe.precision).arg(pipe.lanes).arg(pipe.gops, 0, 'f', 2);
        return out.join(QStringLiteral(", "));
    };
    // Hopper, 9.0: 128 FP32 and 64 FP64 lanes per SM, 132 SMs at 1.98 GHz.
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(pipes(), QStringLiteral("FP32 128 %1, FP64 64 %2")
                              .arg(128 * 1.98 * 132, 0, 'f', 2)
                              .arg(64 * 1.98 * 132, 0, 'f', 2));
    // The ceilings follow a what-if clock.
    state.setValue(QStringLiteral("clock_ghz"), 1.0);
    QCOMPARE(eval.pipeCeilings().front().gops, 128 * 1.0 * 132);
    // Ada, 8.9: FP64 at 2 lanes per SM.
    state.applyProfile(*core::findBundledProfile("rtx4090"));
    QCOMPARE(eval.pipeCeilings().back().lanes, 2);
    // A GeForce Fermi card gives its own FP64 rate, 4 lanes where compute capability 2.0 has 16; its
    // double-precision profile's issue rate M (1/8 of the 32-bit rate) is that very ceiling.
    state.applyProfile(*core::findBundledProfile("gtx570-dp"));
    QCOMPARE(eval.pipeCeilings().back().lanes, 4);
    QCOMPARE(eval.pipeCeilings().back().gops, eval.computeCeilingGops());
    // A CPU has none.
    state.applyProfile(*core::findBundledProfile("epyc-9654"));
    QVERIFY(eval.pipeCeilings().empty());
}

QTEST_MAIN(TestRooflineEvaluation)
#include "tst_roofline_evaluation.moc"
