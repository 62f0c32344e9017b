// SPDX-License-Identifier: GPL-3.0-or-later
// StabilityEvaluation without a view: a change of the state or the settings brings the map, the hysteresis
// sweep and the advice up to date off the GUI thread, each the one core computes for the same inputs.
#include "common/parameter_state.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/stability_map.h"
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
    void mapIsCoresMap();
    void aNewParameterRefinesAnotherMap();
    void anAxisKeyOnlyMovesThePoint();
    void sweepIsCoresSweep();
    void adviceIsCoresAdvice();
    void anInactiveEvaluationWaits();
    void heldAxesStayUntilTheDragEnds();

private:
    /// The map core computes over the evaluation's present axes.
    core::StabilityMap coreMap() const
    {
        return core::computeStabilityMap(m_state->params(), m_eval->axis(0), m_eval->axis(1));
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

void TestStabilityEvaluation::mapIsCoresMap()
{
    const core::StabilityMap &map = m_eval->map();
    QCOMPARE(map.completed_stride, 1);
    QCOMPARE(map.x.key, std::string("n"));
    QCOMPARE(map.y.key, std::string("Z"));
    QCOMPARE(int(map.x_values.size()), 48);
    const core::StabilityMap expected = coreMap();
    QVERIFY(map.stable_count == expected.stable_count);
    QVERIFY(map.operating_gbs == expected.operating_gbs);
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
    QVERIFY(m_eval->map().stable_count == coreMap().stable_count);
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

void TestStabilityEvaluation::sweepIsCoresSweep()
{
    const auto &sweep = m_eval->sweep();
    QCOMPARE(sweep.key, std::string("n"));
    QCOMPARE(sweep.values.front(), 1.0);
    QCOMPARE(sweep.values.back(), std::max(m_state->params().max_warps, m_state->params().n));
    const auto expected = core::sweepHysteresis(m_state->params(), "n", sweep.values);
    QVERIFY(sweep.result.up_gbs == expected.up_gbs);
    QVERIFY(sweep.result.down_gbs == expected.down_gbs);

    // Another key: a sweep of 256 values over its range, computed again.
    QSignalSpy sweeps(m_eval, &StabilityEvaluation::sweepUpdated);
    core::StabilitySettings settings = m_eval->settings();
    settings.sweep_key = "Z";
    m_eval->setSettings(settings);
    QTRY_COMPARE(sweeps.count(), 1);
    QCOMPARE(m_eval->sweep().key, std::string("Z"));
    QCOMPARE(int(m_eval->sweep().values.size()), 256);
    const auto z = core::sweepHysteresis(m_state->params(), "Z", m_eval->sweep().values);
    QVERIFY(m_eval->sweep().result.up_k == z.up_k);
}

void TestStabilityEvaluation::adviceIsCoresAdvice()
{
    QSignalSpy advice(m_eval, &StabilityEvaluation::adviceUpdated);
    m_state->setValue(QStringLiteral("Z"), 4.0);
    QTRY_COMPARE(advice.count(), 1);
    QVERIFY(m_eval->advice().has_value());
    const core::Advice expected = core::advise(m_state->params());
    QCOMPARE(m_eval->advice()->operations.size(), expected.operations.size());
    for (std::size_t i = 0; i < expected.operations.size(); ++i) {
        QCOMPARE(m_eval->advice()->operations[i].id, expected.operations[i].id);
        QCOMPARE(m_eval->advice()->operations[i].cs_change_gops, expected.operations[i].cs_change_gops);
    }
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
    QVERIFY(m_eval->map().stable_count == coreMap().stable_count);
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

QTEST_MAIN(TestStabilityEvaluation)
#include "tst_stability_evaluation.moc"
