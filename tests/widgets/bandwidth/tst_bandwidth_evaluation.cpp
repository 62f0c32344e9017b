// SPDX-License-Identifier: GPL-3.0-or-later
// BandwidthEvaluation without a view: the curves, slowdowns and dominance of a trace in the trace state, worked
// by hand for a two-connection trace; a window beyond the trace is clamped; no trace, no curves.
#include "bandwidth/bandwidth_evaluation.h"
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
    void curvesAreTheWorkedCurves();
    void theWindowIsClamped();
    void noTraceNoCurves();
};

void TestBandwidthEvaluation::curvesAreTheWorkedCurves()
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
    QCOMPARE(curves[0].name, QStringLiteral("reads"));
    QCOMPARE(curves[2].name, QStringLiteral("total"));
    QCOMPARE(curves[0].bytes, (std::vector<double> {18e9, 2e9, 6e9, 2e9}));
    QCOMPARE(curves[2].bytes, (std::vector<double> {20e9, 6e9, 18e9, 12e9}));
    // Window 2: d_i = (b[i-1]/2 + b[i] + b[i+1]/2) / 2, the ends mirrored. Reads: (9+18+1)/2, (9+2+3)/2,
    // (1+6+1)/2, (3+2+1)/2 GB; the 28 GB moved stay 28.
    QCOMPARE(curves[0].smoothed, (std::vector<double> {14e9, 7e9, 4e9, 3e9}));
    QCOMPARE(curves[0].curve.sorted, (std::vector<double> {14e9, 7e9, 4e9, 3e9}));
    QCOMPARE(curves[0].curve.area, 28e9);
    // 4 GB/s over 2 s units: 8 GB a unit. Only the first unit is over: (14/8 + 1 + 1 + 1) / 4.
    QCOMPARE(curves[0].curve.limit, 8e9);
    QCOMPARE(curves[0].curve.units_over_limit, std::size_t(1));
    QCOMPARE(curves[0].curve.slowdown, 1.1875);
    // Writes smooth to 2.5, 5.5, 9.5, 10.5 GB: over the limit in the last two units.
    QCOMPARE(curves[1].curve.sorted, (std::vector<double> {10.5e9, 9.5e9, 5.5e9, 2.5e9}));
    // Dominance: reads rule unit 0 (14/8), no one unit 1, writes units 2 and 3 (9.5/8, 10.5/8).
    QVERIFY(eval.dominance().has_value());
    QCOMPARE(eval.dominance()->dominant, (std::vector<int> {0, -1, 1, 1}));
    QCOMPARE(eval.dominance()->units, (std::vector<std::size_t> {1, 2}));
    QCOMPARE(eval.dominance()->free_units, std::size_t(1));
    QCOMPARE(eval.dominance()->slowdown, (1.75 + 1 + 1.1875 + 1.3125) / 4);
}

void TestBandwidthEvaluation::theWindowIsClamped()
{
    TraceState traces;
    const QString id = traces.add(twoConnections());
    BandwidthEvaluation eval(&traces);
    eval.setInputs(id, 100, 4.0);
    QCOMPARE(eval.window(), std::size_t(4));
    QVERIFY(eval.error().isEmpty());
    // Window 4 over 4 units: (b[i-2]/2 + b[i-1] + b[i] + b[i+1] + b[i+2]/2) / 4, mirrored (unit -2 reads unit 1).
    QCOMPARE(eval.curves()[0].smoothed, (std::vector<double> {10.5e9, 9e9, 5e9, 3.5e9}));
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
