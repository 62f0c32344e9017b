// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "model_fixtures.h"
#include "xmodel_fixtures.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using core::CacheMode;
using core::Stability;
using core::XModel;
using core::XModelParams;
using xmodel_test::randomParams;

Q_DECLARE_METATYPE(crossroof::core::XModelParams)

namespace {

double throughputScale(const XModel &m)
{
    const auto &p = m.params();
    return std::max(p.requestRate() / std::max(1e-300, 1 - (p.cache == CacheMode::Fixed ? p.h : 0.0)), p.M / p.Z);
}

/// Every number a user could see is finite.
void checkFinite(const core::XGraphResult &r)
{
    QVERIFY(!r.equilibria.empty());
    for (const auto &e : r.equilibria) {
        QVERIFY(std::isfinite(e.k) && std::isfinite(e.x) && std::isfinite(e.ms_gbs) && std::isfinite(e.cs_gops));
        if (e.hit_rate)
            QVERIFY(std::isfinite(*e.hit_rate));
    }
    QVERIFY(std::isfinite(r.landmarks.pi) && std::isfinite(r.landmarks.delta));
    QVERIFY(std::isfinite(r.metrics.dlp_machine));
    if (r.margin_warps)
        QVERIFY(std::isfinite(*r.margin_warps) && *r.margin_warps >= 0);
}

/// Counts sign changes of F on a dense uniform grid: an independent, brute-force root count.
int bruteForceSignChanges(const XModel &m, int samples)
{
    const double n = m.params().n;
    int changes = 0;
    double prev = m.balance(0);
    for (int i = 1; i <= samples; ++i) {
        const double v = m.balance(n * i / samples);
        if ((prev < 0 && v > 0) || (prev > 0 && v < 0))
            ++changes;
        if (v != 0)
            prev = v;
    }
    return changes;
}

/// Integrates dk/dt = -F(k) from a cold start (k = 0) with small explicit steps.
double integrateFromColdStart(const XModel &m)
{
    const double n = m.params().n;
    const double scale = throughputScale(m);
    double k = 0;
    const double dt = 0.002 * n / scale;
    for (int i = 0; i < 400000; ++i) {
        const double step = -m.balance(k) * dt;
        k = std::clamp(k + step, 0.0, n);
        if (std::abs(step) < 1e-12 * n)
            break;
    }
    return k;
}

} // namespace

class TestXModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void curvesFollowTheEquations();
    void constructedCases_data();
    void constructedCases();
    void tangencyIsCritical_data();
    void tangencyIsCritical();
    void nearTangencyIsNotMissed();
    void neutralInterval();
    void randomSweepAgreesWithBruteForce();
    void operatingPointIsSolvesBitForBit();
    void throughputNeverExceedsItsRoof();
    void adaptiveCurvesDrawTheDenseOnes();
    void landmarksAreExtremes();
    void metrics();
    void extremes_data();
    void extremes();
    void invalidParametersAreRejected();
};

void TestXModel::curvesFollowTheEquations()
{
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::None;
    const XModel none(p);
    const double rreq = 147e9 / (128 * 1.464e9 * 15);
    QVERIFY(qFuzzyCompare(none.msSupply(10), 10 / 917.8384));     // below delta: k / L
    QVERIFY(qFuzzyCompare(none.msSupply(100), rreq));             // above: the plateau R_req
    QVERIFY(qFuzzyCompare(none.toGbs(none.msSupply(100)), 147.0)); // in GB/s for the device
    QCOMPARE(none.msSupply(0), 0.0);
    QVERIFY(qFuzzyCompare(none.csDemand(0.5), 0.5 / 12));          // E x / Z below pi
    QVERIFY(qFuzzyCompare(none.csDemand(30), 1.0 / 12));           // M / Z above pi

    p.cache = CacheMode::Fixed;
    p.h = 0.25;
    const XModel fixed(p);
    QVERIFY(qFuzzyCompare(fixed.msSupply(10), 10 / (0.25 * 40 + 0.75 * 917.8384))); // Eq. 1, 2

    const XModel loc(test::thrashingFermi());
    const double miss = std::pow(16 / (2.5 * 10) + 1, 1 - 6.0);
    QVERIFY(qFuzzyCompare(loc.msSupply(10), 10 / (40 + (917.8384 - 40) * miss))); // Eq. 5
    QVERIFY(qFuzzyCompare(loc.hitRate(10), 1 - miss));                              // Eq. 3
}

void TestXModel::constructedCases_data()
{
    QTest::addColumn<XModelParams>("params");
    QTest::addColumn<QString>("stabilities");
    QTest::addColumn<int>("operatingIndex");

    XModelParams p = test::thrashingFermi();
    QTest::newRow("three roots (Fig. 9-B)") << p << "stable,unstable,stable" << 0;
    XModelParams one = p;
    one.cache = CacheMode::None;
    QTest::newRow("one root, no cache") << one << "stable" << 0;
    XModelParams fixed = p;
    fixed.cache = CacheMode::Fixed;
    fixed.h = 0.6;
    QTest::newRow("one root, fixed hit rate") << fixed << "stable" << 0;
    XModelParams lowZ = p;
    lowZ.Z = 4; // demand above the cache peak everywhere: only the thrashing state remains
    QTest::newRow("one root, demand above the peak") << lowZ << "stable" << 0;
}

void TestXModel::constructedCases()
{
    QFETCH(XModelParams, params);
    QFETCH(QString, stabilities);
    QFETCH(int, operatingIndex);
    const XModel m(params);
    const auto r = m.solve();
    checkFinite(r);
    QStringList got;
    for (const auto &e : r.equilibria) {
        got << QString::fromLatin1(core::stabilityName(e.stability).data());
        QVERIFY2(std::abs(m.balance(e.k)) <= 1e-9 * throughputScale(m), "a root is a root");
        QVERIFY(qFuzzyCompare(e.x + e.k, params.n));
    }
    QCOMPARE(got.join(QLatin1Char(',')), stabilities);
    QCOMPARE(int(r.operating_index), operatingIndex);
    QVERIFY(std::abs(integrateFromColdStart(m) - r.operatingPoint().k) < 1e-3 * params.n);
    if (r.equilibria.size() == 3) {
        QVERIFY(r.margin_warps.has_value());
        QVERIFY(qFuzzyCompare(*r.margin_warps, r.equilibria[1].k - r.equilibria[0].k));
        QCOMPARE(r.stableCount(), 2);
        QCOMPARE(r.equilibria[1].bound, core::BoundClass::CacheThrashing);
    } else {
        QVERIFY(!r.margin_warps.has_value());
    }
}

void TestXModel::tangencyIsCritical_data()
{
    QTest::addColumn<bool>("atPeak");
    QTest::newRow("demand touches the cache peak") << true;
    QTest::newRow("demand touches the cache valley") << false;
}

void TestXModel::tangencyIsCritical()
{
    QFETCH(bool, atPeak);
    XModelParams p = test::thrashingFermi();
    const auto lm = XModel(p).landmarks();
    QVERIFY(lm.psi && lm.valley);
    const double touch = atPeak ? *lm.psi : *lm.valley;
    // A flat demand line (x >= pi) at exactly f(touch) is tangent to f there.
    p.Z = p.M / XModel(p).msSupply(touch);
    const XModel m(p);
    const auto r = m.solve();
    checkFinite(r);
    QCOMPARE(r.equilibria.size(), std::size_t(2));
    const auto critical = std::find_if(r.equilibria.begin(), r.equilibria.end(),
                                       [](const auto &e) { return e.stability == Stability::Critical; });
    QVERIFY(critical != r.equilibria.end());
    QVERIFY(std::abs(critical->k - touch) < 1e-4 * p.n);
    const auto other = std::find_if(r.equilibria.begin(), r.equilibria.end(),
                                    [](const auto &e) { return e.stability == Stability::Stable; });
    QVERIFY(other != r.equilibria.end());
}

void TestXModel::nearTangencyIsNotMissed()
{
    // Demand a hair below the peak: two roots 1e-3 warps apart around psi that a coarse grid would skip.
    XModelParams p = test::thrashingFermi();
    const XModel base(p);
    const double psi = *base.landmarks().psi;
    p.Z = p.M / (base.msSupply(psi) * (1 - 1e-7));
    const auto below = XModel(p).solve();
    QCOMPARE(below.equilibria.size(), std::size_t(3));
    QCOMPARE(below.equilibria[0].stability, Stability::Stable);
    QCOMPARE(below.equilibria[1].stability, Stability::Unstable);
    QVERIFY(below.equilibria[1].k - below.equilibria[0].k < 0.05);
    QVERIFY(below.margin_warps && *below.margin_warps < 0.05);

    // A hair above: the high state is gone; only the thrashing state is left.
    p.Z = p.M / (base.msSupply(psi) * (1 + 1e-7));
    const auto above = XModel(p).solve();
    QCOMPARE(above.equilibria.size(), std::size_t(1));
    QVERIFY(above.equilibria[0].k > psi);
}

void TestXModel::neutralInterval()
{
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::None;
    p.n = 100;
    p.Z = p.M / p.requestRate(); // G's plateau M/Z equals f's plateau R_req
    const auto r = XModel(p).solve();
    QCOMPARE(r.equilibria.size(), std::size_t(1));
    const auto &e = r.equilibria.front();
    QCOMPARE(e.stability, Stability::Neutral);
    QVERIFY(std::abs(e.k - p.requestRate() * p.L) < 0.5);     // from delta ...
    QVERIFY(std::abs(e.k_end - (p.n - p.M / p.E)) < 0.5);     // ... to n - pi
    QCOMPARE(e.bound, core::BoundClass::Capacity);
}

void TestXModel::randomSweepAgreesWithBruteForce()
{
    std::mt19937_64 rng(20261121);
    int multiRoot = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const XModelParams p = randomParams(rng);
        const XModel m(p);
        const auto r = m.solve();
        checkFinite(r);
        const double scale = throughputScale(m);
        int crossings = 0;
        for (const auto &e : r.equilibria) {
            QVERIFY2(std::abs(m.balance(e.k)) <= 1e-9 * scale, qPrintable(QStringLiteral("trial %1").arg(trial)));
            const double eps = 1e-6 * std::max(p.n, 1.0);
            if (e.stability == Stability::Stable || e.stability == Stability::Unstable) {
                ++crossings;
                if (e.k - eps > 0 && e.k + eps < p.n) {
                    const double left = m.balance(e.k - eps);
                    const double right = m.balance(e.k + eps);
                    QVERIFY(e.stability == Stability::Stable ? left <= 0 && right >= 0 : left >= 0 && right <= 0);
                }
            }
        }
        // The dense scan can only miss sign changes, never invent them.
        QVERIFY2(bruteForceSignChanges(m, 20000) <= crossings, qPrintable(QStringLiteral("trial %1").arg(trial)));
        QVERIFY(r.operatingPoint().stability != Stability::Unstable);
        if (r.equilibria.size() > 1)
            ++multiRoot;
    }
    QVERIFY2(multiRoot > 0, "the sweep must include multi-root cases to mean anything");
}

void TestXModel::operatingPointIsSolvesBitForBit()
{
    // operatingPoint() bisects the grid where F is monotone (no cache, a fixed hit rate) and must give exactly
    // what solve() gives: kernels and calibrate print it with every digit. Random machines and workloads, with
    // an L2, a byte cap, requests in flight and DRAM bytes as the kernel table sets them, a neutral interval,
    // and locality caches (solve()'s own path).
    std::mt19937_64 rng(35);
    const auto same = [](const core::Equilibrium &a, const core::Equilibrium &b) {
        return a.k == b.k && a.k_end == b.k_end && a.x == b.x && a.stability == b.stability
               && a.ms_gbs == b.ms_gbs && a.dram_gbs == b.dram_gbs && a.cs_gops == b.cs_gops
               && a.hit_rate == b.hit_rate && a.bound == b.bound;
    };
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 3000; ++trial) {
        XModelParams p = randomParams(rng);
        if (trial % 2 == 0) {
            p.L_2 = 50 + 300 * unit(rng);
            p.h_2 = unit(rng);
            p.R_dram = unit(rng) < 0.5 ? 0 : p.R * (0.5 + unit(rng));
            p.m = 1 + 15 * unit(rng);
            p.req_bytes = 32 + 96 * unit(rng);
            p.dram_bytes = p.req_bytes * unit(rng);
        }
        const XModel m(p);
        QVERIFY2(same(m.operatingPoint(), m.solve().operatingPoint()),
                 qPrintable(QStringLiteral("trial %1, cache %2").arg(trial).arg(int(p.cache))));
    }
    XModelParams neutral = test::thrashingFermi();
    neutral.cache = CacheMode::None;
    neutral.n = 100;
    neutral.Z = neutral.M / neutral.requestRate();
    const XModel m(neutral);
    QCOMPARE(m.operatingPoint().stability, Stability::Neutral);
    QVERIFY(same(m.operatingPoint(), m.solve().operatingPoint()));
}

void TestXModel::throughputNeverExceedsItsRoof()
{
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 100; ++trial) {
        const XModelParams p = randomParams(rng);
        const XModel m(p);
        core::XGraphCurves c;
        m.sampleCurves(500, c);
        for (std::size_t i = 0; i < c.k.size(); ++i) {
            const double hit = m.hitRate(c.k[i]);
            // DRAM traffic (misses) never above R; compute never above M.
            QVERIFY(c.f_gbs[i] * (1 - hit) <= p.R * (1 + 1e-9));
            QVERIFY(c.g_gbs[i] * p.Z * p.warp_size / p.request_bytes
                    <= m.toGops(p.M) * (1 + 1e-9));
            if (p.cache == CacheMode::None)
                QVERIFY(c.f_gbs[i] <= p.R * (1 + 1e-9));
        }
        for (const auto &e : m.solve().equilibria)
            QVERIFY(e.cs_gops <= m.toGops(p.M) * (1 + 1e-9));
    }
}

void TestXModel::adaptiveCurvesDrawTheDenseOnes()
{
    // Drawn through their samples, the adaptively sampled curves pass within the tolerance (of f's height) of
    // the curves sampled 20,000 times evenly, keep the kinks as samples, mark the same stretches unstable, and
    // take far fewer samples than the even 2,000 they replace on screen.
    std::mt19937_64 rng(11);
    constexpr double kTolerance = 2e-5;
    std::size_t most = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const XModelParams p = trial == 0 ? test::thrashingFermi() : randomParams(rng);
        const XModel m(p);
        core::XGraphCurves a, dense;
        m.sampleCurvesAdaptive(kTolerance, a);
        m.sampleCurves(20000, dense);
        QVERIFY(std::is_sorted(a.k.begin(), a.k.end()));
        QCOMPARE(a.k.front(), 0.0);
        QCOMPARE(a.k.back(), p.n);
        QCOMPARE(a.f_falling_faster.size(), a.k.size());
        most = std::max(most, a.k.size());
        const double height = *std::max_element(dense.f_gbs.begin(), dense.f_gbs.end());
        const double allowed = 2 * kTolerance * std::max(height, 1e-300) + 1e-12 * height;
        std::size_t j = 0; // the adaptive stretch [a.k[j], a.k[j + 1]] holding dense.k[i]
        for (std::size_t i = 0; i < dense.k.size(); ++i) {
            const double k = dense.k[i];
            while (j + 2 < a.k.size() && a.k[j + 1] < k)
                ++j;
            const double t = (k - a.k[j]) / (a.k[j + 1] - a.k[j]);
            const double f = a.f_gbs[j] + t * (a.f_gbs[j + 1] - a.f_gbs[j]);
            const double g = a.g_gbs[j] + t * (a.g_gbs[j + 1] - a.g_gbs[j]);
            QVERIFY2(std::abs(f - dense.f_gbs[i]) <= allowed,
                     qPrintable(QStringLiteral("trial %1: f at k = %2 is %3, drawn %4").arg(trial).arg(k)
                                        .arg(dense.f_gbs[i]).arg(f)));
            // G falls off the top of the plot where it exceeds f's height; there only its shape matters.
            if (dense.g_gbs[i] <= height)
                QVERIFY2(std::abs(g - dense.g_gbs[i]) <= allowed,
                         qPrintable(QStringLiteral("trial %1: G at k = %2").arg(trial).arg(k)));
            // Where F falls clearly inside a stretch, that stretch is marked falling (drawn dashed).
            if (i + 1 < dense.k.size() && dense.f_falling_faster[i] && k > a.k[j] && dense.k[i + 1] < a.k[j + 1]) {
                const double drop = (dense.f_gbs[i + 1] - dense.g_gbs[i + 1]) - (dense.f_gbs[i] - dense.g_gbs[i]);
                if (drop < -1e-6 * height)
                    QVERIFY2(a.f_falling_faster[j], qPrintable(QStringLiteral("trial %1 at k = %2").arg(trial).arg(k)));
            }
        }
        const auto lm = m.landmarks();
        for (double kink : {lm.delta, p.n - lm.pi, lm.psi.value_or(-1), lm.valley.value_or(-1)}) {
            if (kink <= 0 || kink >= p.n)
                continue;
            // Kinks closer than 1e-12 n (a peak at delta) are one sample.
            const auto at = std::lower_bound(a.k.begin(), a.k.end(), kink - 1e-12 * p.n);
            QVERIFY2(at != a.k.end() && *at <= kink + 1e-12 * p.n,
                     qPrintable(QStringLiteral("trial %1: kink %2 is not a sample").arg(trial).arg(kink)));
        }
        // Given the landmarks solve() found (as the GUI does), the samples are the very same.
        core::XGraphCurves solved;
        m.sampleCurvesAdaptive(kTolerance, solved, m.solve().landmarks);
        QVERIFY2(solved.k == a.k && solved.f_gbs == a.f_gbs && solved.g_gbs == a.g_gbs
                         && solved.f_falling_faster == a.f_falling_faster,
                 qPrintable(QStringLiteral("trial %1").arg(trial)));
    }
    QVERIFY2(most <= 1000, qPrintable(QString::number(most)));
}

void TestXModel::landmarksAreExtremes()
{
    const XModel m(test::thrashingFermi());
    const auto lm = m.landmarks();
    QVERIFY(lm.psi && lm.valley);
    QVERIFY(*lm.psi < *lm.valley);
    QVERIFY(*lm.psi < lm.delta);
    for (double d : {1e-3, 1e-2, 0.5}) {
        QVERIFY(m.msSupply(*lm.psi) >= m.msSupply(*lm.psi - d));
        QVERIFY(m.msSupply(*lm.psi) >= m.msSupply(*lm.psi + d));
        QVERIFY(m.msSupply(*lm.valley) <= m.msSupply(*lm.valley - d));
        QVERIFY(m.msSupply(*lm.valley) <= m.msSupply(*lm.valley + d));
    }
    QVERIFY(qFuzzyCompare(*lm.psi_gbs, m.toGbs(m.msSupply(*lm.psi))));
    QCOMPARE(lm.plateau_gbs, 147.0);
    QVERIFY(qFuzzyCompare(lm.pi, 1.0));
    QVERIFY(std::abs(lm.delta - 48) < 1e-3); // Table II: GTX 570 SP saturates at 48 warps

    XModelParams none = test::thrashingFermi();
    none.cache = CacheMode::None;
    QVERIFY(!XModel(none).landmarks().psi); // no cache, no peak
}

void TestXModel::metrics()
{
    XModelParams p = test::thrashingFermi();
    p.Z = 10;
    p.E = 2;
    const XModel m(p);
    const auto mt = m.metrics();
    const double rreq = p.requestRate();
    QVERIFY(qFuzzyCompare(mt.mlp, rreq * p.L));
    QVERIFY(qFuzzyCompare(mt.dlp_machine, p.M / rreq));
    QVERIFY(mt.tlp_machine && qFuzzyCompare(*mt.tlp_machine, rreq * p.L + p.Z * rreq / p.E));
    QCOMPARE(mt.ilp, 2.0);
    p.Z = 1000; // Z*R_req > M: the CS saturates first, no balance point
    QVERIFY(!XModel(p).metrics().tlp_machine);
}

void TestXModel::extremes_data()
{
    QTest::addColumn<XModelParams>("params");
    const XModelParams base = test::thrashingFermi();
    auto row = [&](const char *name, auto change) {
        for (CacheMode mode : {CacheMode::None, CacheMode::Fixed, CacheMode::Locality}) {
            XModelParams p = base;
            p.cache = mode;
            p.h = 0.5;
            change(p);
            QTest::newRow(qPrintable(QStringLiteral("%1 / %2").arg(QLatin1String(name),
                                                                   QLatin1String(core::cacheModeName(mode).data()))))
                << p;
        }
    };
    row("n = 1", [](XModelParams &p) { p.n = 1; });
    row("n = 100000", [](XModelParams &p) { p.n = 100000; });
    row("Z huge", [](XModelParams &p) { p.Z = 1e7; });
    row("Z tiny", [](XModelParams &p) { p.Z = 1e-4; });
    row("h = 0", [](XModelParams &p) { p.h = 0; });
    row("h = 1", [](XModelParams &p) { p.h = 1; });
    row("alpha near 1", [](XModelParams &p) { p.alpha = 1.000001; });
    row("alpha = 1", [](XModelParams &p) { p.alpha = 1; });
    row("alpha = 100", [](XModelParams &p) { p.alpha = 100; });
    row("S_s = 0", [](XModelParams &p) { p.S_s = 0; });
    row("beta tiny", [](XModelParams &p) { p.beta = 1e-6; });
    row("E tiny, M huge", [](XModelParams &p) { p.E = 1e-3; p.M = 1e4; });
    row("R tiny, L huge", [](XModelParams &p) { p.R = 1e-3; p.L = 1e6; });
    row("R huge, L = 1", [](XModelParams &p) { p.R = 1e6; p.L = 1; });
    row("L_s tiny", [](XModelParams &p) { p.L_s = 0.01; });
}

void TestXModel::extremes()
{
    QFETCH(XModelParams, params);
    const XModel m(params);
    const auto r = m.solve();
    checkFinite(r);
    for (const auto &e : r.equilibria)
        QVERIFY(std::abs(m.balance(e.k)) <= 1e-9 * throughputScale(m));
    QVERIFY(r.operatingPoint().stability != Stability::Unstable);
    core::XGraphCurves c;
    m.sampleCurves(2000, c);
    for (std::size_t i = 0; i < c.k.size(); ++i)
        QVERIFY(std::isfinite(c.f_gbs[i]) && std::isfinite(c.g_gbs[i]));
}

void TestXModel::invalidParametersAreRejected()
{
    XModelParams p = test::thrashingFermi();
    p.L = -5;
    try {
        XModel m(p);
        QFAIL("a negative latency must be rejected");
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("'L'")));
    }
    p = test::thrashingFermi();
    p.Z = std::nan("");
    QVERIFY_THROWS_EXCEPTION(core::InputError, XModel{p});
    p = test::thrashingFermi();
    p.alpha = 0.5;
    QVERIFY_THROWS_EXCEPTION(core::InputError, XModel{p});
}

QTEST_APPLESS_MAIN(TestXModel)
#include "tst_xmodel.moc"
