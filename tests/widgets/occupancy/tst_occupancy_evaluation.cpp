// SPDX-License-Identifier: GPL-3.0-or-later
// OccupancyEvaluation without a view: its three sweeps hold the occupancy NVIDIA's allocation rules give, worked
// by hand below for an A100-class SM (CC 8.0: 64 warps, 32 blocks, 65,536 registers in units of 256 per warp,
// 164 KiB of shared memory with 1 KiB reserved per block), and follow every change of the configuration.
#include "common/parameter_state.h"
#include "occupancy/occupancy_evaluation.h"
#include "state/occupancy_state.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace crossroof;
using namespace crossroof::widgets;

class TestOccupancyEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sweepsHoldTheWorkedOccupancies();
    void aChangeSweepsAgain();
};

namespace {

void configure(OccupancyState &state, int threads, int regs)
{
    state.setComputeCapability("8.0");
    state.setMode(core::OccupancyMode::Cuda);
    state.setThreadsPerBlock(threads);
    state.setRegistersPerThread(regs);
    state.setSharedMemoryPerBlock(0);
    state.setSharedMemoryConfig(std::nullopt);
}

/// The occupancy SWEEP gives at X; fails the test where X is not swept.
double occupancyAt(const core::OccupancySweep &sweep, long long x)
{
    const auto it = std::find(sweep.x.begin(), sweep.x.end(), x);
    if (it == sweep.x.end()) {
        qWarning("x = %lld is not in the sweep", x);
        return -1;
    }
    return sweep.occupancy[std::size_t(it - sweep.x.begin())];
}

} // namespace

void TestOccupancyEvaluation::sweepsHoldTheWorkedOccupancies()
{
    ParameterState params;
    OccupancyState state(&params);
    configure(state, 256, 32);
    OccupancyEvaluation eval(&state);
    QVERIFY(state.result().has_value());
    for (const auto &sweep : eval.sweeps())
        QVERIFY(sweep.has_value());

    // Threads per block, every size 1..1024, 32 registers (1,024 a warp).
    const core::OccupancySweep &threads = *eval.sweeps()[0];
    QCOMPARE(threads.variable, core::SweepVariable::ThreadsPerBlock);
    QCOMPARE(threads.x.size(), std::size_t(1024));
    QCOMPARE(threads.x.front(), 1LL);
    QCOMPARE(occupancyAt(threads, 1), 0.5);          // a partial warp takes a whole one
    QCOMPARE(occupancyAt(threads, 33), 1.0);         // two warps, as 64 threads: 32 blocks of 2
    QCOMPARE(occupancyAt(threads, 64), 1.0);
    QCOMPARE(threads.x.back(), 1024LL);
    QCOMPARE(occupancyAt(threads, 32), 0.5);         // one warp a block: the 32-block limit, 32 warps
    QCOMPARE(occupancyAt(threads, 96), 63.0 / 64.0); // 3 warps: 21 blocks by warps and by registers, 63 warps
    QCOMPARE(occupancyAt(threads, 256), 1.0);        // 8 blocks of 8 warps
    QCOMPARE(occupancyAt(threads, 1024), 1.0);       // 2 blocks of 32 warps

    // Registers per thread, 1..255, 256 threads (8 warps) a block.
    const core::OccupancySweep &regs = *eval.sweeps()[1];
    QCOMPARE(regs.x.size(), std::size_t(255));
    QCOMPARE(occupancyAt(regs, 64), 0.5);    // 2,048 a warp: 32 warps, 4 blocks
    QCOMPARE(occupancyAt(regs, 33), 0.75);   // 1,056 rounded up to 1,280 a warp: 51 warps, 6 blocks
    QCOMPARE(occupancyAt(regs, 128), 0.25);  // 4,096 a warp: 2 blocks
    QCOMPARE(occupancyAt(regs, 255), 0.125); // 8,160 rounded up to 8,192 a warp: 1 block
    // More registers never raise occupancy.
    for (std::size_t i = 1; i < regs.occupancy.size(); ++i)
        QVERIFY(regs.occupancy[i] <= regs.occupancy[i - 1]);

    // Shared memory per block, in 128-byte units; each block also holds the 1 KiB CUDA reserves.
    const core::OccupancySweep &smem = *eval.sweeps()[2];
    QCOMPARE(smem.x.front(), 0LL);
    QCOMPARE(smem.x[1] - smem.x[0], 128LL);
    QCOMPARE(occupancyAt(smem, 0), 1.0);            // the registers' 8 blocks
    QCOMPARE(occupancyAt(smem, 48 * 1024), 0.375);  // 49 KiB a block: 3 blocks in 164 KiB
    QCOMPARE(occupancyAt(smem, 80 * 1024), 0.25);   // 81 KiB: 2 blocks
    QCOMPARE(occupancyAt(smem, 100 * 1024), 0.125); // 101 KiB: 1 block
}

void TestOccupancyEvaluation::aChangeSweepsAgain()
{
    ParameterState params;
    OccupancyState state(&params);
    configure(state, 256, 32);
    OccupancyEvaluation eval(&state);
    QSignalSpy updated(&eval, &OccupancyEvaluation::updated);
    state.setRegistersPerThread(128);
    QVERIFY(updated.count() >= 1);
    // Occupancy against threads with 128 registers (4,096 a warp, 16 warps an SM): a quarter wherever a block
    // fits, and no block at all of 32 warps.
    const core::OccupancySweep &threads = *eval.sweeps()[0];
    QCOMPARE(occupancyAt(threads, 32), 0.25);
    QCOMPARE(occupancyAt(threads, 256), 0.25);
    QCOMPARE(occupancyAt(threads, 1024), 0.0);
    // An invalid configuration has no sweeps.
    state.setThreadsPerBlock(2000);
    QVERIFY(!state.result().has_value());
    for (const auto &sweep : eval.sweeps())
        QVERIFY(!sweep.has_value());
}

QTEST_MAIN(TestOccupancyEvaluation)
#include "tst_occupancy_evaluation.moc"
