// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/measured_curve.h"
#include "model_fixtures.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>

using namespace crossroof;
using core::CacheMode;
using core::XModel;
using core::XModelParams;

namespace {

/// The Fermi fixture with a shallow demand slope (E small) and M/Z above the cache peak: as n rises the high
/// state on the rising part of f ends at a tangency near the peak, after the thrashing state has appeared,
/// so the bistable ranges of n are bounded and the sweeps form loops (n 135..148 and 187..189).
XModelParams loopFermi()
{
    XModelParams p = test::thrashingFermi();
    p.E = 0.006;
    p.Z = 9;
    return p;
}

std::vector<double> range(double lo, double hi, double step)
{
    return core::sweepValues("n", lo, hi, step);
}

XModelParams with(XModelParams p, const std::string &key, double v)
{
    p.*(core::findParameter(key)->member) = v;
    return p;
}

bool differs(const core::HysteresisResult &h, std::size_t i)
{
    return std::abs(h.up_gbs[i] - h.down_gbs[i]) > 1e-9 * h.up_gbs[i];
}

/// Integrates dk/dt = -F(k) from k0 with small explicit steps until it comes to rest.
double integrate(const XModelParams &p, double k0)
{
    const XModel m(p);
    const double n = p.n;
    const double scale = std::max(p.requestRate() * 2, p.M / p.Z);
    const double dt = 0.002 * n / scale;
    double k = std::clamp(k0, 0.0, n);
    for (int i = 0; i < 2000000; ++i) {
        const double step = -m.balance(k) * dt;
        k = std::clamp(k + step, 0.0, n);
        if (std::abs(step) < 1e-13 * n)
            break;
    }
    return k;
}

/// The H100 sample (docs/samples/h100-thrashing.crossroof): the H100 SXM profile at Z = 20 with the measured
/// 16 KiB-per-warp thrashing curve as f(k) (tests/data/h100_sxm/cache.csv, request_gbs against warps_per_sm;
/// CC0-1.0, see tests/data/README.md).
XModelParams h100Thrashing()
{
    XModelParams p;
    p.sm_count = 132;
    p.clock_ghz = 1.98;
    p.warp_size = 32;
    p.max_warps = 64;
    p.request_bytes = 128;
    p.R = 2072;
    p.L = 759.8;
    p.M = 2.956;
    p.L_c = 3.798;
    p.S_s = 228;
    p.L_s = 40.4;
    p.R_dram = 2964;
    p.L_2 = 265.3;
    p.n = 64;
    p.Z = 20;
    p.E = 1;
    const std::vector<double> gbs{720.31,  1433.43, 1998.84, 2660.88, 3230.45, 2164.42, 1353.27, 1475.02,
                                  1646.34, 1780.58, 1919.48, 1996.47, 1933.92, 1164.26, 1231.64, 1303.5,
                                  1377.61, 1448.91, 1517.52, 1589.09, 1659.44, 1725.38, 1790.67, 1854.62,
                                  1915.96, 1980.24, 2036.22, 2091.83, 2147.48, 2195.24, 2241.24, 2291.05};
    std::vector<core::CurvePoint> pts;
    for (std::size_t i = 0; i < gbs.size(); ++i)
        pts.push_back({2.0 * double(i + 1), gbs[i]});
    p.measured_f = std::make_shared<const core::MeasuredCurve>(pts, "cache.csv");
    return p;
}

} // namespace

class TestHysteresis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void branchesDifferExactlyOnBistableRange();
    void jumpsAtTheEndsOfTheRange();
    void measuredCurveJumpsOnlyAtItsBistableRange();
    void restEqualsIntegration();
    void statesAreRestingEquilibria();
    void nKeepsKClamped();
    void otherParameter();
    void coldStart();
    void sweepValues();
    void badInput();
};

void TestHysteresis::branchesDifferExactlyOnBistableRange()
{
    // Three loop fixtures, each sweep starting and ending outside every bistable range.
    const std::vector<std::pair<XModelParams, double>> cases {
            {loopFermi(), 256}, {with(loopFermi(), "E", 0.004), 240}, {with(loopFermi(), "Z", 10), 256}};
    for (const auto &[p, top] : cases) {
        const auto values = range(1, top, 1);
        const auto h = core::sweepHysteresis(p, "n", values);
        QCOMPARE(h.stable_count.back(), 1);
        QCOMPARE(h.values, values);
        int bistable = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const int count = XModel(with(p, "n", values[i])).solve().stableCount();
            QCOMPARE(h.stable_count[i], count);
            QVERIFY2(differs(h, i) == (count >= 2), qPrintable(QStringLiteral("n = %1").arg(values[i])));
            bistable += count >= 2;
        }
        QVERIFY(bistable > 0);
    }
}

void TestHysteresis::jumpsAtTheEndsOfTheRange()
{
    const auto h = core::sweepHysteresis(loopFermi(), "n", range(120, 160, 1));
    // One bistable range, 135..148: the up sweep falls off the high branch after it, the down sweep climbs
    // off the low branch before it.
    QCOMPARE(h.jumps.size(), std::size_t(2));
    std::size_t first = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < h.values.size(); ++i) {
        if (h.stable_count[i] >= 2) {
            first = first ? first : i;
            last = i;
        }
    }
    const auto &up = h.jumps[0];
    QVERIFY(up.rising);
    QCOMPARE(up.index, last + 1);
    QCOMPARE(up.from_value, h.values[last]);
    QCOMPARE(up.from_gbs, h.up_gbs[last]);
    QCOMPARE(up.to_gbs, h.up_gbs[last + 1]);
    QVERIFY(up.to_gbs < up.from_gbs); // from the high state to the thrashing state
    QVERIFY(up.to_k > up.from_k);
    const auto &down = h.jumps[1];
    QVERIFY(!down.rising);
    QCOMPARE(down.index, first - 1);
    QCOMPARE(down.from_gbs, h.down_gbs[first]);
    QCOMPARE(down.to_gbs, h.down_gbs[first - 1]);
    QVERIFY(down.to_gbs > down.from_gbs);
    // Away from the jumps each sweep follows one branch: no other switch is reported.
    const auto calm = core::sweepHysteresis(loopFermi(), "n", range(100, 130, 1));
    QVERIFY(calm.jumps.empty());
}

void TestHysteresis::measuredCurveJumpsOnlyAtItsBistableRange()
{
    // The H100 sample's sweep of n: bistable at n = 17 only (the measured peak at 10 warps and the collapse
    // after it), so the up sweep falls at 17 -> 18 and the down sweep climbs at 17 -> 16, and nowhere else.
    // The down sweep starts where the up sweep ended: at n = 64 both are the one stable state (k 59.07), not
    // k = n with every warp waiting, which drew a jump at n = 63 that does not happen.
    const XModelParams p = h100Thrashing();
    const auto h = core::sweepHysteresis(p, "n", range(1, 64, 1));
    QCOMPARE(h.jumps.size(), std::size_t(2));
    QVERIFY(h.jumps[0].rising);
    QCOMPARE(h.jumps[0].from_value, 17.0);
    QCOMPARE(h.jumps[0].to_value, 18.0);
    QVERIFY(!h.jumps[1].rising);
    QCOMPARE(h.jumps[1].from_value, 17.0);
    QCOMPARE(h.jumps[1].to_value, 16.0);
    for (std::size_t i = 0; i < h.values.size(); ++i) {
        if (h.stable_count[i] == 1) {
            QVERIFY2(!differs(h, i), qPrintable(QStringLiteral("n = %1: up %2, down %3 GB/s")
                                                    .arg(h.values[i]).arg(h.up_gbs[i]).arg(h.down_gbs[i])));
        }
    }
    QVERIFY(std::abs(h.down_k.back() - h.up_k.back()) < 1e-9 * p.n);
    QVERIFY(h.down_k.back() < 60); // not k = n = 64
    // A state on an equilibrium rests there, whatever the sign rounding gives F at it.
    const XModel m(p);
    const core::EquilibriumScan scan(m, core::SupplyShape(p));
    for (const auto &root : scan.roots())
        QCOMPARE(scan.restFrom(root.k), root.k);
}

void TestHysteresis::restEqualsIntegration()
{
    // The exact rest point (nearest equilibrium in the direction of -F) is where integrating the dynamics
    // from the previous state ends, at every step of both sweeps, jumps included.
    struct Case
    {
        XModelParams p;
        std::string key;
        std::vector<double> values;
    };
    const std::vector<Case> cases{{loopFermi(), "n", range(126, 156, 3)},
                                   {test::thrashingFermi(), "Z", core::sweepValues("Z", 9, 15, 0.5)},
                                   {with(test::thrashingFermi(), "Z", 4), "n", range(8, 80, 8)}};
    for (const auto &c : cases) {
        const auto h = core::sweepHysteresis(c.p, c.key, c.values);
        const std::size_t m = c.values.size();
        double k = integrate(with(c.p, c.key, c.values[0]), 0);
        QVERIFY(std::abs(k - h.up_k[0]) < 1e-4 * std::max(c.p.n, 1.0));
        for (std::size_t i = 1; i < m; ++i) {
            const XModelParams p = with(c.p, c.key, c.values[i]);
            k = integrate(p, h.up_k[i - 1]);
            QVERIFY2(std::abs(k - h.up_k[i]) < 1e-4 * p.n,
                     qPrintable(QStringLiteral("%1 up at %2: %3 vs %4")
                                        .arg(QString::fromStdString(c.key))
                                        .arg(c.values[i])
                                        .arg(k)
                                        .arg(h.up_k[i])));
        }
        for (std::size_t i = m - 1; i-- > 0;) {
            const XModelParams p = with(c.p, c.key, c.values[i]);
            k = integrate(p, h.down_k[i + 1]);
            QVERIFY2(std::abs(k - h.down_k[i]) < 1e-4 * p.n,
                     qPrintable(QStringLiteral("%1 down at %2: %3 vs %4")
                                        .arg(QString::fromStdString(c.key))
                                        .arg(c.values[i])
                                        .arg(k)
                                        .arg(h.down_k[i])));
        }
    }
}

void TestHysteresis::statesAreRestingEquilibria()
{
    const auto h = core::sweepHysteresis(loopFermi(), "n", range(1, 256, 5));
    for (std::size_t i = 0; i < h.values.size(); ++i) {
        const XModelParams p = with(loopFermi(), "n", h.values[i]);
        const XModel m(p);
        for (double k : {h.up_k[i], h.down_k[i]}) {
            QVERIFY(k >= 0 && k <= p.n);
            QVERIFY(std::abs(m.balance(k)) <= 1e-9 * p.M / p.Z);
            // A state at rest is never on an unstable root.
            const double eps = 1e-6 * p.n;
            if (k - eps > 0 && k + eps < p.n)
                QVERIFY(!(m.balance(k - eps) > 0 && m.balance(k + eps) < 0));
        }
        QVERIFY(qFuzzyCompare(h.up_gbs[i], m.toGbs(m.msSupply(h.up_k[i]))));
    }
}

void TestHysteresis::nKeepsKClamped()
{
    // Only the thrashing state exists with Z = 4, at k close to n. Lowering n from 80 to 10 leaves more
    // warps in memory than there are: k is clamped to n, and the flow goes down from there.
    const XModelParams p = with(test::thrashingFermi(), "Z", 4);
    const std::vector<double> values{10, 80};
    const auto h = core::sweepHysteresis(p, "n", values);
    QVERIFY(h.up_k[1] > 10);
    const XModelParams at10 = with(p, "n", 10);
    QVERIFY(std::abs(h.down_k[0] - integrate(at10, 10)) < 1e-6 * 10);
    QVERIFY(std::abs(h.down_k[0] - XModel(at10).solve().operatingPoint().k) < 1e-9 * 10);
    const XModel m(at10);
    const core::SupplyShape shape(at10);
    const core::EquilibriumScan scan(m, shape);
    QCOMPARE(scan.restFrom(80), scan.restFrom(10)); // restFrom clamps to [0, n] as well
}

void TestHysteresis::otherParameter()
{
    // Sweeping Z at n = 48 (Fig. 9-B fixture). The sweeps differ only where two stable states exist; here
    // not on the whole bistable window of Z: from Z = 10.75 on both sweeps rest on the same state while the
    // other one exists aside, reached by neither.
    const auto values = core::sweepValues("Z", 8, 16, 0.05);
    const auto h = core::sweepHysteresis(test::thrashingFermi(), "Z", values);
    QCOMPARE(h.key, std::string("Z"));
    int differing = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int count = XModel(with(test::thrashingFermi(), "Z", values[i])).solve().stableCount();
        QCOMPARE(h.stable_count[i], count);
        if (differs(h, i)) {
            QVERIFY2(count >= 2, qPrintable(QStringLiteral("Z = %1").arg(values[i])));
            ++differing;
        }
    }
    QVERIFY(differing >= 3);
    QVERIFY(!h.jumps.empty());
    for (const auto &jump : h.jumps)
        QVERIFY(std::abs(jump.to_gbs - jump.from_gbs) > 1e-6 * jump.from_gbs);
}

void TestHysteresis::coldStart()
{
    const auto h = core::sweepHysteresis(test::thrashingFermi(), "n", range(48, 60, 1));
    const auto r = XModel(test::thrashingFermi()).solve();
    QVERIFY(std::abs(h.up_k[0] - r.operatingPoint().k) < 1e-9);
    QVERIFY(std::abs(h.up_gbs[0] - r.operatingPoint().ms_gbs) < 1e-9 * r.operatingPoint().ms_gbs);
    // One value: both sweeps are the operating point.
    const std::vector<double> one{48};
    const auto single = core::sweepHysteresis(test::thrashingFermi(), "n", one);
    QCOMPARE(single.up_k, single.down_k);
    QVERIFY(single.jumps.empty());
}

void TestHysteresis::sweepValues()
{
    QCOMPARE(core::sweepValues("n", 1, 5, 2), (std::vector<double> {1, 3, 5}));
    QCOMPARE(core::sweepValues("n", 1, 6, 2), (std::vector<double> {1, 3, 5}));
    QCOMPARE(core::sweepValues("Z", 1, 2, 0.1).size(), std::size_t(11)); // the end survives rounding
    QCOMPARE(core::sweepValues("h", 0, 1, 0.1).back(), 1.0);            // and stays inside h <= 1
    QCOMPARE(core::sweepValues("n", 7, 7, 1), std::vector<double> {7});
}

void TestHysteresis::badInput()
{
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepValues("n", 1, 5, 0));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepValues("n", 5, 1, 1));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepValues("n", 1, 5, 0.5)); // whole warps
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepValues("Z", 1, 1e7, 1e-3)); // too many values
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepValues("cache", 1, 2, 1));
    const std::vector<double> down{5, 4};
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepHysteresis(test::thrashingFermi(), "n", down));
    const std::vector<double> bad{-1, 4};
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepHysteresis(test::thrashingFermi(), "Z", bad));
    const std::vector<double> ok{1, 2};
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::sweepHysteresis(test::thrashingFermi(), "nope", ok));
    try {
        core::sweepValues("n", 1, 5, 0.5);
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("'n'")));
    }
}

QTEST_APPLESS_MAIN(TestHysteresis)
#include "tst_hysteresis.moc"
