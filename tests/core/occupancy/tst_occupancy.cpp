// SPDX-License-Identifier: GPL-3.0-or-later
#include "occupancy_fixtures.h"
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/occupancy/occupancy.h"

#include <QFile>
#include <QTest>

#include <map>
#include <random>
#include <set>

using namespace crossroof;
using namespace crossroof::occupancy_test;
using core::Limiter;
using core::OccupancyInput;
using core::OccupancyMode;
using core::SweepVariable;

/// Active blocks per SM: the calculator's examples, Eq. 4 as printed, invariants, bad inputs, sweeps, names.
class TestOccupancy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nvidiaCalculatorExamples();
    void paperModeIsEq4AsPrinted();
    void modesAgreeWithoutGranularity();
    void randomInputsKeepTheInvariants();
    void moreRegistersOrSharedMemoryNeverRaiseBlocks();
    void invalidInputsAreRejected_data();
    void invalidInputsAreRejected();
    void sweepsMatchSinglePoints();
    void badSweepRangesAreRejected();
    void namesAreTheJsonContract();
};

void TestOccupancy::nvidiaCalculatorExamples()
{
    // CC 8.0, 256 threads, 64 registers, 12 KiB shared memory: 4 blocks, registers limiting, 50 %.
    auto r = core::activeBlocks(core::computeCapability("8.0"), input(256, 64, 12 * 1024));
    QCOMPARE(r.blocks, 4);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("registers"));
    QCOMPARE(r.warps_per_sm, 32.0);
    QCOMPARE(r.occupancy, 0.5);
    QCOMPARE(r.smem_config, 167936LL);
    // What the 4 blocks take of the 164 KiB carveout: 12 KiB plus the 1 KiB reserve each, 52 KiB.
    QCOMPARE(r.smem_used, 4 * 13 * 1024LL);
    // CC 7.0, 128 threads, 32 registers, no shared memory: 16 blocks, 100 %.
    r = core::activeBlocks(core::computeCapability("7.0"), input(128, 32, 0));
    QCOMPARE(r.blocks, 16);
    QCOMPARE(r.occupancy, 1.0);
    QCOMPARE(r.warps_per_block, 4);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("warps,registers"));
    QVERIFY(!r.by.shared_memory.has_value());
    QCOMPARE(r.smem_used, 0LL); // no shared memory and no reserve on 7.0: nothing used, whatever the carveout
}

void TestOccupancy::paperModeIsEq4AsPrinted()
{
    // GTX 480 (CC 2.0), as in the paper: T_r = 100, R_T = 20, S_B = 5000.
    // Eq. 4: Z/S_B = 49152/5000 = 9; R/(R_T*T_r) = 32768/2000 = 16; B_max/(P/Q) = 8 (B_max = 8 per SM times
    // P/Q); T_maxMP/T_r = 1536/100 = 15. -> B_a = 8 by blocks; 800 threads = 25 warps of 32, 800/1536.
    const auto &fermi = core::computeCapability("2.0");
    auto r = core::activeBlocks(fermi, input(100, 20, 5000), OccupancyMode::Paper);
    QCOMPARE(r.mode, OccupancyMode::Paper);
    QCOMPARE(r.blocks, 8);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("blocks"));
    QCOMPARE(r.by.warps, 15);
    QCOMPARE(r.by.registers, std::optional<int>(16));
    QCOMPARE(r.by.shared_memory, std::optional<int>(9));
    QCOMPARE(r.warps_per_sm, 25.0);
    QCOMPARE(r.occupancy, 800.0 / 1536);
    QCOMPARE(r.smem_used, 8 * 5000LL);
    // The CUDA rule on the same block: w=4 warps (12 blocks by warps); ru=roundup(640,64)=640:
    // 16384/640=25, *2=50, /4=12; smem roundup(5000,128)=5120: 49152/5120=9. -> 8 by blocks, 32 warps.
    r = core::activeBlocks(fermi, input(100, 20, 5000), OccupancyMode::Cuda);
    QCOMPARE(r.blocks, 8);
    QCOMPARE(r.warps_per_sm, 32.0);

    // Where granularity matters the modes differ. CC 8.0, 100 threads, 64 registers, 12 KiB:
    // paper 65536/6400 = 10 by registers (13 by smem, 20 by threads); CUDA w=4, ru=2048: 8*4/4 = 8.
    const auto &ampere = core::computeCapability("8.0");
    r = core::activeBlocks(ampere, input(100, 64, 12288), OccupancyMode::Paper);
    QCOMPARE(r.blocks, 10);
    QCOMPARE(limiterList(r.limiters), QStringLiteral("registers"));
    QCOMPARE(r.by.shared_memory, std::optional<int>(13));
    QCOMPARE(r.by.warps, 20);
    QCOMPARE(core::activeBlocks(ampere, input(100, 64, 12288), OccupancyMode::Cuda).blocks, 8);
    // As printed, Eq. 4 has no per-thread register cap: 300 registers still give 65536/(300*32) = 6.
    r = core::activeBlocks(ampere, input(32, 300, 0), OccupancyMode::Paper);
    QCOMPARE(r.blocks, 6);
    QCOMPARE(core::activeBlocks(ampere, input(32, 300, 0), OccupancyMode::Cuda).blocks, 0);
}

void TestOccupancy::modesAgreeWithoutGranularity()
{
    // Granularity does not matter, and the two modes agree on B_a, limiters, warps and occupancy, when:
    // T_r is a multiple of 32 (whole warps); R_T is 0 or a power of two from 8 to the per-thread maximum
    // (R_T*32 is then a multiple of the allocation unit and divides each sub-partition's share); and S_B is a
    // multiple of the allocation unit within the per-block maximum, on a CC that reserves no shared memory
    // per block, or S_B = 0 (the reserved 1 KiB then allows 100+ blocks, never the binding limit).
    int compared = 0;
    for (const auto &cc : core::computeCapabilities()) {
        std::vector<long long> smems{0};
        if (cc.reserved_smem_per_block == 0) {
            for (long long units : {1, 3, 16, 40, 100, 190})
                if (units * cc.smem_alloc_unit <= cc.max_smem_block_bytes)
                    smems.push_back(units * cc.smem_alloc_unit);
            smems.push_back(cc.max_smem_block_bytes);
        }
        for (int threads = 32; threads <= core::kMaxThreadsPerBlock; threads += 32) {
            for (int regs : {0, 8, 16, 32, 64, 128}) {
                if (regs > cc.max_regs_thread)
                    continue;
                for (long long smem : smems) {
                    const auto in = input(threads, regs, smem);
                    const auto cuda = core::activeBlocks(cc, in, OccupancyMode::Cuda);
                    const auto paper = core::activeBlocks(cc, in, OccupancyMode::Paper);
                    const QByteArray where
                            = QByteArray("CC ") + cc.name.c_str() + " T=" + QByteArray::number(threads)
                              + " R=" + QByteArray::number(regs) + " S=" + QByteArray::number(smem);
                    QVERIFY2(cuda.blocks == paper.blocks, where.constData());
                    QVERIFY2(cuda.limiters == paper.limiters, where.constData());
                    QVERIFY2(cuda.warps_per_sm == paper.warps_per_sm, where.constData());
                    QVERIFY2(cuda.occupancy == paper.occupancy, where.constData());
                    QVERIFY2(cuda.by.warps == paper.by.warps && cuda.by.registers == paper.by.registers,
                             where.constData());
                    ++compared;
                }
            }
        }
    }
    QVERIFY(compared > 1000);
}

void TestOccupancy::randomInputsKeepTheInvariants()
{
    std::mt19937_64 rng(20240607);
    for (int trial = 0; trial < 20000; ++trial) {
        const auto table = core::computeCapabilities();
        const auto &cc = table[std::uniform_int_distribution<std::size_t>(0, table.size() - 1)(rng)];
        const auto configs = cc.smemConfigsBytes();
        OccupancyInput in;
        in.threads_per_block = std::uniform_int_distribution<int>(1, core::kMaxThreadsPerBlock)(rng);
        in.regs_per_thread = std::uniform_int_distribution<int>(0, 300)(rng);
        in.smem_per_block = std::uniform_int_distribution<long long>(0, cc.max_smem_block_bytes + 4096)(rng);
        if (trial % 2)
            in.smem_config = configs[std::uniform_int_distribution<std::size_t>(0, configs.size() - 1)(rng)];
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            const auto r = core::activeBlocks(cc, in, mode);
            QVERIFY(r.blocks >= 0 && r.blocks <= cc.max_blocks_sm);
            QVERIFY(r.occupancy >= 0 && r.occupancy <= 1);
            QVERIFY(r.warps_per_sm <= cc.max_warps_sm);
            QVERIFY(!r.limiters.empty());
            for (Limiter l : core::kLimiters) {
                const auto v = r.by.get(l);
                QVERIFY(!v || *v >= r.blocks);
                QCOMPARE(r.limiters.contains(l), v == r.blocks);
            }
            if (r.blocks == 0)
                QCOMPARE(r.occupancy, 0.0);
            QVERIFY(r.smem_used >= r.blocks * in.smem_per_block && r.smem_used <= r.smem_config);
        }
    }
}

void TestOccupancy::moreRegistersOrSharedMemoryNeverRaiseBlocks()
{
    for (const auto &cc : core::computeCapabilities()) {
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            for (int threads : {1, 32, 96, 128, 256, 480, 512, 1024}) {
                const auto regs = core::sweepOccupancy(cc, input(threads, 1, 1000), mode,
                                                       SweepVariable::RegistersPerThread, {1, 300, 1});
                for (std::size_t i = 1; i < regs.blocks.size(); ++i)
                    QVERIFY(regs.blocks[i] <= regs.blocks[i - 1]);
                const auto smem = core::sweepOccupancy(cc, input(threads, 32, 0), mode,
                                                       SweepVariable::SharedMemoryPerBlock,
                                                       {0, cc.max_smem_block_bytes + 1024, 64});
                for (std::size_t i = 1; i < smem.blocks.size(); ++i)
                    QVERIFY(smem.blocks[i] <= smem.blocks[i - 1]);
            }
        }
    }
}

void TestOccupancy::invalidInputsAreRejected_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("regs");
    QTest::addColumn<qlonglong>("smem");
    QTest::addColumn<qlonglong>("config"); // -1: default
    QTest::addColumn<QString>("message");
    QTest::newRow("0 threads") << 0 << 32 << 0LL << -1LL
                               << "threads per block: must be between 1 and 1024 (got 0)";
    QTest::newRow("2000 threads") << 2000 << 32 << 0LL << -1LL
                                  << "threads per block: must be between 1 and 1024 (got 2000)";
    QTest::newRow("negative threads") << -32 << 32 << 0LL << -1LL << "threads per block";
    QTest::newRow("negative registers")
            << 128 << -1 << 0LL << -1LL << "registers per thread: must be between 0 and 65536 (got -1)";
    QTest::newRow("huge registers") << 128 << 70000 << 0LL << -1LL << "registers per thread";
    QTest::newRow("negative smem") << 128 << 32 << -4LL << -1LL
                                   << "shared memory per block: must be between 0 and";
    QTest::newRow("huge smem") << 128 << 32 << (1LL << 31) << -1LL << "shared memory per block";
    QTest::newRow("unknown carveout")
            << 128 << 32 << 0LL << 1000LL
            << "shared-memory configuration: 1000 bytes is not a configuration of CC 8.0 "
               "(choose one of 0, 8192, 16384, 32768, 65536, 102400, 135168, 167936 bytes)";
    QTest::newRow("negative carveout") << 128 << 32 << 0LL << -8192LL << "shared-memory configuration: -8192";
}

void TestOccupancy::invalidInputsAreRejected()
{
    QFETCH(int, threads);
    QFETCH(int, regs);
    QFETCH(qlonglong, smem);
    QFETCH(qlonglong, config);
    QFETCH(QString, message);
    const auto in
            = input(threads, regs, smem, config == -1 ? std::nullopt : std::optional<long long>(config));
    const auto &cc = core::computeCapability("8.0");
    for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
        try {
            core::activeBlocks(cc, in, mode);
            QFAIL("invalid input must be rejected");
        } catch (const core::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(core::InputError,
                                 core::sweepOccupancy(cc, in, mode, SweepVariable::ThreadsPerBlock));
    }
}

void TestOccupancy::sweepsMatchSinglePoints()
{
    const auto &cc = core::computeCapability("8.6");
    const auto base = input(256, 40, 4096, 65536);
    struct Expect
    {
        SweepVariable variable;
        long long first, last, step;
        std::size_t count;
    };
    for (const Expect &e : {Expect{SweepVariable::ThreadsPerBlock, 32, 1024, 32, 32},
                            Expect{SweepVariable::RegistersPerThread, 1, 255, 1, 255},
                            Expect{SweepVariable::SharedMemoryPerBlock, 0, 101376, 128, 793}}) {
        const auto range = core::defaultSweepRange(cc, e.variable);
        QCOMPARE(range.first, e.first);
        QCOMPARE(range.last, e.last);
        QCOMPARE(range.step, e.step);
        for (OccupancyMode mode : {OccupancyMode::Cuda, OccupancyMode::Paper}) {
            const auto s = core::sweepOccupancy(cc, base, mode, e.variable);
            QCOMPARE(s.variable, e.variable);
            QCOMPARE(s.x.size(), e.count);
            QCOMPARE(s.blocks.size(), e.count);
            QCOMPARE(s.occupancy.size(), e.count);
            QCOMPARE(s.warps_per_sm.size(), e.count);
            QCOMPARE(s.limiters.size(), e.count);
            for (std::size_t i = 0; i < s.x.size(); ++i) {
                OccupancyInput in = base;
                if (e.variable == SweepVariable::ThreadsPerBlock)
                    in.threads_per_block = int(s.x[i]);
                else if (e.variable == SweepVariable::RegistersPerThread)
                    in.regs_per_thread = int(s.x[i]);
                else
                    in.smem_per_block = s.x[i];
                const auto r = core::activeBlocks(cc, in, mode);
                QCOMPARE(s.blocks[i], r.blocks);
                QCOMPARE(s.occupancy[i], r.occupancy);
                QCOMPARE(s.warps_per_sm[i], r.warps_per_sm);
                QVERIFY(s.limiters[i] == r.limiters);
            }
        }
    }
    // Every block size, 1..1024.
    const auto every = core::sweepOccupancy(cc, base, OccupancyMode::Cuda, SweepVariable::ThreadsPerBlock,
                                            {1, 1024, 1});
    QCOMPARE(every.x.size(), std::size_t(1024));
    QCOMPARE(every.x.front(), 1LL);
    QCOMPARE(every.x.back(), 1024LL);
}

void TestOccupancy::badSweepRangesAreRejected()
{
    const auto &cc = core::computeCapability("7.0");
    const auto base = input(128, 32, 0);
    const auto expect = [&](SweepVariable v, core::SweepRange range, const char *message) {
        try {
            core::sweepOccupancy(cc, base, OccupancyMode::Cuda, v, range);
            QFAIL("a bad range must be rejected");
        } catch (const core::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String(message)), e.what());
        }
    };
    expect(SweepVariable::ThreadsPerBlock, {32, 1024, 0}, "step must be >= 1");
    expect(SweepVariable::ThreadsPerBlock, {64, 32, 1}, "is empty");
    expect(SweepVariable::ThreadsPerBlock, {32, 2048, 32},
           "threads per block: must be between 1 and 1024 (got 2048)");
    expect(SweepVariable::ThreadsPerBlock, {0, 64, 32}, "(got 0)");
    expect(SweepVariable::RegistersPerThread, {-1, 64, 1}, "registers per thread");
    expect(SweepVariable::SharedMemoryPerBlock, {0, 1LL << 30, 1}, "at most 1000000 allowed");
}

void TestOccupancy::namesAreTheJsonContract()
{
    QCOMPARE(core::limiterName(Limiter::Warps), std::string_view("warps"));
    QCOMPARE(core::limiterName(Limiter::Blocks), std::string_view("blocks"));
    QCOMPARE(core::limiterName(Limiter::Registers), std::string_view("registers"));
    QCOMPARE(core::limiterName(Limiter::SharedMemory), std::string_view("shared_memory"));
    QCOMPARE(core::occupancyModeName(OccupancyMode::Cuda), std::string_view("cuda"));
    QCOMPARE(core::occupancyModeName(OccupancyMode::Paper), std::string_view("paper"));
    QCOMPARE(core::occupancyModeFromName("paper"), std::optional<OccupancyMode>(OccupancyMode::Paper));
    QVERIFY(!core::occupancyModeFromName("CUDA"));
}

QTEST_APPLESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
