// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "model_fixtures.h"
#include "core/xmodel/stability_map.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <random>
#include <stop_token>
#include <thread>

using namespace crossroof;
using core::CacheMode;
using core::EquilibriumScan;
using core::MapAxis;
using core::Stability;
using core::SupplyShape;
using core::XModel;
using core::XModelParams;

namespace {

/// Stable count of cell (i, j).
int countAt(const core::StabilityMap &map, std::size_t i, std::size_t j)
{
    return map.stable_count[map.index(i, j)];
}

} // namespace

class TestStabilityMap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fractionalN();
    void mapMatchesSolveCellByCell();
    void axisValues();
    void badAxesAreRejected_data();
    void badAxesAreRejected();
    void progressiveRefinementReusesCells();
    void cancellationKeepsComputedCells();
    void aStopEndsTheRowBeingComputed();
    void threadsGiveTheSameMap();
    void regionEdgesMarkChanges();
    void anyTwoKeys();
};

void TestStabilityMap::fractionalN()
{
    // n need not be whole for the scan (the advisor bisects on it): roots are roots, and a whole n gives
    // what the model's own n gives.
    const XModelParams p = test::thrashingFermi();
    const XModel m(p);
    const SupplyShape shape(p);
    QCOMPARE(EquilibriumScan(m, shape, 48.0).stableCount(), EquilibriumScan(m, shape).stableCount());
    for (double n : {0.3, 7.5, 13.25, 47.9, 120.7}) {
        const EquilibriumScan scan(m, shape, n);
        for (const auto &root : scan.roots()) {
            QVERIFY(root.k >= 0 && root.k <= n);
            QVERIFY(std::abs(scan.balance(root.k)) <= 1e-10 * p.M / p.Z);
        }
        QVERIFY(scan.operatingK() > 0 && scan.operatingK() < n);
    }
}

void TestStabilityMap::mapMatchesSolveCellByCell()
{
    // The default axes of MODEL.md 1.6 over the bistable fixture: every cell against a full solve().
    const XModelParams base = test::thrashingFermi();
    const auto map = core::computeStabilityMap(base, {"n", 1, 96, 48, false}, {"Z", 4, 40, 40, true});
    QCOMPARE(map.x_values.size(), std::size_t(48));
    QCOMPARE(map.y_values.size(), std::size_t(40));
    QCOMPARE(map.completed_stride, 1);
    int seen[4] = {};
    for (std::size_t j = 0; j < map.y_values.size(); ++j) {
        for (std::size_t i = 0; i < map.x_values.size(); ++i) {
            XModelParams p = base;
            p.n = map.x_values[i];
            p.Z = map.y_values[j];
            const auto r = XModel(p).solve();
            const int c = countAt(map, i, j);
            QVERIFY2(c == r.stableCount(), qPrintable(QStringLiteral("n %1 Z %2").arg(p.n).arg(p.Z)));
            QVERIFY(std::abs(map.operating_gbs[map.index(i, j)] - r.operatingPoint().ms_gbs)
                    <= 1e-9 * r.operatingPoint().ms_gbs);
            ++seen[std::min(c, 3)];
        }
    }
    QVERIFY(seen[1] > 0);
    QVERIFY(seen[2] > 0); // bistable cells where the root finder finds two stable roots
}

void TestStabilityMap::axisValues()
{
    const auto lin = core::axisValues({"Z", 1, 3, 5, false});
    QCOMPARE(lin, (std::vector<double> {1, 1.5, 2, 2.5, 3}));
    const auto lg = core::axisValues({"Z", 1, 100, 3, true});
    QCOMPARE(lg.front(), 1.0);
    QVERIFY(qFuzzyCompare(lg[1], 10.0));
    QCOMPARE(lg.back(), 100.0);
    const auto whole = core::axisValues({"n", 1, 4, 7, false}); // n is whole warps: rounded
    QCOMPARE(whole, (std::vector<double> {1, 2, 2, 3, 3, 4, 4}));
    QCOMPARE(core::axisValues({"E", 2, 2, 1, false}), std::vector<double> {2});
}

void TestStabilityMap::badAxesAreRejected_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("log");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown key") << "Q" << 1.0 << 2.0 << 4 << false << "not a numeric parameter";
    QTest::newRow("cache is not numeric") << "cache" << 1.0 << 2.0 << 4 << false << "not a numeric parameter";
    QTest::newRow("min out of range") << "Z" << 0.0 << 2.0 << 4 << false << "min must be between";
    QTest::newRow("max out of range") << "h" << 0.0 << 2.0 << 4 << false << "max must be between";
    QTest::newRow("n not whole") << "n" << 1.5 << 20.0 << 4 << false << "whole number";
    QTest::newRow("min above max") << "Z" << 5.0 << 2.0 << 4 << false << "above max";
    QTest::newRow("log from zero") << "h" << 0.0 << 1.0 << 4 << true << "log axis";
    QTest::newRow("count zero") << "Z" << 1.0 << 2.0 << 0 << false << "count";
    QTest::newRow("count huge") << "Z" << 1.0 << 2.0 << 5000 << false << "count";
    QTest::newRow("one sample, two ends") << "Z" << 1.0 << 2.0 << 1 << false << "min = max";
}

void TestStabilityMap::badAxesAreRejected()
{
    QFETCH(QString, key);
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(int, count);
    QFETCH(bool, log);
    QFETCH(QString, message);
    const MapAxis axis{key.toStdString(), min, max, count, log};
    try {
        core::StabilityMapper mapper(test::thrashingFermi(), axis, {"E", 1, 2, 2, false});
        QFAIL("expected an InputError");
    } catch (const core::InputError &e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(message), qPrintable(what));
        QVERIFY2(what.contains(QStringLiteral("'%1'").arg(key)), qPrintable(what));
    }
    QVERIFY_THROWS_EXCEPTION(core::InputError,
                             core::StabilityMapper(test::thrashingFermi(), {"Z", 1, 2, 2}, {"Z", 3, 4, 2}));
}

void TestStabilityMap::progressiveRefinementReusesCells()
{
    const XModelParams base = test::thrashingFermi();
    const MapAxis x{"n", 1, 64, 33, false};
    const MapAxis y{"Z", 4, 40, 17, true};
    core::StabilityMapper mapper(base, x, y);
    QCOMPARE(mapper.map().completed_stride, 0);
    QVERIFY(mapper.compute(8));
    const auto &map = mapper.map();
    QCOMPARE(map.completed_stride, 8);
    for (std::size_t j = 0; j < map.y_values.size(); ++j) {
        for (std::size_t i = 0; i < map.x_values.size(); ++i) {
            const bool coarse = i % 8 == 0 && j % 8 == 0;
            QCOMPARE(countAt(map, i, j) >= 0, coarse);
            const std::size_t shown = map.shownIndex(i, j);
            QCOMPARE(shown, map.index(i - i % 8, j - j % 8));
            QVERIFY(map.stable_count[shown] >= 0);
        }
    }
    const auto coarseCells = map.stable_count;
    QVERIFY(mapper.compute(2));
    QVERIFY(mapper.compute(1));
    QCOMPARE(map.completed_stride, 1);
    const auto whole = core::computeStabilityMap(base, x, y);
    QCOMPARE(map.stable_count, whole.stable_count);
    QCOMPARE(map.operating_gbs, whole.operating_gbs);
    for (std::size_t c = 0; c < coarseCells.size(); ++c) {
        if (coarseCells[c] >= 0)
            QCOMPARE(map.stable_count[c], coarseCells[c]); // kept, not recomputed differently
    }
}

void TestStabilityMap::cancellationKeepsComputedCells()
{
    const XModelParams base = test::thrashingFermi();
    core::StabilityMapper mapper(base, {"n", 1, 64, 32, false}, {"Z", 4, 40, 32, true});
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!mapper.compute(1, 2, stop.get_token()));
    QCOMPARE(mapper.map().completed_stride, 0);
    QVERIFY(std::all_of(mapper.map().stable_count.begin(), mapper.map().stable_count.end(),
                        [](int c) { return c == -1; }));
    QVERIFY(mapper.compute(1, 2, std::stop_source().get_token()));
    QVERIFY(std::none_of(mapper.map().stable_count.begin(), mapper.map().stable_count.end(),
                         [](int c) { return c < 0; }));
    QVERIFY_THROWS_EXCEPTION(core::InputError, mapper.compute(0));
}

// The GUI waits for a stop when the parameters move under a refinement: it must not wait for the rest of a row
// (256 cells at full resolution, several milliseconds; much more at one core's idle share).
void TestStabilityMap::aStopEndsTheRowBeingComputed()
{
    const XModelParams base = test::thrashingFermi();
    const MapAxis x{"Z", 1, 200, 4096, true}; // rows of 4,096 cells, a millisecond or more each
    const MapAxis y{"n", 1, 8, 8, false};
    // A stop that lands between two rows proves nothing: stopped at other times until one lands inside a row
    // (a row computed in part). Before, every row was finished whatever the time of the stop.
    for (int wait = 100; wait <= 51200; wait *= 2) {
        core::StabilityMapper mapper(base, x, y);
        std::stop_source stop;
        std::thread worker([&] { mapper.compute(1, 1, stop.get_token()); });
        std::this_thread::sleep_for(std::chrono::microseconds(wait));
        stop.request_stop();
        worker.join();
        const auto &counts = mapper.map().stable_count;
        const auto computed = std::count_if(counts.begin(), counts.end(), [](int c) { return c >= 0; });
        if (computed % x.count == 0)
            continue;
        QCOMPARE(mapper.map().completed_stride, 0);
        QVERIFY(mapper.compute(1, 1)); // and a later call goes on from there
        QVERIFY(std::none_of(counts.begin(), counts.end(), [](int c) { return c < 0; }));
        QCOMPARE(counts, core::computeStabilityMap(base, x, y).stable_count);
        return;
    }
    QFAIL("no stop landed inside a row: rows are finished after a stop");
}

void TestStabilityMap::threadsGiveTheSameMap()
{
    const XModelParams base = test::thrashingFermi();
    const MapAxis x{"n", 1, 128, 64, false};
    const MapAxis y{"Z", 2, 60, 50, true};
    const auto one = core::computeStabilityMap(base, x, y, 1);
    const auto two = core::computeStabilityMap(base, x, y, 2);
    const auto four = core::computeStabilityMap(base, x, y, 4);
    QCOMPARE(one.stable_count, two.stable_count);
    QCOMPARE(one.operating_gbs, two.operating_gbs);
    QCOMPARE(one.stable_count, four.stable_count);
}

void TestStabilityMap::regionEdgesMarkChanges()
{
    const auto map = core::computeStabilityMap(test::thrashingFermi(), {"n", 1, 96, 40, false},
                                               {"Z", 4, 40, 30, true});
    const auto edges = core::regionEdges(map);
    QCOMPARE(edges.size(), map.stable_count.size());
    int marked = 0;
    for (std::size_t j = 0; j < map.y_values.size(); ++j) {
        for (std::size_t i = 0; i < map.x_values.size(); ++i) {
            const std::uint8_t e = edges[map.index(i, j)];
            const bool right = i + 1 < map.x_values.size() && countAt(map, i + 1, j) != countAt(map, i, j);
            const bool up = j + 1 < map.y_values.size() && countAt(map, i, j + 1) != countAt(map, i, j);
            QCOMPARE(bool(e & core::kEdgeRight), right);
            QCOMPARE(bool(e & core::kEdgeUp), up);
            marked += right + up;
        }
    }
    QVERIFY(marked > 0);

    // Cells not computed yet have no edges.
    core::StabilityMapper partial(test::thrashingFermi(), {"n", 1, 96, 40, false}, {"Z", 4, 40, 30, true});
    partial.compute(4);
    const auto coarse = core::regionEdges(partial.map());
    for (std::size_t c = 0; c < coarse.size(); ++c) {
        if (partial.map().stable_count[c] < 0)
            QCOMPARE(coarse[c], std::uint8_t(0));
    }
}

void TestStabilityMap::anyTwoKeys()
{
    // Machine keys change f itself: the shape is rebuilt per cell and the counts still match solve().
    const XModelParams base = test::thrashingFermi();
    const auto map = core::computeStabilityMap(base, {"S_s", 4, 64, 12, true}, {"beta", 0.5, 10, 10, true});
    for (std::size_t j = 0; j < map.y_values.size(); ++j) {
        for (std::size_t i = 0; i < map.x_values.size(); ++i) {
            XModelParams p = base;
            p.S_s = map.x_values[i];
            p.beta = map.y_values[j];
            QCOMPARE(countAt(map, i, j), XModel(p).solve().stableCount());
        }
    }
    const auto lat = core::computeStabilityMap(base, {"L_s", 5, 400, 10, true}, {"alpha", 1, 10, 10, false});
    for (std::size_t j = 0; j < lat.y_values.size(); ++j) {
        for (std::size_t i = 0; i < lat.x_values.size(); ++i) {
            XModelParams p = base;
            p.L_s = lat.x_values[i];
            p.alpha = lat.y_values[j];
            QCOMPARE(countAt(lat, i, j), XModel(p).solve().stableCount());
        }
    }
}

QTEST_APPLESS_MAIN(TestStabilityMap)
#include "tst_stability_map.moc"
