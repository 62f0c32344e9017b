// SPDX-License-Identifier: GPL-3.0-or-later
// RooflineEvaluation without a view: the operating point is the X-model's for the state's parameters and
// follows them; the ceilings are the state's parameters' and profile's; kernels become points by their
// instructions, duration and DRAM throughput, those lacking one are left out; the prediction per kernel is the
// KernelState's, the Kernels table's number. The roofline's numbers themselves are tested in
// tests/core/roofline/tst_roofline.cpp.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "core/xmodel/xmodel.h"
#include "roofline/roofline_evaluation.h"
#include "state/kernel_state.h"

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
    void ceilingsOfTheStatesProfile();
    void kernelsBecomePoints();
    void predictionsAreTheKernelStates();
};

void TestRooflineEvaluation::operatingPointIsTheModels()
{
    ParameterState state;
    KernelState kernels(&state);
    RooflineEvaluation eval(&kernels);
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
    KernelState kernels(&state);
    RooflineEvaluation eval(&kernels);
    eval.recompute();
    const double intensity = eval.operatingPoint().x();
    QVERIFY2(std::abs(intensity - 12.0 * 32 / 128 / (1 - 0.9582084)) < 1e-3 * intensity,
             qPrintable(QString::number(intensity)));
}

void TestRooflineEvaluation::ceilingsOfTheStatesProfile()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    KernelState kernels(&state);
    RooflineEvaluation eval(&kernels);
    eval.recompute();
    // 132 SMs at 1.98 GHz: Hopper's 128 FP32 lanes per SM; 64 warps with one 128 B request each over L.
    const core::XModelParams &p = state.params();
    QCOMPARE(eval.ceilings().memory_gbs, p.R);
    QCOMPARE(eval.ceilings().pipes.front().gops, 128 * 1.98 * 132);
    QCOMPARE(*eval.ceilings().dram_latency_gbs, 64 * 1 * 128 * 1.98 * 132 / p.L);
    // A what-if clock moves them at the next recompute.
    state.setValue(QStringLiteral("clock_ghz"), 1.0);
    eval.recompute();
    QCOMPARE(eval.ceilings().pipes.front().gops, 128 * 1.0 * 132);
}

void TestRooflineEvaluation::kernelsBecomePoints()
{
    ParameterState state;
    KernelState kernels(&state);
    auto report = std::make_shared<core::NcuReport>();
    core::NcuKernel drawn;
    drawn.id = "1";
    drawn.name = drawn.short_name = "stream";
    drawn.instructions = 1e6;
    drawn.duration_ns = 1e4;
    drawn.dram_gbs = 200;
    core::NcuKernel noDuration = drawn;
    noDuration.id = "2";
    noDuration.duration_ns.reset();
    report->kernels = {noDuration, drawn};
    RooflineEvaluation eval(&kernels);
    kernels.setReport(report);
    kernels.wait();
    eval.recompute();
    QCOMPARE(eval.points().size(), std::size_t(1));
    const auto &point = eval.points().front();
    QCOMPARE(point.kernel, std::size_t(1));
    QCOMPARE(point.gops, 1e6 * 32 / 1e4);
    QCOMPARE(point.intensity, point.gops / 200);
    QCOMPARE(point.label, QStringLiteral("stream [1]"));
    kernels.clear();
    eval.recompute();
    QVERIFY(eval.points().empty());
}

void TestRooflineEvaluation::predictionsAreTheKernelStates()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    KernelState kernels(&state);
    kernels.setReport(std::make_shared<const core::NcuReport>(
            core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")));
    kernels.wait();
    RooflineEvaluation eval(&kernels);
    eval.recompute();
    QCOMPARE(eval.points().size(), std::size_t(10));
    for (const auto &point : eval.points()) {
        const core::KernelRow &row = kernels.table().rows.at(point.kernel);
        QVERIFY(point.predicted.has_value());
        QCOMPARE(point.predicted->y(), *row.predicted_gops);
        QCOMPARE(point.predicted->x(), *row.predicted_gops / *row.predicted_gbs);
    }
    // A prediction that follows E: the kernel's own workload, the state's E, once the state has it.
    const double before = eval.points().front().predicted->y();
    state.setValue(QStringLiteral("E"), 4);
    kernels.wait();
    eval.recompute();
    QVERIFY(eval.points().front().predicted->y() != before);
}

QTEST_MAIN(TestRooflineEvaluation)
#include "tst_roofline_evaluation.moc"
