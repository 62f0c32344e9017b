// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/contour.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof;

namespace {

struct Grid
{
    std::vector<double> x, y, z;
};

template<typename Fn>
Grid sample(int n, double lo, double hi, Fn fn)
{
    Grid g;
    for (int i = 0; i < n; ++i) {
        g.x.push_back(lo + (hi - lo) * i / (n - 1));
        g.y.push_back(lo + (hi - lo) * i / (n - 1));
    }
    for (double yv : g.y) {
        for (double xv : g.x)
            g.z.push_back(fn(xv, yv));
    }
    return g;
}

} // namespace

class TestContour : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void planeIsExact();
    void circleIsClose();
    void nonFiniteCellsAreSkipped();
    void levels();
};

void TestContour::planeIsExact()
{
    const Grid g = sample(11, 0, 1, [](double x, double y) { return x + y; });
    const auto c = core::contourLines(g.x, g.y, g.z, 0.95);
    QVERIFY(!c.x.empty());
    QCOMPARE(c.x.size() % 3, std::size_t(0));
    for (std::size_t i = 0; i < c.x.size(); ++i) {
        if (i % 3 == 2) {
            QVERIFY(std::isnan(c.x[i]) && std::isnan(c.y[i])); // segment separators
            continue;
        }
        QVERIFY(std::abs(c.x[i] + c.y[i] - 0.95) < 1e-12); // a linear function is interpolated exactly
    }
    // Several levels in one pass give the union of the single-level results.
    const std::vector<double> levels{0.5, 0.95, 1.5};
    const auto all = core::contourLines(g.x, g.y, g.z, levels);
    std::size_t total = 0;
    for (double level : levels)
        total += core::contourLines(g.x, g.y, g.z, level).x.size();
    QCOMPARE(all.x.size(), total);
    // No level outside the data: nothing.
    QVERIFY(core::contourLines(g.x, g.y, g.z, 5).x.empty());
}

void TestContour::circleIsClose()
{
    const Grid g = sample(101, -1, 1, [](double x, double y) { return x * x + y * y; });
    const auto c = core::contourLines(g.x, g.y, g.z, 0.25);
    double length = 0;
    for (std::size_t i = 0; i + 1 < c.x.size(); i += 3) {
        QVERIFY(std::abs(std::hypot(c.x[i], c.y[i]) - 0.5) < 1e-3);
        length += std::hypot(c.x[i + 1] - c.x[i], c.y[i + 1] - c.y[i]);
    }
    QVERIFY(std::abs(length - M_PI) < 0.01); // a closed curve of circumference 2*pi*0.5
}

void TestContour::nonFiniteCellsAreSkipped()
{
    Grid g = sample(5, 0, 1, [](double x, double) { return x; });
    g.z[12] = std::numeric_limits<double>::infinity(); // the centre point
    const auto c = core::contourLines(g.x, g.y, g.z, 0.6);
    for (double v : c.x)
        QVERIFY(std::isnan(v) || std::isfinite(v));
    // The four cells around the centre are skipped; the others still give segments.
    QVERIFY(!c.x.empty());
}

void TestContour::levels()
{
    const auto l = core::niceContourLevels(1.0, 500);
    const std::vector<double> expected{1.01, 1.1, 1.5, 2, 5, 10, 20, 50, 100, 200};
    QCOMPARE(l, expected);
    QVERIFY(core::niceContourLevels(3, 3).empty());
    QVERIFY(core::niceContourLevels(1, std::numeric_limits<double>::infinity()).empty());
}

QTEST_APPLESS_MAIN(TestContour)
#include "tst_contour.moc"
