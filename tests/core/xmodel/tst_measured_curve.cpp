// SPDX-License-Identifier: GPL-3.0-or-later
// Measured curves standing in for f(k) and g(x): the interpolant, its checks, and the X-model on it.
#include "core/support/error.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/xmodel/measured_curve.h"
#include "core/xmodel/xmodel.h"
#include "model_fixtures.h"

#include <QTest>

#include <cmath>
#include <memory>
#include <random>

using namespace crossroof;
using core::CurvePoint;
using core::MeasuredCurve;

namespace {

std::vector<CurvePoint> sampled(const core::XModel &model, double last, int count)
{
    std::vector<CurvePoint> points;
    for (int i = 1; i <= count; ++i) {
        const double k = last * i / count;
        points.push_back({k, model.toGbs(model.msSupply(k)), i + 1});
    }
    return points;
}

QString refusal(std::vector<CurvePoint> points)
{
    try {
        MeasuredCurve curve(std::move(points), "f.csv");
    } catch (const core::InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestMeasuredCurve : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void passesThroughThePointsAndKeepsTheirShape();
    void badCurvesAreRefusedWithTheLine();
    void measuredSupplyReproducesTheModel();
    void scanAgreesWithSolveOnMeasuredCurves();
    void analyticCurveContinuesBeyondTheLastPoint();
    void measuredDemand();
};

void TestMeasuredCurve::passesThroughThePointsAndKeepsTheirShape()
{
    // A thrashing-like curve: rises, collapses, rises again.
    const std::vector<CurvePoint> pts{{2, 700}, {6, 2000}, {10, 3230}, {12, 2160}, {14, 1350}, {20, 1780}, {30, 1230},
                                      {40, 1590}};
    const MeasuredCurve c(pts, "cache.csv");
    for (const CurvePoint &p : pts)
        QVERIFY(std::abs(c.value(p.x) - p.y) < 1e-9 * p.y);
    QCOMPARE(c.value(0), 0.0); // no warp, no throughput
    // Monotone between points: each piece stays within its end values (no overshoot), so peaks and valleys
    // are measured points.
    for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
        const double lo = std::min(pts[i].y, pts[i + 1].y), hi = std::max(pts[i].y, pts[i + 1].y);
        double prev = c.value(pts[i].x);
        for (int s = 1; s <= 50; ++s) {
            const double x = pts[i].x + (pts[i + 1].x - pts[i].x) * s / 50;
            const double v = c.value(x);
            QVERIFY(v >= lo - 1e-9 && v <= hi + 1e-9);
            QVERIFY(pts[i + 1].y >= pts[i].y ? v >= prev - 1e-9 : v <= prev + 1e-9);
            prev = v;
        }
    }
    QCOMPARE(c.turns(), (std::vector<double>{10, 14, 20, 30}));
}

void TestMeasuredCurve::badCurvesAreRefusedWithTheLine()
{
    QVERIFY(refusal({{1, 1, 2}, {2, 2, 3}}).contains(QStringLiteral("at least 3 points (got 2)")));
    const QString repeated = refusal({{1, 1, 2}, {2, 2, 3}, {2, 3, 4}});
    QVERIFY2(repeated.startsWith(QStringLiteral("f.csv:4:")) && repeated.contains(QStringLiteral("repeat")),
             qPrintable(repeated));
    const QString unordered = refusal({{1, 1, 2}, {3, 2, 3}, {2, 3, 4}});
    QVERIFY2(unordered.startsWith(QStringLiteral("f.csv:4:")) && unordered.contains(QStringLiteral("increasing")),
             qPrintable(unordered));
    const QString negative = refusal({{1, 1, 2}, {2, -2, 3}, {3, 3, 4}});
    QVERIFY2(negative.startsWith(QStringLiteral("f.csv:3:")) && negative.contains(QStringLiteral("negative")),
             qPrintable(negative));
    QVERIFY(refusal({{1, 1, 2}, {2, std::nan(""), 3}, {3, 3, 4}}).contains(QStringLiteral("not finite")));
}

void TestMeasuredCurve::measuredSupplyReproducesTheModel()
{
    // f(k) measured densely from the model itself: the equilibria are the analytic ones, bistable case included.
    core::XModelParams p = test::thrashingFermi();
    const core::XModel analytic(p);
    p.measured_f = std::make_shared<const MeasuredCurve>(sampled(analytic, p.n, 480), "model.csv");
    const core::XModel measured(p);
    const auto a = analytic.solve(), m = measured.solve();
    QCOMPARE(m.equilibria.size(), a.equilibria.size());
    for (std::size_t i = 0; i < a.equilibria.size(); ++i) {
        QCOMPARE(m.equilibria[i].stability, a.equilibria[i].stability);
        QVERIFY(std::abs(m.equilibria[i].k - a.equilibria[i].k) < 0.05);
    }
    QVERIFY(a.stableCount() == 2);
    // The peak and valley are measured points near the analytic ones.
    QVERIFY(std::abs(*m.landmarks.psi - *a.landmarks.psi) < 0.2);
    QVERIFY(std::abs(*m.landmarks.valley - *a.landmarks.valley) < 0.2);

    // The degradation bound reads the measured curve's own peak and valley: as bistable, and as large.
    const core::DegradationBounds da = core::degradationBounds(analytic.params());
    const core::DegradationBounds dm = core::degradationBounds(p);
    QVERIFY(da.bistable && dm.bistable);
    QVERIFY2(std::abs(dm.max_gbs - da.max_gbs) <= 0.02 * da.max_gbs,
             qPrintable(QStringLiteral("%1 against %2").arg(dm.max_gbs).arg(da.max_gbs)));
    QCOMPARE(core::worstDegradationGbs(p), dm.max_gbs);
    QVERIFY(dm.tangency_n && std::abs(*dm.tangency_n - *da.tangency_n) < 0.5);
}

void TestMeasuredCurve::scanAgreesWithSolveOnMeasuredCurves()
{
    // The lean scan behind the stability map, hysteresis and advisor gives solve()'s roots on measured curves.
    std::mt19937_64 rng(44);
    for (int trial = 0; trial < 200; ++trial) {
        core::XModelParams p = test::thrashingFermi();
        std::vector<CurvePoint> pts;
        double k = 0;
        for (int i = 0; i < 12; ++i) {
            k += std::uniform_real_distribution<double>(0.5, 6)(rng);
            pts.push_back({k, std::uniform_real_distribution<double>(10, 200)(rng), i + 2});
        }
        p.measured_f = std::make_shared<const MeasuredCurve>(pts, "random.csv");
        p.n = std::round(std::uniform_real_distribution<double>(4, 80)(rng));
        p.Z = std::exp(std::uniform_real_distribution<double>(0, 4)(rng));
        const core::XModel model(p);
        const core::SupplyShape shape(p);
        const core::EquilibriumScan scan(model, shape);
        const auto solved = model.solve();
        const auto roots = scan.roots();
        QCOMPARE(roots.size(), solved.equilibria.size());
        for (std::size_t i = 0; i < roots.size(); ++i) {
            QCOMPARE(roots[i].stability, solved.equilibria[i].stability);
            QCOMPARE(roots[i].k, solved.equilibria[i].k);
        }
        QCOMPARE(scan.stableCount(), solved.stableCount());
        QCOMPARE(scan.operatingK(), solved.operatingPoint().k);
        // Every root is a root.
        for (const auto &r : roots)
            QVERIFY(std::abs(model.balance(r.k)) < 1e-9 * std::max(model.msSupply(r.k), 1e-6));
        // The flow from any start rests at a root (or an end).
        const double rest = scan.restFrom(p.n / 2);
        const bool atRoot = std::any_of(roots.begin(), roots.end(), [&](const auto &r) { return r.k == rest; });
        QVERIFY(atRoot || rest == 0 || rest == p.n);
    }
}

void TestMeasuredCurve::analyticCurveContinuesBeyondTheLastPoint()
{
    core::XModelParams p = test::thrashingFermi();
    p.cache = core::CacheMode::None;
    const core::XModel analytic(p);
    std::vector<CurvePoint> pts{{4, 40}, {8, 70}, {16, 90}};
    p.measured_f = std::make_shared<const MeasuredCurve>(pts, "short.csv");
    const core::XModel m(p);
    // Continuous at the last point, and the analytic shape (scaled) beyond it.
    QVERIFY(std::abs(m.toGbs(m.msSupply(16)) - 90) < 1e-9);
    QVERIFY(std::abs(m.toGbs(m.msSupply(16 + 1e-9)) - 90) < 1e-6);
    const double scale = 90 / analytic.toGbs(analytic.msSupply(16));
    for (double k : {20.0, 30.0, 47.0})
        QVERIFY(std::abs(m.msSupply(k) - scale * analytic.msSupply(k)) < 1e-12);
}

void TestMeasuredCurve::measuredDemand()
{
    // A measured g(x) (Gop/s against warps computing) stands in for min(E*x/L_c, M).
    core::XModelParams p = test::thrashingFermi();
    p.cache = core::CacheMode::None;
    p.Z = 30;
    p.L_c = 8; // g bends at x = M*L_c/E = 8, a measured point
    const core::XModel analytic(p);
    std::vector<CurvePoint> pts;
    for (int x = 1; x <= 48; ++x)
        pts.push_back({double(x), analytic.toGops(analytic.csThroughput(x)), x + 1});
    p.measured_g = std::make_shared<const MeasuredCurve>(pts, "g.csv");
    const core::XModel m(p);
    QVERIFY(std::abs(m.solve().operatingPoint().ms_gbs - analytic.solve().operatingPoint().ms_gbs)
            < 1e-3 * analytic.solve().operatingPoint().ms_gbs);
}

QTEST_APPLESS_MAIN(TestMeasuredCurve)
#include "tst_measured_curve.moc"
