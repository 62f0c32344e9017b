// SPDX-License-Identifier: GPL-3.0-or-later
// ZigzagEvaluation without a view: the zigzag and the TMM of the occupancy state's SMs and active blocks and the
// TMM texts, against numbers worked by hand (Eq. 1 and 3 of the TMM paper); texts that are not numbers, and
// launches that fit no block, are refused.
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
    void zigzagIsTheWorkedZigzag();
    void tmmIsTheWorkedTmm();
    void badTextsAreRefused();
};

void TestZigzagEvaluation::zigzagIsTheWorkedZigzag()
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
    // 14 SMs x 3 blocks: 42 blocks a pass. f_sched = ceil(B_r / 42) * 42 / B_r.
    const core::Zigzag &z = *eval.zigzag();
    QCOMPARE(z.blocks_per_pass, 42LL);
    QCOMPARE(z.br.size(), std::size_t(200));
    QCOMPARE(z.br.front(), 1LL);
    QCOMPARE(z.f_sched[0], 42.0);               // one block: 41 of 42 slots idle
    QCOMPARE(z.f_sched[41], 1.0);               // 42: one full pass
    QCOMPARE(z.f_sched[42], 84.0 / 43.0);       // 43: a second pass for one block
    QCOMPARE(z.f_sched[199], 210.0 / 200.0);    // 200: five passes
    QCOMPARE(z.minima, (std::vector<long long> {42, 84, 126, 168}));
    for (double f : z.f_sched)
        QVERIFY(f >= 1.0);
}

void TestZigzagEvaluation::tmmIsTheWorkedTmm()
{
    ParameterState params;
    OccupancyState state(&params);
    state.setSmCount(15);
    state.setManualActiveBlocks(2);
    ZigzagEvaluation eval(&state);
    QSignalSpy updated(&eval, &ZigzagEvaluation::tmmUpdated);
    core::TmmSettings settings;
    settings.work = "1e9";
    settings.span = "0";
    settings.transactions = "1e7";
    settings.latency = "400";
    settings.threads_per_core = "1";
    settings.cores = "480";
    settings.requested_blocks = "250";
    eval.setTmmSettings(settings);
    QCOMPARE(updated.count(), 1);
    QVERIFY2(eval.tmmError().isEmpty(), qPrintable(eval.tmmError()));
    QCOMPARE(eval.requestedBlocks(), 250LL);
    // Work 1e9 / 480 = 2.08e6 steps; memory 1e7 x 400 / (1 x 480) = 8.33e6: memory-bound. 250 blocks, 30 a
    // pass (2 on each of 15 SMs): 9 passes, f_sched = 270 / 250 = 1.08, time 8.33e6 x 1.08 = 9e6 steps.
    QCOMPARE(eval.tmm()->bound, core::TmmBound::Memory);
    QCOMPARE(eval.tmm()->passes, 9LL);
    QVERIFY(qFuzzyCompare(eval.tmm()->f_sched, 1.08));
    QVERIFY(qFuzzyCompare(eval.tmm()->time, 9e6));
    // Twice the threads per core halve the memory term: still memory-bound at 4.17e6, time 4.5e6.
    settings.threads_per_core = "2";
    eval.setTmmSettings(settings);
    QVERIFY(qFuzzyCompare(eval.tmm()->time, 4.5e6));
    // Past L*M/T1 = 4 threads a core the work term rules: 2.08e6 x 1.08 = 2.25e6.
    settings.threads_per_core = "8";
    eval.setTmmSettings(settings);
    QCOMPARE(eval.tmm()->bound, core::TmmBound::Compute);
    QVERIFY(qFuzzyCompare(eval.tmm()->time, 2.25e6));
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
