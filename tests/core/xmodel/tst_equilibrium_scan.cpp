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

double uniform(std::mt19937_64 &rng, double lo, double hi)
{
    return std::uniform_real_distribution<double>(lo, hi)(rng);
}

double logUniform(std::mt19937_64 &rng, double lo, double hi)
{
    return lo * std::pow(hi / lo, uniform(rng, 0, 1));
}

/// The real-kernel keys, each in a share of the cases: requests in flight, the request and DRAM bytes, a byte
/// cap anywhere from far above to far below R, a second cache level.
void addRealKernelKeys(std::mt19937_64 &rng, XModelParams &p)
{
    if (uniform(rng, 0, 1) < 0.4)
        p.m = logUniform(rng, 1, 16);
    if (uniform(rng, 0, 1) < 0.3)
        p.req_bytes = logUniform(rng, 32, 1024);
    if (uniform(rng, 0, 1) < 0.4)
        p.R_dram = p.R * logUniform(rng, 0.2, 5);
    if (uniform(rng, 0, 1) < 0.2)
        p.dram_bytes = logUniform(rng, 1, 512);
    if (uniform(rng, 0, 1) < 0.3) {
        p.L_2 = logUniform(rng, p.L_s, p.L);
        p.h_2 = uniform(rng, 0, 1);
    }
}

/// Parameters as tst_xmodel draws them: every cache mode, realistic ranges.
XModelParams randomParams(std::mt19937_64 &rng)
{
    XModelParams p = test::thrashingFermi();
    p.n = std::round(logUniform(rng, 1, 256));
    p.Z = logUniform(rng, 0.05, 2000);
    p.E = logUniform(rng, 0.2, 8);
    p.R = logUniform(rng, 20, 4000);
    p.L = logUniform(rng, 50, 2000);
    p.M = logUniform(rng, 0.1, 16);
    p.S_s = logUniform(rng, 1, 512);
    p.L_s = logUniform(rng, 5, 200);
    p.alpha = uniform(rng, 1, 8);
    p.beta = logUniform(rng, 0.01, 50);
    p.h = uniform(rng, 0, 1);
    p.cache = CacheMode(std::uniform_int_distribution<int>(0, 2)(rng));
    if (uniform(rng, 0, 1) < 0.5)
        p.bypass = uniform(rng, 0, 0.95);
    addRealKernelKeys(rng, p);
    return p;
}

/// Around the bistable fixture: about one case in ten has two or three stable states.
XModelParams bistableNeighbourhood(std::mt19937_64 &rng)
{
    XModelParams p = test::thrashingFermi();
    p.n = std::round(logUniform(rng, 4, 200));
    p.Z = logUniform(rng, 2, 100);
    p.E = logUniform(rng, 0.1, 8);
    p.alpha = uniform(rng, 2, 10);
    p.beta = logUniform(rng, 0.5, 10);
    p.S_s = logUniform(rng, 4, 64);
    p.L_s = logUniform(rng, 5, 200);
    p.M = logUniform(rng, 0.2, 4);
    p.R = logUniform(rng, 50, 500);
    if (uniform(rng, 0, 1) < 0.3)
        p.bypass = uniform(rng, 0, 0.6);
    addRealKernelKeys(rng, p);
    return p;
}

/// Every key over its whole valid range, locality mode.
XModelParams extremeParams(std::mt19937_64 &rng)
{
    XModelParams p = test::thrashingFermi();
    p.n = std::round(logUniform(rng, 1, 1e5));
    p.Z = logUniform(rng, 1e-4, 1e7);
    p.E = logUniform(rng, 1e-3, 1e3);
    p.R = logUniform(rng, 1e-3, 1e6);
    p.L = logUniform(rng, 1, 1e6);
    p.M = logUniform(rng, 1e-3, 1e4);
    p.S_s = logUniform(rng, 1e-3, 1e6);
    p.L_s = logUniform(rng, 0.01, 1e5);
    p.alpha = 1 + logUniform(rng, 1e-4, 99);
    p.beta = logUniform(rng, 1e-6, 1e6);
    p.clock_ghz = logUniform(rng, 0.1, 5);
    p.sm_count = std::round(logUniform(rng, 1, 200));
    return p;
}

/// A random machine with two cache levels (MODEL.md 1.3): sizes, latencies and sharpness over wide ranges,
/// the workload anywhere from compute- to memory-bound.
XModelParams randomTwoLevel(std::mt19937_64 &rng)
{
    XModelParams p = randomParams(rng);
    p.cache = CacheMode::TwoLevel;
    p.S_s = logUniform(rng, 1, 512);
    p.S_2 = uniform(rng, 0, 1) < 0.1 ? 0 : p.S_s * logUniform(rng, 0.5, 50);
    p.L_s = logUniform(rng, 5, 200);
    p.L_2 = p.L_s * logUniform(rng, 1, 20);
    p.alpha = logUniform(rng, 1, 60);
    p.alpha_2 = logUniform(rng, 1, 60);
    p.beta = logUniform(rng, 0.5, 64);
    p.n = std::round(logUniform(rng, 1, 256));
    if (uniform(rng, 0, 1) < 0.3)
        p.R_dram = p.R * logUniform(rng, 0.5, 4);
    if (uniform(rng, 0, 1) < 0.3)
        p.m = logUniform(rng, 1, 8);
    return p;
}

int scanCount(const XModelParams &p)
{
    const XModel m(p);
    const SupplyShape shape(p);
    return EquilibriumScan(m, shape).stableCount();
}

struct Agreement
{
    int cases = 0;
    int multiStable = 0;
    int skipped = 0;
};

/// The scan and XModel::solve() agree: same equilibria with the same stabilities, same operating point.
/// A disagreement is accepted (and counted) only where a root lies below 1e-5 n warps: solve()'s grid starts
/// at n*1e-6 and can miss structure that small, which the scan resolves; a fraction of a warp no machine
/// shows.
void checkAgreement(const XModelParams &p, Agreement &a, const char *what, int trial)
{
    const XModel m(p);
    const SupplyShape shape(p);
    const EquilibriumScan scan(m, shape);
    const auto r = m.solve();
    const auto roots = scan.roots();
    const double n = p.n;
    const QString where = QStringLiteral("%1 trial %2").arg(QLatin1String(what)).arg(trial);
    ++a.cases;
    if (r.stableCount() > 1)
        ++a.multiStable;
    bool same = roots.size() == r.equilibria.size();
    for (std::size_t i = 0; same && i < roots.size(); ++i) {
        same = roots[i].stability == r.equilibria[i].stability
               && std::abs(roots[i].k - r.equilibria[i].k) <= 1e-9 * std::max(n, 1.0);
    }
    if (!same) {
        const bool tiny
                = std::any_of(roots.begin(), roots.end(), [n](const auto &e) { return e.k < 1e-5 * n; })
                  || std::any_of(r.equilibria.begin(), r.equilibria.end(),
                                 [n](const auto &e) { return e.k < 1e-5 * n; });
        QVERIFY2(tiny, qPrintable(where));
        ++a.skipped;
        return;
    }
    QVERIFY2(scan.stableCount() == r.stableCount(), qPrintable(where));
    // Both roots are refined to about 1e-14 n warps; relative to a root near k = 0 that is more than 1e-9.
    const double gbs = r.operatingPoint().ms_gbs;
    const bool sameK = std::abs(scan.operatingK() - r.operatingPoint().k) <= 1e-12 * std::max(n, 1.0);
    QVERIFY2(sameK || std::abs(scan.operatingGbs() - gbs) <= 1e-9 * gbs, qPrintable(where));
}

} // namespace

/// EquilibriumScan and SupplyShape, which the stability map counts with: the supply's shape and slope as sampled,
/// the scan's stable states as solve() finds them, on random, bistable, extreme and two-level machines.
class TestEquilibriumScan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void supplyShapeMatchesSampledSupply();
    void slopeMatchesFiniteDifferences();
    void scanAgreesWithSolveOnRandomCells();
    void scanAgreesAwayFromTangencies();
    void twoLevelShapeMatchesSampledSupply();
    void twoLevelScanAgreesWithSolve();
    void constructedBistableCases();
};

void TestEquilibriumScan::supplyShapeMatchesSampledSupply()
{
    // Outside the falling stretches f never falls; inside it never rises; and on each stretch f' has one
    // minimum (f bends once), which the scan relies on.
    std::mt19937_64 rng(11);
    int stretches = 0;
    for (int trial = 0; trial < 300; ++trial) {
        XModelParams p = trial % 2 ? bistableNeighbourhood(rng) : randomParams(rng);
        p.cache = CacheMode::Locality;
        const XModel m(p);
        const SupplyShape shape(p);
        const auto falls = shape.falling();
        const double delta = m.landmarks().delta;
        const double top = std::max({4 * delta, 4 * p.S_s / p.beta, 300.0});
        constexpr int kSamples = 3000;
        auto falling = [&](double a, double b) {
            for (const auto &f : falls) {
                if (a >= f.lo && b <= f.hi)
                    return 1;
                if (b > f.lo && a < f.hi)
                    return 0; // straddles an end
            }
            return -1;
        };
        double prevK = top * 1e-4;
        double prevF = m.msSupply(prevK);
        for (int i = 1; i <= kSamples; ++i) {
            const double k = top * 1e-4 * std::pow(1e4, double(i) / kSamples);
            const double fk = m.msSupply(k);
            const int where = falling(prevK, k);
            const double noise = 1e-12 * std::max(fk, prevF);
            if (where < 0)
                QVERIFY2(fk >= prevF - noise,
                         qPrintable(QStringLiteral("rises, trial %1 k %2").arg(trial).arg(k)));
            else if (where > 0)
                QVERIFY2(fk <= prevF + noise,
                         qPrintable(QStringLiteral("falls, trial %1 k %2").arg(trial).arg(k)));
            prevK = k;
            prevF = fk;
        }
        for (std::size_t s = 0; s < falls.size(); ++s) {
            ++stretches;
            const auto &f = falls[s];
            const double hi = std::isinf(f.hi) ? std::min(1e6, std::max(100 * f.lo, 1e3)) : f.hi;
            // f' falls to its minimum at steepest(s) and rises after it.
            const double ks = shape.steepest(s);
            QVERIFY(ks >= f.lo * (1 - 1e-9) && ks <= hi * (1 + 1e-9));
            const double minSlope = shape.slope(ks, f.above_delta);
            double prev = shape.slope(f.lo, f.above_delta);
            constexpr int kSteps = 400;
            for (int i = 1; i <= kSteps; ++i) {
                const double k = f.lo * std::pow(hi / f.lo, double(i) / kSteps);
                const double d = shape.slope(k, f.above_delta);
                QVERIFY2(d <= 1e-9 * std::abs(minSlope),
                         qPrintable(QStringLiteral("f' > 0, trial %1").arg(trial)));
                QVERIFY(d >= minSlope - 1e-9 * std::abs(minSlope));
                const double tol = 1e-9 * std::abs(minSlope);
                if (k < ks * (1 - 1e-5))
                    QVERIFY2(d <= prev + tol, qPrintable(QStringLiteral("f' falls, trial %1").arg(trial)));
                else if (k > ks * (1 + 1e-5) && k / std::pow(hi / f.lo, 1.0 / kSteps) > ks * (1 + 1e-5))
                    QVERIFY2(d >= prev - tol, qPrintable(QStringLiteral("f' rises, trial %1").arg(trial)));
                prev = d;
            }
        }
    }
    QVERIFY(stretches > 100);
}

void TestEquilibriumScan::slopeMatchesFiniteDifferences()
{
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 200; ++trial) {
        XModelParams p = bistableNeighbourhood(rng);
        const XModel m(p);
        const SupplyShape shape(p);
        const double delta = m.landmarks().delta;
        for (const auto &f : shape.falling()) {
            const double hi = std::isinf(f.hi) ? 10 * f.lo : f.hi;
            for (double t : {0.1, 0.37, 0.62, 0.9}) {
                const double k = f.lo + t * (hi - f.lo);
                if (std::abs(k - delta) < 1e-3 * delta)
                    continue;
                const double h = 1e-6 * k;
                const double fd = (m.msSupply(k + h) - m.msSupply(k - h)) / (2 * h);
                const double an = shape.slope(k, f.above_delta);
                QVERIFY2(
                        std::abs(fd - an) <= 1e-6 * std::abs(m.msSupply(k) / k) + 1e-6 * std::abs(an),
                        qPrintable(
                                QStringLiteral("trial %1 k %2: %3 vs %4").arg(trial).arg(k).arg(fd).arg(an)));
            }
        }
    }
}

void TestEquilibriumScan::scanAgreesWithSolveOnRandomCells()
{
    std::mt19937_64 rng(20260301);
    Agreement realistic;
    for (int trial = 0; trial < 3000; ++trial)
        checkAgreement(randomParams(rng), realistic, "realistic", trial);
    Agreement bistable;
    for (int trial = 0; trial < 3000; ++trial)
        checkAgreement(bistableNeighbourhood(rng), bistable, "bistable neighbourhood", trial);
    Agreement extreme;
    for (int trial = 0; trial < 2000; ++trial)
        checkAgreement(extremeParams(rng), extreme, "whole ranges", trial);
    QCOMPARE(realistic.skipped, 0);
    QCOMPARE(bistable.skipped, 0);
    QVERIFY(bistable.multiStable > 200);
    QVERIFY(extreme.skipped < extreme.cases / 100);
    qInfo("agreement: %d realistic (%d multi-stable), %d near the bistable fixture (%d multi-stable), %d "
          "over the "
          "whole ranges (%d multi-stable; %d differ, all with roots below 1e-5 n)",
          realistic.cases, realistic.multiStable, bistable.cases, bistable.multiStable, extreme.cases,
          extreme.multiStable, extreme.skipped);
}

void TestEquilibriumScan::scanAgreesAwayFromTangencies()
{
    // Find each tangency in Z by bisection (where the count changes), then step away from it: the scan and
    // solve() agree at every relative distance >= 1e-6. (Measured: they agree from 1e-7 on; at 1e-9 and
    // closer the two resolve a touching pair differently, within their shared zero tolerance.)
    std::mt19937_64 rng(3);
    int tangencies = 0;
    for (int trial = 0; trial < 60; ++trial) {
        XModelParams p = bistableNeighbourhood(rng);
        auto countAtZ = [&](double Z) {
            XModelParams q = p;
            q.Z = Z;
            return scanCount(q);
        };
        double zPrev = 1;
        int cPrev = countAtZ(zPrev);
        for (int i = 1; i <= 200; ++i) {
            const double Z = std::pow(1000.0, i / 200.0);
            const int c = countAtZ(Z);
            if (c != cPrev) {
                double lo = zPrev;
                double hi = Z;
                for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
                    const double mid = 0.5 * (lo + hi);
                    (countAtZ(mid) == cPrev ? lo : hi) = mid;
                }
                ++tangencies;
                for (double eps : {1e-3, 1e-5, 1e-6}) {
                    for (double side : {-1.0, 1.0}) {
                        XModelParams q = p;
                        q.Z = 0.5 * (lo + hi) * (1 + side * eps);
                        QVERIFY2(
                                scanCount(q) == XModel(q).solve().stableCount(),
                                qPrintable(
                                        QStringLiteral("trial %1 Z %2 eps %3").arg(trial).arg(q.Z).arg(eps)));
                    }
                }
            }
            zPrev = Z;
            cPrev = c;
        }
    }
    QVERIFY(tangencies > 20);
}

void TestEquilibriumScan::twoLevelShapeMatchesSampledSupply()
{
    // The numeric stretches of two-level mode: outside them f never falls, inside it never rises, and the
    // first one starts at the landmark psi.
    std::mt19937_64 rng(31);
    int stretches = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const XModelParams p = randomTwoLevel(rng);
        const XModel m(p);
        const SupplyShape shape(p);
        const auto falls = shape.falling();
        stretches += int(falls.size());
        const double top
                = std::max({4 * p.requestRate() * p.L, 4 * p.S_2 / p.beta, 4 * p.S_s / p.beta, 300.0});
        constexpr int kSamples = 4000;
        double prevK = top * 1e-5;
        double prevF = m.msSupply(prevK);
        for (int i = 1; i <= kSamples; ++i) {
            const double k = top * 1e-5 * std::pow(1e5, double(i) / kSamples);
            const double fk = m.msSupply(k);
            const double noise = 1e-9 * std::max(fk, prevF);
            bool inside = false;
            bool straddles = false;
            for (const auto &f : falls) {
                inside = inside || (prevK >= f.lo && k <= f.hi);
                straddles = straddles || (k > f.lo && prevK < f.hi && !(prevK >= f.lo && k <= f.hi));
            }
            if (!inside && !straddles)
                QVERIFY2(fk >= prevF - noise,
                         qPrintable(QStringLiteral("falls outside, trial %1 k %2").arg(trial).arg(k)));
            if (inside)
                QVERIFY2(fk <= prevF + noise,
                         qPrintable(QStringLiteral("rises inside, trial %1 k %2").arg(trial).arg(k)));
            prevK = k;
            prevF = fk;
        }
        const auto lm = m.landmarks();
        QCOMPARE(bool(lm.psi), !falls.empty());
        if (lm.psi)
            QCOMPARE(*lm.psi, falls[0].lo);
    }
    QVERIFY(stretches > 200);
}

void TestEquilibriumScan::twoLevelScanAgreesWithSolve()
{
    // EquilibriumScan on the numeric stretches against XModel::solve() on its grid, on random two-level
    // machines, many of them bistable.
    std::mt19937_64 rng(20261125);
    Agreement agreement;
    for (int trial = 0; trial < 2000; ++trial)
        checkAgreement(randomTwoLevel(rng), agreement, "two-level", trial);
    QCOMPARE(agreement.skipped, 0);
    QVERIFY(agreement.multiStable > 20);
    qInfo("two-level agreement: %d cases, %d multi-stable", agreement.cases, agreement.multiStable);
}

void TestEquilibriumScan::constructedBistableCases()
{
    XModelParams p = test::thrashingFermi();
    QCOMPARE(scanCount(p), 2); // Fig. 9-B: stable, unstable, stable
    QCOMPARE(XModel(p).solve().stableCount(), 2);
    const XModel m(p);
    const SupplyShape shape(p);
    const EquilibriumScan scan(m, shape);
    const auto roots = scan.roots();
    QCOMPARE(roots.size(), std::size_t(3));
    QCOMPARE(roots[0].stability, Stability::Stable);
    QCOMPARE(roots[1].stability, Stability::Unstable);
    QCOMPARE(roots[2].stability, Stability::Stable);
    const auto r = m.solve();
    QVERIFY(std::abs(scan.operatingK() - r.operatingPoint().k) < 1e-9);
    QVERIFY(qFuzzyCompare(scan.operatingGbs(), r.operatingPoint().ms_gbs));

    XModelParams lowZ = p;
    lowZ.Z = 4; // demand above the cache peak: the thrashing state only
    QCOMPARE(scanCount(lowZ), 1);
    XModelParams none = p;
    none.cache = CacheMode::None;
    QCOMPARE(scanCount(none), 1);
    XModelParams fixed = p;
    fixed.cache = CacheMode::Fixed;
    fixed.h = 0.6;
    QCOMPARE(scanCount(fixed), 1);

    // A neutral interval counts as one stable state, as in solve().
    XModelParams flat = none;
    flat.n = 100;
    flat.Z = flat.M / flat.requestRate();
    const XModel fm(flat);
    const SupplyShape fs(flat);
    const auto neutral = EquilibriumScan(fm, fs).roots();
    QCOMPARE(neutral.size(), std::size_t(1));
    QCOMPARE(neutral[0].stability, Stability::Neutral);
    QCOMPARE(scanCount(flat), 1);

    // Near the cache peak: a demand a hair below it gives two roots 1e-3 warps apart, a hair above none.
    const double psi = *XModel(p).landmarks().psi;
    XModelParams below = p;
    below.Z = p.M / (XModel(p).msSupply(psi) * (1 - 1e-7));
    QCOMPARE(scanCount(below), 2);
    XModelParams above = p;
    above.Z = p.M / (XModel(p).msSupply(psi) * (1 + 1e-7));
    QCOMPARE(scanCount(above), 1);
}

QTEST_APPLESS_MAIN(TestEquilibriumScan)
#include "tst_equilibrium_scan.moc"
