// SPDX-License-Identifier: GPL-3.0-or-later
// RooflineEvaluation without a view: the operating point is the X-model's for the state's parameters and
// follows them; kernels become points by their instructions, duration and DRAM throughput, those lacking one
// are left out.
#include "common/parameter_state.h"
#include "core/xmodel/xmodel.h"
#include "roofline/roofline_evaluation.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

class TestRooflineEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void operatingPointIsTheModels();
    void kernelsBecomePoints();
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

QTEST_MAIN(TestRooflineEvaluation)
#include "tst_roofline_evaluation.moc"
