// SPDX-License-Identifier: GPL-3.0-or-later
// BandwidthEvaluation without a view: the curves, slowdowns and dominance of a trace in the trace state are
// core's for the same window and limit; a window beyond the trace is clamped; no trace, no curves.
#include "bandwidth/bandwidth_evaluation.h"
#include "core/bandwidth/bandwidth_curve.h"
#include "state/trace_state.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

core::MeasuredTrace twoConnections()
{
    core::MeasuredTrace t;
    t.name = "synthetic";
    t.source = "/data/synthetic.csv";
    t.kind = core::TraceKind::BytesPerInterval;
    t.x = {2, 4, 6, 8};
    t.extra = {2, 2, 2, 2};
    t.labels = {"reads", "writes"};
    t.y = {18e9, 2e9, 6e9, 2e9, 2e9, 4e9, 12e9, 10e9};
    return t;
}

} // namespace

class TestBandwidthEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void curvesAreCoresCurves();
    void theWindowIsClamped();
    void noTraceNoCurves();
};

void TestBandwidthEvaluation::curvesAreCoresCurves()
{
    TraceState traces;
    const QString id = traces.add(twoConnections());
    BandwidthEvaluation eval(&traces);
    QSignalSpy updated(&eval, &BandwidthEvaluation::updated);
    eval.setInputs(id, 2, 4.0);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().isEmpty());
    QCOMPARE(eval.unitSeconds(), 2.0);
    QCOMPARE(eval.window(), std::size_t(2));
    const auto &curves = eval.curves();
    QCOMPARE(curves.size(), std::size_t(3)); // reads, writes, total
    QCOMPARE(curves[2].name, QStringLiteral("total"));
    const double limit = 4.0 * 1e9 * 2; // bytes per unit
    const std::vector<double> reads {18e9, 2e9, 6e9, 2e9};
    const core::BandwidthCurve expected = core::bandwidthCurve(reads, 2, limit);
    QCOMPARE(curves[0].bytes, reads);
    QCOMPARE(curves[0].curve.sorted, expected.sorted);
    QCOMPARE(curves[0].curve.slowdown, expected.slowdown);
    QCOMPARE(curves[0].smoothed, core::smoothDemand(reads, 2));
    QCOMPARE(curves[2].bytes, (std::vector<double> {20e9, 6e9, 18e9, 12e9}));
    QVERIFY(eval.dominance().has_value());
    const std::vector<core::Connection> connections {{"reads", reads, limit},
                                                     {"writes", {2e9, 4e9, 12e9, 10e9}, limit}};
    QCOMPARE(eval.dominance()->units, core::dominance(connections, 2).units);
}

void TestBandwidthEvaluation::theWindowIsClamped()
{
    TraceState traces;
    const QString id = traces.add(twoConnections());
    BandwidthEvaluation eval(&traces);
    eval.setInputs(id, 100, 4.0);
    QCOMPARE(eval.window(), std::size_t(4));
    QVERIFY(eval.error().isEmpty());
    QCOMPARE(eval.curves()[0].smoothed, core::smoothDemand(eval.curves()[0].bytes, 4));
}

void TestBandwidthEvaluation::noTraceNoCurves()
{
    TraceState traces;
    BandwidthEvaluation eval(&traces);
    QSignalSpy updated(&eval, &BandwidthEvaluation::updated);
    eval.setInputs(QStringLiteral("t9"), 1, 1.0);
    QCOMPARE(updated.count(), 1);
    QCOMPARE(eval.trace(), nullptr);
    QVERIFY(eval.curves().empty());
    QVERIFY(!eval.dominance());
}

QTEST_MAIN(TestBandwidthEvaluation)
#include "tst_bandwidth_evaluation.moc"
