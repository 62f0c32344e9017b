// SPDX-License-Identifier: GPL-3.0-or-later
// The X-model's reported numbers against their definitions in docs/MODEL.md, each written out here a second
// time (a short independent formula or solver), not read back from the code: the hit rate and DRAM traffic
// with bypassing warps that keep m requests in flight (1.3), the cache peak and valley at any scale of beta
// and at a measured curve's last point (1.3, 1.5), and the machine metrics with m and R_dram (1.5).
#include "core/xmodel/measured_curve.h"
#include "core/xmodel/xmodel.h"
#include "model_fixtures.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>

using namespace crossroof;
using core::CacheMode;
using core::XModel;
using core::XModelParams;

namespace {

/// R_req of MODEL.md 1.1, requests per cycle per SM.
double requestRate(const XModelParams &p)
{
    return p.R * 1e9 / (p.request_bytes * p.clock_ghz * 1e9 * p.sm_count);
}

/// The locality-mode supply of MODEL.md 1.3 written out: the (1-b)k cache users by Eq. 5, the bk bypassing
/// warps at the memory latency, each warp with m requests in flight, Lm = max(L, k*m/R_req). Returns the
/// cache users' part, the bypassing part and the cache users' hit rate h(kc).
struct Parts
{
    double cached = 0;
    double bypassing = 0;
    double hit = 0;
};

Parts localityParts(const XModelParams &p, double k)
{
    const double lm = std::max(p.L, k * p.m / requestRate(p));
    const double kc = (1 - p.bypass) * k;
    const double miss = std::pow(p.S_s / (p.beta * kc) + 1, 1 - p.alpha); // 1 - h, Eq. 3
    return {kc * p.m / (p.L_s + (lm - p.L_s) * miss), p.bypass * k * p.m / lm, 1 - miss};
}

/// The first root of F = f - G(n-k) from k = 0 (the operating point, MODEL.md 1.4), by a scan and bisection.
double firstRoot(const std::function<double(double)> &f, const XModelParams &p)
{
    const auto F = [&](double k) { return f(k) - std::min(p.E / p.L_c * (p.n - k), p.M) / p.Z; };
    constexpr int kSteps = 100000;
    double a = 0;
    for (int i = 1; i <= kSteps; ++i) {
        double b = p.n * i / kSteps;
        if (F(b) >= 0) {
            for (int it = 0; it < 200; ++it) {
                const double mid = 0.5 * (a + b);
                (F(mid) < 0 ? a : b) = mid;
            }
            return 0.5 * (a + b);
        }
        a = b;
    }
    return p.n;
}

/// Golden-section search for the largest value of fn on [a, b] in log k.
double goldenMaxLog(const std::function<double(double)> &fn, double a, double b)
{
    double lo = std::log(a), hi = std::log(b);
    const double r = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 300; ++i) {
        const double c = hi - r * (hi - lo);
        const double d = lo + r * (hi - lo);
        if (fn(std::exp(c)) >= fn(std::exp(d)))
            hi = d;
        else
            lo = c;
    }
    return std::exp(0.5 * (lo + hi));
}

bool near(double a, double b, double rel)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestXModelDefinitions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hitRateCountsTheBypassingWarpsRequests();
    void cachePeakAndValleyAtAnyScaleOfBeta();
    void measuredValleyAtTheLastPoint();
    void metricsWithRequestsInFlightAndByteCap();
};

void TestXModelDefinitions::hitRateCountsTheBypassingWarpsRequests()
{
    // The case: gtx570-sp with half the warps bypassing and 4 requests in flight per warp. MODEL.md
    // 1.3: the hit rate is h(kc) times the cache users' share of f, where the bypassing warps supply
    // b*k*m/Lm(k); the DRAM traffic is f times the request bytes that miss.
    XModelParams p = test::thrashingFermi();
    p.bypass = 0.5;
    p.m = 4;
    const auto f = [&](double k) {
        const Parts parts = localityParts(p, k);
        return parts.cached + parts.bypassing;
    };
    const double k = firstRoot(f, p);
    const Parts parts = localityParts(p, k);
    const double hit = parts.hit * parts.cached / (parts.cached + parts.bypassing);
    const double toGbs = p.request_bytes * p.clock_ghz * p.sm_count;
    const double dram = f(k) * (1 - hit) * toGbs;
    QVERIFY(near(hit, 0.9582, 1e-4));
    QVERIFY(near(dram, 9.79, 1e-3));

    const core::XGraphResult r = XModel(p).solve();
    const core::Equilibrium &op = r.operatingPoint();
    QVERIFY2(near(op.k, k, 1e-9), qPrintable(QString::number(op.k)));
    QVERIFY2(op.hit_rate && near(*op.hit_rate, hit, 1e-9), qPrintable(QString::number(op.hit_rate.value_or(-1))));
    QVERIFY2(near(op.dram_gbs, dram, 1e-9), qPrintable(QString::number(op.dram_gbs)));
    // Never more DRAM traffic than the bypassing warps alone make plus what the cache users miss.
    QVERIFY(near(op.dram_gbs, (parts.bypassing + parts.cached * (1 - parts.hit)) * toGbs, 1e-9));

    // Over shares, requests in flight and warps: the reported hit rate is the definition's.
    for (double b : {0.1, 0.5, 0.9}) {
        for (double m : {1.0, 2.0, 16.0, 256.0}) {
            XModelParams q = test::thrashingFermi();
            q.bypass = b;
            q.m = m;
            const XModel model(q);
            for (double kk : {0.5, 3.0, 12.0, 30.0, 47.0}) {
                const Parts pp = localityParts(q, kk);
                const double want = pp.hit * pp.cached / (pp.cached + pp.bypassing);
                QVERIFY2(near(model.hitRate(kk), want, 1e-12),
                         qPrintable(QStringLiteral("b %1 m %2 k %3: %4 against %5")
                                            .arg(b).arg(m).arg(kk).arg(model.hitRate(kk)).arg(want)));
            }
        }
    }
}

void TestXModelDefinitions::cachePeakAndValleyAtAnyScaleOfBeta()
{
    // psi: the local maximum of f at or below delta; the valley: the local minimum after it (MODEL.md 1.5).
    // Found here on a log grid over [1e-14, delta] with 2000 points per decade, refined by golden sections.
    for (double beta : {2.5, 10.0, 1e3, 1e5, 1e6}) {
        XModelParams p = test::thrashingFermi();
        p.beta = beta;
        const auto f = [&](double k) {
            const Parts parts = localityParts(p, k);
            return parts.cached + parts.bypassing;
        };
        const double delta = requestRate(p) * p.L;
        std::optional<double> psi, valley;
        const double step = std::pow(10.0, 1.0 / 2000);
        double previous = f(1e-14);
        double k = 1e-14 * step;
        double current = f(k);
        for (; k * step <= delta && !valley; k *= step) {
            const double next = f(k * step);
            if (!psi && current > previous && current >= next)
                psi = goldenMaxLog(f, k / step, k * step);
            else if (psi && current < previous && current <= next)
                valley = goldenMaxLog([&](double x) { return -f(x); }, k / step, k * step);
            previous = current;
            current = next;
        }
        const core::Landmarks lm = XModel(p).landmarks();
        const QString what = QStringLiteral("beta %1: psi %2 valley %3 against psi %4 valley %5")
                                     .arg(beta)
                                     .arg(lm.psi.value_or(-1))
                                     .arg(lm.valley.value_or(-1))
                                     .arg(psi.value_or(-1))
                                     .arg(valley.value_or(-1));
        QVERIFY2(psi && valley, qPrintable(what)); // every beta here has both below delta
        QVERIFY2(lm.psi && near(*lm.psi, *psi, 1e-6), qPrintable(what));
        QVERIFY2(lm.valley && near(*lm.valley, *valley, 1e-6), qPrintable(what));
        QVERIFY2(*lm.psi <= lm.delta, qPrintable(what));
        QVERIFY(lm.psi_gbs && near(*lm.psi_gbs, f(*psi) * p.request_bytes * p.clock_ghz * p.sm_count, 1e-9));
    }
    // The case: beta = 1e6 KiB puts the peak at 1.6e-5 warps and the valley at 5.2e-5, below delta.
    XModelParams p = test::thrashingFermi();
    p.beta = 1e6;
    const core::Landmarks lm = XModel(p).landmarks();
    QVERIFY(lm.psi && *lm.psi > 1.5e-5 && *lm.psi < 1.6e-5);
    QVERIFY(lm.valley && *lm.valley > 5.1e-5 && *lm.valley < 5.3e-5);
}

void TestXModelDefinitions::measuredValleyAtTheLastPoint()
{
    // A measured f that rises to a peak at 8 warps and falls to its last point at 24; beyond it the analytic
    // curve takes over, and past its own valley (20.9 warps) it rises. So f falls into k = 24 and rises out of
    // it: a local minimum after the peak, the valley (MODEL.md 1.5).
    XModelParams p = test::thrashingFermi();
    const XModel analytic(p);
    const double last = 24;
    QVERIFY(analytic.msSupply(last * 1.01) > analytic.msSupply(last)); // the continuation rises
    const double y = analytic.toGbs(analytic.msSupply(last));
    p.measured_f = std::make_shared<core::MeasuredCurve>(
            std::vector<core::CurvePoint> {{4, 0.6 * y, 2}, {8, 1.4 * y, 3}, {16, 1.2 * y, 4}, {last, y, 5}},
            "f.csv");
    const XModel model(p);
    // The definition, checked on the model's own f around the point.
    const double h = 1e-3;
    QVERIFY(model.msSupply(last - h) > model.msSupply(last));
    QVERIFY(model.msSupply(last + h) > model.msSupply(last));
    const core::Landmarks lm = model.landmarks();
    QVERIFY(lm.psi && *lm.psi == 8);
    QVERIFY2(lm.valley && *lm.valley == last, qPrintable(QString::number(lm.valley.value_or(-1))));
    QVERIFY(lm.valley_gbs && near(*lm.valley_gbs, y, 1e-12));

    // Where the continuation falls on (the last point on the analytic falling stretch) there is no valley.
    XModelParams falling = test::thrashingFermi();
    const XModel fa(falling);
    const double at = 14;
    QVERIFY(fa.msSupply(at * 1.01) < fa.msSupply(at));
    const double ya = fa.toGbs(fa.msSupply(at));
    falling.measured_f = std::make_shared<core::MeasuredCurve>(
            std::vector<core::CurvePoint> {{4, 0.6 * ya, 2}, {8, 1.4 * ya, 3}, {at, ya, 4}}, "f.csv");
    const core::Landmarks none = XModel(falling).landmarks();
    QVERIFY(none.psi && *none.psi == 8);
    QVERIFY(!none.valley);
}

void TestXModelDefinitions::metricsWithRequestsInFlightAndByteCap()
{
    // MODEL.md 1.5: the MLP of the machine is the requests in flight that saturate the MS, R_cap*L; delta =
    // MLP/m warps hold them; DLP = M/R_cap, the Z at which M/Z meets the plateau; TLP = delta + Z*R_cap*L_c/E.
    // R_cap and delta are found here from f itself: its plateau far out, and the warps where f reaches it.
    for (double m : {1.0, 4.0, 256.0}) {
        for (double rdram : {0.0, 60.0, 400.0}) {
            XModelParams p = test::thrashingFermi();
            p.cache = CacheMode::None;
            p.m = m;
            p.R_dram = rdram;
            p.L_c = 4;
            p.Z = 2;
            const XModel model(p);
            const double plateau = model.msSupply(1e6);
            double lo = 0, hi = 1e6; // delta: where f first reaches the plateau
            for (int i = 0; i < 200; ++i) {
                const double mid = 0.5 * (lo + hi);
                (model.msSupply(mid) < plateau * (1 - 1e-13) ? lo : hi) = mid;
            }
            const double delta = hi;
            const core::Metrics mt = model.metrics();
            const QString what = QStringLiteral("m %1 R_dram %2: mlp %3").arg(m).arg(rdram).arg(mt.mlp);
            QVERIFY2(near(mt.mlp, plateau * p.L, 1e-9), qPrintable(what));
            QVERIFY2(near(mt.mlp / m, delta, 1e-9), qPrintable(what));
            QVERIFY2(near(model.landmarks().delta, delta, 1e-9), qPrintable(what));
            QVERIFY2(near(mt.dlp_machine, p.M / plateau, 1e-9), qPrintable(what));
            QVERIFY2(mt.tlp_machine && near(*mt.tlp_machine, delta + p.Z * plateau * p.L_c / p.E, 1e-9),
                     qPrintable(what));
            if (rdram == 0)
                QVERIFY(near(mt.mlp, requestRate(p) * p.L, 1e-12)); // the paper's R*L, whatever m
        }
    }
    // The case: at m = 256 the MLP is the 48 requests of gtx570-sp, held by 0.1875 warps.
    XModelParams p = test::thrashingFermi();
    p.m = 256;
    const core::Metrics mt = XModel(p).metrics();
    QVERIFY(std::abs(mt.mlp - 48) < 1e-3);
    QVERIFY(std::abs(XModel(p).landmarks().delta - 0.1875) < 1e-5);
}

QTEST_APPLESS_MAIN(TestXModelDefinitions)
#include "tst_xmodel_definitions.moc"
