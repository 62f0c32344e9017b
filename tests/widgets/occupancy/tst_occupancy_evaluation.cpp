// SPDX-License-Identifier: GPL-3.0-or-later
// OccupancyEvaluation without a view: its three sweeps are core's for the occupancy state's configuration and
// follow every change of it; an invalid configuration has none.
#include "common/parameter_state.h"
#include "occupancy/occupancy_evaluation.h"
#include "state/occupancy_state.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

class TestOccupancyEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sweepsAreCoresSweeps();
    void aChangeSweepsAgain();
};

void TestOccupancyEvaluation::sweepsAreCoresSweeps()
{
    ParameterState params;
    OccupancyState state(&params);
    OccupancyEvaluation eval(&state);
    QVERIFY(state.result().has_value());
    const auto &cc = core::computeCapability(state.computeCapability());
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY(eval.sweeps()[i].has_value());
        const core::OccupancySweep expected
                = core::sweepOccupancy(cc, state.input(), state.mode(), OccupancyEvaluation::kSweeps[i]);
        QCOMPARE(eval.sweeps()[i]->variable, OccupancyEvaluation::kSweeps[i]);
        QVERIFY(eval.sweeps()[i]->x == expected.x);
        QVERIFY(eval.sweeps()[i]->occupancy == expected.occupancy);
    }
}

void TestOccupancyEvaluation::aChangeSweepsAgain()
{
    ParameterState params;
    OccupancyState state(&params);
    OccupancyEvaluation eval(&state);
    QSignalSpy updated(&eval, &OccupancyEvaluation::updated);
    const auto before = eval.sweeps()[0]->occupancy;
    state.setRegistersPerThread(state.input().regs_per_thread == 128 ? 32 : 128);
    QVERIFY(updated.count() >= 1);
    QVERIFY(eval.sweeps()[0]->occupancy != before); // occupancy against threads, with other registers
    const auto &cc = core::computeCapability(state.computeCapability());
    QVERIFY(eval.sweeps()[0]->occupancy
            == core::sweepOccupancy(cc, state.input(), state.mode(), OccupancyEvaluation::kSweeps[0])
                       .occupancy);
}

QTEST_MAIN(TestOccupancyEvaluation)
#include "tst_occupancy_evaluation.moc"
