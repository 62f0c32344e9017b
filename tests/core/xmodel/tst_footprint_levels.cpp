// SPDX-License-Identifier: GPL-3.0-or-later
// The memory levels against the footprint of a sweep: numbers worked by hand from an H100 SXM's levels.
#include "core/xmodel/footprint_levels.h"

#include <QTest>

#include <cmath>

using namespace crossroof;
using core::KernelLimit;

namespace {

/// The H100 SXM's levels (its library profile) with a 50 MiB L2 over 132 SMs, 388 KiB each.
core::XModelParams h100()
{
    core::XModelParams p;
    p.sm_count = 132;
    p.S_s = 228;
    p.S_2 = 388;
    p.L_s = 40.4;
    p.L_2 = 284.8;
    p.L = 763.5;
    p.R = 2072;
    p.R_dram = 2964;
    p.R_l1 = 33454;
    p.R_l2 = 10837;
    return p;
}

} // namespace

class TestFootprintLevels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void latencyStepsAtTheCapacities();
    void bandwidthStepsAtTheCapacities();
    void levelsWithoutAValueAreLeftOut();
};

void TestFootprintLevels::latencyStepsAtTheCapacities()
{
    const auto steps = core::latencyByFootprint(h100());
    QCOMPARE(steps.size(), std::size_t(3));
    // L1: 228 KiB = 233.472 kB; L2: 388 KiB x 132 = 52,445.184 kB.
    QCOMPARE(steps[0].level, KernelLimit::L1);
    QCOMPARE(steps[0].from_kb, 0.0);
    QVERIFY(std::abs(steps[0].to_kb - 233.472) < 1e-9);
    QCOMPARE(steps[1].level, KernelLimit::L2);
    QCOMPARE(steps[1].from_kb, steps[0].to_kb);
    QVERIFY(std::abs(steps[1].to_kb - 52445.184) < 1e-6);
    QCOMPARE(steps[2].level, KernelLimit::DRAM);
    QVERIFY(std::isinf(steps[2].to_kb));
    QCOMPARE(core::valueAtFootprint(steps, 16), 40.4);
    QCOMPARE(core::valueAtFootprint(steps, 233.472), 40.4);
    QCOMPARE(core::valueAtFootprint(steps, 234), 284.8);
    QCOMPARE(core::valueAtFootprint(steps, 40000), 284.8);
    QCOMPARE(core::valueAtFootprint(steps, 60000), 763.5);
}

void TestFootprintLevels::bandwidthStepsAtTheCapacities()
{
    const auto steps = core::bandwidthByFootprint(h100());
    QCOMPARE(steps.size(), std::size_t(3));
    QCOMPARE(core::valueAtFootprint(steps, 100), 33454.0);
    QCOMPARE(core::valueAtFootprint(steps, 1000), 10837.0);
    // Past the L2 the DRAM's byte bandwidth, not the request bandwidth R.
    QCOMPARE(core::valueAtFootprint(steps, 1e6), 2964.0);
}

void TestFootprintLevels::levelsWithoutAValueAreLeftOut()
{
    core::XModelParams p = h100();
    p.S_2 = 0;     // the L2's capacity unknown: no L2 step to place
    p.R_l1 = 0;    // no L1 ceiling: the L1 serves at the next level's
    p.R_dram = 0;  // no DRAM byte ceiling: R bounds it
    const auto latency = core::latencyByFootprint(p);
    QCOMPARE(latency.size(), std::size_t(2));
    QCOMPARE(core::valueAtFootprint(latency, 1000), 763.5);
    const auto bandwidth = core::bandwidthByFootprint(p);
    QCOMPARE(bandwidth.size(), std::size_t(1));
    QCOMPARE(core::valueAtFootprint(bandwidth, 10), 2072.0);
}

QTEST_APPLESS_MAIN(TestFootprintLevels)
#include "tst_footprint_levels.moc"
