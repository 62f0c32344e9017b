// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor_fixtures.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "model_fixtures.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using namespace crossroof::advisor_test;
using core::CacheMode;
using core::TuningOperation;
using core::XModel;
using core::XModelParams;

/// The III-D-2 degradation bound (MODEL.md 1.5): on the paper's machines by a full solve, and on random bistable
/// machines, never exceeded.
class TestDegradationBounds : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void degradationBounds();
    void degradationBoundHoldsOnRandomBistableMachines();
};

void TestDegradationBounds::degradationBounds()
{
    // n is searched up to max(n, max_warps): with n = 160 the loop fixture's tangency near 134 is in reach.
    const auto small = core::degradationBounds(loopFermi());
    QVERIFY(!small.tangency_n.has_value());
    QVERIFY(!small.bistable);
    QCOMPARE(small.max_gbs, 0.0);
    const XModelParams p = with(loopFermi(), "n", 160);
    const auto d = core::degradationBounds(p);
    const XModel m(p);
    QVERIFY(d.bistable);
    // Capped at the paper's M/Z - R_req (III-D-2) where the highest state can reach M/Z.
    QVERIFY(d.max_gbs > 0 && d.max_gbs <= m.toGbs(p.M / p.Z) + 1e-9);
    QVERIFY(d.tangency_n.has_value());
    // Just below the tangency one stable state, just above two (whole n checked with full solves too).
    const core::SupplyShape shape(p);
    QCOMPARE(core::EquilibriumScan(m, shape, *d.tangency_n * (1 - 1e-6)).stableCount(), 1);
    QVERIFY(core::EquilibriumScan(m, shape, *d.tangency_n * (1 + 1e-9)).stableCount() >= 2);
    QCOMPARE(XModel(with(p, "n", std::floor(*d.tangency_n))).solve().stableCount(), 1);
    QVERIFY(XModel(with(p, "n", std::ceil(*d.tangency_n))).solve().stableCount() >= 2);
    QVERIFY(*d.min_drop_gbs > 0);
    QVERIFY(qFuzzyCompare(*d.min_drop_gbs, *d.tangency_high_gbs - *d.tangency_low_gbs));
    // The smallest fall is at most any fall a sweep shows, and never above the bound for infinite warps.
    QVERIFY(*d.min_drop_gbs <= d.max_gbs);
    const XModelParams big = with(p, "n", 148);
    const auto r = XModel(big).solve();
    QCOMPARE(r.stableCount(), 2);
    const double fall = r.equilibria.front().ms_gbs - r.equilibria.back().ms_gbs;
    QVERIFY(*d.min_drop_gbs <= fall);

    // G's corner touches f first in the Fig. 9-B fixture: the new state is born at the same height, so the
    // smallest fall is zero (to rounding).
    const auto corner = core::degradationBounds(test::thrashingFermi());
    QVERIFY(corner.tangency_n.has_value());
    QVERIFY(*corner.min_drop_gbs < 1e-6 * *corner.tangency_high_gbs);

    // Never bistable: no tangency and no bound (the paper's formula would give M/Z - R = 87 GB/s here).
    XModelParams none = thrashing();
    none.cache = CacheMode::None;
    QVERIFY(!core::degradationBounds(none).tangency_n.has_value());
    QVERIFY(!core::degradationBounds(none).bistable);
    QCOMPARE(core::degradationBounds(none).max_gbs, 0.0);

    // The issue's case: GTX 570, L_c = 1, E = 0.02, alpha = 6, beta = 5, Z = 20. The paper's M/Z - R is
    // negative (-6.46 GB/s), yet adding warps up to n = 48 drops the throughput by 19.25 GB/s.
    const XModelParams issue = with(with(with(test::thrashingFermi(), "E", 0.02), "beta", 5), "Z", 20);
    const XModel im(issue);
    QVERIFY(im.toGbs(issue.M / issue.Z - issue.requestRate()) < 0);
    const auto id = core::degradationBounds(issue);
    QVERIFY(id.bistable);
    const auto ir = im.solve();
    QVERIFY(ir.stableCount() >= 2);
    const double issueFall = ir.operatingPoint().ms_gbs - lowState(issue).ms_gbs;
    QVERIFY2(std::abs(issueFall - 19.25) < 0.01, qPrintable(QString::number(issueFall)));
    QVERIFY2(id.max_gbs >= issueFall, qPrintable(QString::number(id.max_gbs)));
}

void TestDegradationBounds::degradationBoundHoldsOnRandomBistableMachines()
{
    // Every fall a machine can take when warps are added: from each stable state at n1 the flow at n2 > n1
    // rests at restFrom(k1) (the state keeps its k, new warps compute). None exceeds the bound, which is never
    // negative, and a machine never bistable has none.
    std::mt19937_64 rng(32);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto logUniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, uniform(0, 1)); };
    int bistable = 0;
    int falls = 0;
    for (int trial = 0; trial < 400 && bistable < 40; ++trial) {
        XModelParams p = test::thrashingFermi();
        p.max_warps = 48;
        p.n = std::round(uniform(4, 48));
        p.Z = logUniform(2, 100);
        p.E = logUniform(0.005, 8);
        p.L_c = uniform(0, 1) < 0.5 ? 1 : logUniform(1, 24);
        p.alpha = uniform(2, 10);
        p.beta = logUniform(0.5, 10);
        p.S_s = logUniform(4, 64);
        p.L_s = logUniform(5, 200);
        p.M = logUniform(0.2, 4);
        p.R = logUniform(50, 500);
        if (uniform(0, 1) < 0.3)
            p.bypass = uniform(0, 0.6);
        const auto d = core::degradationBounds(p);
        QVERIFY(d.max_gbs >= 0 && std::isfinite(d.max_gbs));
        const XModel m(p);
        const core::SupplyShape shape(p);
        const int top = int(std::max(p.n, p.max_warps));
        bool any = false;
        for (int n1 = 1; n1 <= top; ++n1) {
            const core::EquilibriumScan at(m, shape, n1);
            any = any || at.stableCount() >= 2;
            for (const auto &root : at.roots()) {
                if (root.stability != core::Stability::Stable && root.stability != core::Stability::Neutral)
                    continue;
                const double before = m.toGbs(m.msSupply(root.k));
                for (int n2 = n1 + 1; n2 <= top; ++n2) {
                    const double k2 = core::EquilibriumScan(m, shape, n2).restFrom(root.k);
                    const double drop = before - m.toGbs(m.msSupply(k2));
                    if (drop <= 1e-9 * before)
                        continue;
                    if (d.bistable) {
                        ++falls;
                        QVERIFY2(drop <= d.max_gbs * (1 + 1e-9) + 1e-9,
                                 qPrintable(QStringLiteral("trial %1: n %2 -> %3 drops %4 GB/s, bound %5")
                                                    .arg(trial)
                                                    .arg(n1)
                                                    .arg(n2)
                                                    .arg(drop)
                                                    .arg(d.max_gbs)));
                    }
                }
            }
        }
        QCOMPARE(d.bistable, any);
        if (!any)
            QCOMPARE(d.max_gbs, 0.0);
        bistable += any ? 1 : 0;
    }
    QVERIFY2(bistable >= 20 && falls > 0, qPrintable(QStringLiteral("%1 bistable, %2 falls").arg(bistable).arg(falls)));
}

QTEST_APPLESS_MAIN(TestDegradationBounds)
#include "tst_degradation_bounds.moc"
