// SPDX-License-Identifier: GPL-3.0-or-later
// StabilityEvaluation without a view: a change of the state or the settings brings the map, the hysteresis
// sweep and the advice up to date off the GUI thread. Each is checked against the X-model solved directly at
// the same parameters (a second solver: the map's root scan and the advisor's search are not what XModel::solve
// does), and against what the default thrashing workload shows: a bistable region and its hysteresis.
#include "common/parameter_state.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/parameters.h"
#include "core/xmodel/stability_map.h"
#include "core/xmodel/xmodel.h"
#include "stability/stability_evaluation.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

class TestStabilityEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void mapAgreesWithTheSolverInEveryCell();
    void aNewParameterRefinesAnotherMap();
    void anAxisKeyOnlyMovesThePoint();
    void sweepFollowsTheStableStates();
    void adviceIsWhatEachChangeGives();
    void anInactiveEvaluationWaits();
    void heldAxesStayUntilTheDragEnds();
    void adviceWaitsForTheSliderToBeLetGo();

private:
    /// The model at the present parameters with KEY set to VALUE, solved directly.
    core::XGraphResult solvedAt(std::initializer_list<std::pair<std::string_view, double>> values) const
    {
        core::XModelParams p = m_state->params();
        for (const auto &[key, value] : values)
            p.*(core::findParameter(key)->member) = value;
        return core::XModel(p).solve();
    }
    /// Whether the map agrees with the solver in every cell; names the first cell that does not.
    QString mapDisagreement() const
    {
        const core::StabilityMap &map = m_eval->map();
        for (std::size_t j = 0; j < map.y_values.size(); ++j) {
            for (std::size_t i = 0; i < map.x_values.size(); ++i) {
                const core::XGraphResult r = solvedAt({{map.x.key, map.x_values[i]}, {map.y.key, map.y_values[j]}});
                const std::size_t c = map.index(i, j);
                const double gbs = r.operatingPoint().ms_gbs;
                if (map.stable_count[c] != r.stableCount() || std::abs(map.operating_gbs[c] - gbs) > 1e-6 * gbs + 1e-9)
                    return QStringLiteral("cell (%1, %2): map %3 stable, %4 GB/s; solver %5, %6")
                            .arg(i).arg(j).arg(map.stable_count[c]).arg(map.operating_gbs[c]).arg(r.stableCount()).arg(gbs);
            }
        }
        return {};
    }

    ParameterState *m_state = nullptr;
    StabilityEvaluation *m_eval = nullptr;
};

void TestStabilityEvaluation::init()
{
    m_state = new ParameterState; // the default profile: a GTX 570 with a cache-thrashing workload
    m_eval = new StabilityEvaluation(m_state);
    core::StabilitySettings settings;
    settings.resolution = 48;
    m_eval->setSettings(settings);
    m_eval->setActive(true);
    m_eval->wait();
}

void TestStabilityEvaluation::cleanup()
{
    delete m_eval;
    delete m_state;
}

void TestStabilityEvaluation::mapAgreesWithTheSolverInEveryCell()
{
    const core::StabilityMap &map = m_eval->map();
    QCOMPARE(map.completed_stride, 1);
    QCOMPARE(map.x.key, std::string("n"));
    QCOMPARE(map.y.key, std::string("Z"));
    QCOMPARE(int(map.x_values.size()), 48);
    const QString disagreement = mapDisagreement();
    QVERIFY2(disagreement.isEmpty(), qPrintable(disagreement));
    // The thrashing workload is bistable somewhere on the map, and has one state elsewhere.
    QVERIFY(std::count(map.stable_count.begin(), map.stable_count.end(), 1) > 0);
    QVERIFY(std::count_if(map.stable_count.begin(), map.stable_count.end(), [](int c) { return c >= 2; }) > 0);
}

void TestStabilityEvaluation::aNewParameterRefinesAnotherMap()
{
    QSignalSpy maps(m_eval, &StabilityEvaluation::mapUpdated);
    const auto before = m_eval->map().stable_count;
    m_state->setValue(QStringLiteral("E"), m_state->params().E * 3);
    // The coarse level at once (on the next turn of the event loop), the finer ones as they are refined.
    QTRY_VERIFY(maps.count() >= 1);
    QTRY_COMPARE(m_eval->map().completed_stride, 1);
    QVERIFY(maps.count() >= 2);
    QVERIFY(m_eval->map().stable_count != before);
    const QString disagreement = mapDisagreement();
    QVERIFY2(disagreement.isEmpty(), qPrintable(disagreement));
}

void TestStabilityEvaluation::anAxisKeyOnlyMovesThePoint()
{
    // n is the map's x axis, over 1 to the device's warps (or n beyond them).
    m_state->setValue(QStringLiteral("n"), 10);
    m_eval->wait();
    QSignalSpy maps(m_eval, &StabilityEvaluation::mapUpdated);
    QSignalSpy points(m_eval, &StabilityEvaluation::pointMoved);
    m_state->setValue(QStringLiteral("n"), 12);
    QTRY_COMPARE(points.count(), 1);
    m_eval->wait();
    QCOMPARE(maps.count(), 0);
    // A key the map does not show changes the map.
    m_state->setValue(QStringLiteral("R"), m_state->params().R * 2);
    QTRY_VERIFY(maps.count() >= 1);
    QCOMPARE(points.count(), 1);
}

void TestStabilityEvaluation::sweepFollowsTheStableStates()
{
    const auto &sweep = m_eval->sweep();
    QCOMPARE(sweep.key, std::string("n"));
    QCOMPARE(sweep.values.front(), 1.0);
    QCOMPARE(sweep.values.back(), std::max(m_state->params().max_warps, m_state->params().n));
    // Where the machine has one stable state both sweeps are in it.
    for (std::size_t i = 0; i < sweep.values.size(); ++i) {
        const core::XGraphResult r = solvedAt({{"n", sweep.values[i]}});
        QCOMPARE(sweep.result.stable_count[i], r.stableCount());
        if (r.stableCount() == 1) {
            const double gbs = r.operatingPoint().ms_gbs;
            QVERIFY(std::abs(sweep.result.up_gbs[i] - gbs) <= 1e-6 * gbs);
            QVERIFY(std::abs(sweep.result.down_gbs[i] - gbs) <= 1e-6 * gbs);
        }
    }

    // Another key: a sweep of 256 values over its range, computed again.
    QSignalSpy sweeps(m_eval, &StabilityEvaluation::sweepUpdated);
    core::StabilitySettings settings = m_eval->settings();
    settings.sweep_key = "Z";
    m_eval->setSettings(settings);
    QTRY_COMPARE(sweeps.count(), 1);
    QCOMPARE(m_eval->sweep().key, std::string("Z"));
    QCOMPARE(int(m_eval->sweep().values.size()), 256);
    for (std::size_t i = 0; i < m_eval->sweep().values.size(); i += 15)
        QCOMPARE(m_eval->sweep().result.stable_count[i], solvedAt({{"Z", m_eval->sweep().values[i]}}).stableCount());
    // Along Z this thrashing workload is bistable, and the two sweeps jump at different Z: the hysteresis.
    const core::HysteresisResult &z = m_eval->sweep().result;
    QVERIFY(z.jumps.size() >= 2);
    bool apart = false;
    for (std::size_t i = 0; i < z.values.size(); ++i)
        apart = apart || std::abs(z.up_gbs[i] - z.down_gbs[i]) > 1;
    QVERIFY(apart);
}

void TestStabilityEvaluation::adviceIsWhatEachChangeGives()
{
    QSignalSpy advice(m_eval, &StabilityEvaluation::adviceUpdated);
    m_state->setValue(QStringLiteral("Z"), 4.0);
    QTRY_COMPARE(advice.count(), 1);
    QVERIFY(m_eval->advice().has_value());
    const core::Advice &a = *m_eval->advice();
    const core::XGraphResult now = solvedAt({});
    QVERIFY(std::abs(a.cs_gops - now.operatingPoint().cs_gops) <= 1e-9 * a.cs_gops);
    QVERIFY(!a.operations.empty());
    int applicable = 0;
    for (const core::TuningAdvice &op : a.operations) {
        if (!op.applicable) {
            QVERIFY(!op.reason.empty());
            continue;
        }
        ++applicable;
        // Each change is what its parameters say, and its gain is the solver's at the changed parameters.
        for (const core::ParameterChange &c : op.changes)
            QCOMPARE(op.params.*(core::findParameter(c.key)->member), c.to);
        const core::XGraphResult after = core::XModel(op.params).solve();
        QCOMPARE(op.stable_count, after.stableCount());
        const double cs = after.operatingPoint().cs_gops;
        QVERIFY2(std::abs(op.cs_gops - cs) <= 1e-6 * cs, std::string(op.id).c_str());
        QVERIFY(std::abs(op.cs_change_gops - (cs - a.cs_gops)) <= 1e-6 * cs);
    }
    QVERIFY(applicable > 0);
}

void TestStabilityEvaluation::anInactiveEvaluationWaits()
{
    QSignalSpy maps(m_eval, &StabilityEvaluation::mapUpdated);
    QSignalSpy sweeps(m_eval, &StabilityEvaluation::sweepUpdated);
    m_eval->setActive(false);
    m_state->setValue(QStringLiteral("E"), m_state->params().E * 2);
    QTest::qWait(50);
    QCOMPARE(maps.count(), 0);
    QCOMPARE(sweeps.count(), 0);
    m_eval->setActive(true);
    QTRY_VERIFY(maps.count() >= 1);
    QTRY_COMPARE(sweeps.count(), 1);
    m_eval->wait();
    const QString disagreement = mapDisagreement();
    QVERIFY2(disagreement.isEmpty(), qPrintable(disagreement));
}

void TestStabilityEvaluation::heldAxesStayUntilTheDragEnds()
{
    // Z's axis is centred on Z: held while the point is dragged, re-centred when the drag ends.
    const core::MapAxis y0 = m_eval->axis(1);
    QVERIFY(y0.log);
    m_eval->holdAxes();
    m_state->beginInteraction();
    m_state->applyValue(QStringLiteral("Z"), m_state->params().Z * 4);
    QCOMPARE(m_eval->axis(1).min, y0.min);
    QCOMPARE(m_eval->axis(1).max, y0.max);
    m_state->endInteraction();
    QVERIFY(m_eval->axis(1).max > y0.max);
    m_eval->wait();
    QCOMPARE(m_eval->map().y.max, m_eval->axis(1).max);
}

void TestStabilityEvaluation::adviceWaitsForTheSliderToBeLetGo()
{
    // While a slider is held the advisor keeps its advice (rebuilding its table and explanations on a step made
    // that step a drag's slowest); let go, it gives the advice of where the slider stopped.
    QSignalSpy advice(m_eval, &StabilityEvaluation::adviceUpdated);
    m_state->beginInteraction();
    for (double z : {5.0, 6.0, 7.0}) {
        m_state->applyValue(QStringLiteral("Z"), z);
        QTest::qWait(200);
    }
    m_eval->wait();
    QCOMPARE(advice.count(), 0);
    m_state->endInteraction();
    QTRY_COMPARE(advice.count(), 1);
    QCOMPARE(m_eval->advice()->params.Z, 7.0);
}

QTEST_MAIN(TestStabilityEvaluation)
#include "tst_stability_evaluation.moc"
