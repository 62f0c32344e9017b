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

/// Two sockets' memory controllers (as a perf stat -A file of two sockets gives them), or with READS_WRITES
/// one controller's reads and writes.
core::MeasuredTrace twoConnections(bool readsWrites = false)
{
    core::MeasuredTrace t;
    t.name = "synthetic";
    t.source = "/data/synthetic.csv";
    t.kind = core::TraceKind::BytesPerInterval;
    t.x = {2, 4, 6, 8};
    t.extra = {2, 2, 2, 2};
    t.labels = readsWrites ? std::vector<std::string>{"reads", "writes"}
                           : std::vector<std::string>{"socket 0 (CPU0)", "socket 1 (CPU16)"};
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
    void readsAndWritesShareOneLimit();
    void noLimitNoSlowdown();
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
    QCOMPARE(curves.size(), std::size_t(3)); // the two sockets, their total
    QVERIFY(eval.separateLinks());
    QCOMPARE(curves[0].name, QStringLiteral("socket 0 (CPU0)"));
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
    // The total of two links of 4 GB/s each has 8 GB/s: 16 GB a unit. Smoothed 16.5, 12.5, 13.5, 13.5 GB:
    // over it in the first unit only.
    QCOMPARE(curves[2].limit_gbs, 8.0);
    QCOMPARE(curves[2].curve.limit, 16e9);
    QCOMPARE(curves[2].curve.units_over_limit, std::size_t(1));
    // Dominance among all three: socket 0 rules unit 0 (14/8 above the total's 16.5/16), no one unit 1,
    // socket 1 units 2 and 3 (9.5/8, 10.5/8).
    QVERIFY(eval.dominance().has_value());
    QCOMPARE(eval.dominance()->dominant, (std::vector<int> {0, -1, 1, 1}));
    QCOMPARE(eval.dominance()->units, (std::vector<std::size_t> {1, 2, 0}));
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

void TestBandwidthEvaluation::readsAndWritesShareOneLimit()
{
    // Reads and writes of one memory controller: each and their total have the limit B, and the total, over
    // B wherever either is, limits every such unit. The table said "over B" for the total while the
    // dominance, of reads and writes alone, said "every demand under B".
    TraceState traces;
    const QString id = traces.add(twoConnections(true));
    BandwidthEvaluation eval(&traces);
    eval.setInputs(id, 2, 4.0);
    QVERIFY(!eval.separateLinks());
    const auto &curves = eval.curves();
    QCOMPARE(curves[2].name, QStringLiteral("total"));
    QCOMPARE(curves[2].limit_gbs, 4.0);
    QCOMPARE(curves[2].curve.units_over_limit, std::size_t(4)); // 16.5, 12.5, 13.5, 13.5 GB against 8
    QCOMPARE(eval.dominance()->dominant, (std::vector<int> {2, 2, 2, 2}));
    QCOMPARE(eval.dominance()->free_units, std::size_t(0));
    QCOMPARE(eval.dominance()->slowdown, (16.5 + 12.5 + 13.5 + 13.5) / 8 / 4);
}

void TestBandwidthEvaluation::noLimitNoSlowdown()
{
    TraceState traces;
    const QString id = traces.add(twoConnections());
    BandwidthEvaluation eval(&traces);
    eval.setInputs(id, 1, 0.0);
    QVERIFY(!eval.limited());
    QCOMPARE(eval.curves().size(), std::size_t(3));
    QCOMPARE(eval.curves()[0].curve.sorted, (std::vector<double> {18e9, 6e9, 2e9, 2e9}));
    QCOMPARE(eval.curves()[0].limit_gbs, 0.0);
    QCOMPARE(eval.curves()[2].curve.units_over_limit, std::size_t(0));
    QVERIFY(!eval.dominance());
}

QTEST_MAIN(TestBandwidthEvaluation)
#include "tst_bandwidth_evaluation.moc"
