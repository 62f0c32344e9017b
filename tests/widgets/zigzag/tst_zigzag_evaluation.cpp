// SPDX-License-Identifier: GPL-3.0-or-later
// ZigzagEvaluation without a view: the zigzag and the TMM are core's for the occupancy state's SMs and active
// blocks and the TMM texts; texts that are not numbers, and launches that fit no block, are refused.
#include "common/parameter_state.h"
#include "core/support/error.h"
#include "state/occupancy_state.h"
#include "zigzag/zigzag_evaluation.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

class TestZigzagEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void zigzagIsCoresZigzag();
    void tmmIsCoresTmm();
    void badTextsAreRefused();
};

void TestZigzagEvaluation::zigzagIsCoresZigzag()
{
    ParameterState params;
    OccupancyState state(&params);
    state.setSmCount(14);
    state.setManualActiveBlocks(3);
    state.setRequestedBlocksMax(200);
    ZigzagEvaluation eval(&state);
    QSignalSpy updated(&eval, &ZigzagEvaluation::zigzagUpdated);
    eval.recomputeZigzag();
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.zigzag().has_value());
    const core::Zigzag expected = core::zigzag(14, 3, 1, 200);
    QCOMPARE(eval.zigzag()->blocks_per_pass, 42);
    QVERIFY(eval.zigzag()->f_sched == expected.f_sched);
    QVERIFY(eval.zigzag()->minima == expected.minima);
}

void TestZigzagEvaluation::tmmIsCoresTmm()
{
    ParameterState params;
    OccupancyState state(&params);
    state.setManualActiveBlocks(2);
    ZigzagEvaluation eval(&state);
    QSignalSpy updated(&eval, &ZigzagEvaluation::tmmUpdated);
    core::TmmSettings settings;
    settings.requested_blocks = "250";
    eval.setTmmSettings(settings);
    QCOMPARE(updated.count(), 1);
    QVERIFY2(eval.tmmError().isEmpty(), qPrintable(eval.tmmError()));
    core::TmmParams p;
    p.work = 1e9;
    p.span = 0;
    p.transactions = 1e7;
    p.latency = 400;
    p.threads_per_core = 1;
    p.cores = 480;
    p.requested_blocks = 250;
    p.active_blocks = 2;
    p.sms = state.smCount();
    const core::TmmResult expected = core::evaluateTmm(p);
    QCOMPARE(eval.requestedBlocks(), 250LL);
    QCOMPARE(eval.tmm()->time, expected.time);
    QCOMPARE(eval.tmm()->passes, expected.passes);
}

void TestZigzagEvaluation::badTextsAreRefused()
{
    QCOMPARE(parseTmmNumber(QStringLiteral(" 2.5e3 "), "x"), 2500.0);
    QVERIFY_THROWS_EXCEPTION(core::InputError, parseTmmCount(QStringLiteral("2.5"), "B_r"));
    ParameterState params;
    OccupancyState state(&params);
    ZigzagEvaluation eval(&state);
    core::TmmSettings settings;
    settings.work = "lots";
    eval.setTmmSettings(settings);
    QVERIFY(!eval.tmm());
    QCOMPARE(eval.tmmError(), QStringLiteral("work T1: not a number (got 'lots')"));
    // No block on an SM: no zigzag, and nothing wrong to report.
    state.setManualActiveBlocks(0);
    QCOMPARE(state.activeBlocks(), 0);
    eval.recomputeZigzag();
    QVERIFY(!eval.zigzag());
    QVERIFY(eval.zigzagError().isEmpty());
}

QTEST_MAIN(TestZigzagEvaluation)
#include "tst_zigzag_evaluation.moc"
