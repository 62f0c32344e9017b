// SPDX-License-Identifier: GPL-3.0-or-later
// The X-graph draws its curves thinned (thinCurve): within a tenth of a pixel of every dense sample, through
// every kink, peak and valley, and the same pixels as the dense curves.
#include "common/curve_thinning.h"
#include "common/parameter_state.h"
#include "support/image_compare.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The thinned polyline's value at KEY (linear between its points), NaN in a gap or outside.
double valueAt(const QVector<double> &keys, const QVector<double> &values, double key)
{
    for (qsizetype i = 0; i + 1 < keys.size(); ++i) {
        if (keys[i] <= key && key <= keys[i + 1]) {
            if (keys[i + 1] == keys[i])
                return values[i];
            const double t = (key - keys[i]) / (keys[i + 1] - keys[i]);
            return values[i] + t * (values[i + 1] - values[i]);
        }
    }
    return keys.size() == 1 && keys[0] == key ? values[0] : kNaN;
}

/// The largest vertical distance, in pixels, from a dense sample to the thinned curve.
double worstDeviation(const QVector<double> &keys, const QVector<double> &values, const DrawnCurve &thin,
                      double yScale)
{
    double worst = 0;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if (!std::isfinite(values[i]))
            continue;
        const double v = valueAt(thin.keys, thin.values, keys[i]);
        worst = std::max(worst, std::isfinite(v) ? std::abs(v - values[i]) * yScale : 1e9);
    }
    return worst;
}

QVector<double> graphKeys(const QCPGraph *g)
{
    QVector<double> k;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        k << it->key;
    return k;
}

QVector<double> graphValues(const QCPGraph *g)
{
    QVector<double> v;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        v << it->value;
    return v;
}

} // namespace

class TestCurveThinning : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aStraightLineKeepsItsEnds();
    void staysWithinTheTolerance_data();
    void staysWithinTheTolerance();
    void keepsKinksAndExtremes();
    void gapsStayGaps();
    void badScalesDrawEverySample();
    void xgraphPassesThroughItsLandmarks();
    void xgraphDrawsTheSamePixels();
    void zoomThinsAgain();
    void logarithmicKeysThinInTheirPixels();
    void columnsKeepTheirExtremes();
};

void TestCurveThinning::aStraightLineKeepsItsEnds()
{
    QVector<double> x, y;
    for (int i = 0; i < 2000; ++i)
        x << i * 0.01, y << 3 * i * 0.01 + 1;
    const DrawnCurve c = thinCurve(x, y, 50, 20, 0.1);
    QCOMPARE(c.keys.size(), 2);
    QCOMPARE(c.keys.front(), 0.0);
    QCOMPARE(c.keys.back(), x.back());
    QCOMPARE(c.values.back(), y.back());
}

void TestCurveThinning::staysWithinTheTolerance_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("sine, 0.1 px") << 0 << 0.1;
    QTest::newRow("sine, 0.5 px") << 0 << 0.5;
    QTest::newRow("square root, 0.1 px") << 1 << 0.1;
    QTest::newRow("kinked, 0.1 px") << 2 << 0.1;
    QTest::newRow("steep exponential, 0.05 px") << 3 << 0.05;
}

void TestCurveThinning::staysWithinTheTolerance()
{
    QFETCH(int, shape);
    QFETCH(double, tolerance);
    QVector<double> x, y;
    for (int i = 0; i < 2000; ++i) {
        const double t = i / 1999.0;
        x << t;
        switch (shape) {
        case 0: y << std::sin(12 * t); break;
        case 1: y << std::sqrt(t); break;
        case 2: y << std::min(t, 0.37) + 0.2 * std::max(0.0, t - 0.8); break;
        default: y << std::exp(8 * t) / std::exp(8.0); break;
        }
    }
    const double xScale = 800, yScale = 600; // an 800x600-pixel plot of [0, 1] x [0, 1]
    const DrawnCurve c = thinCurve(x, y, xScale, yScale, tolerance);
    QVERIFY2(c.keys.size() < x.size() / 4, qPrintable(QString::number(c.keys.size())));
    QVERIFY(c.keys.size() >= 2);
    QVERIFY2(worstDeviation(x, y, c, yScale) <= tolerance + 1e-9,
             qPrintable(QString::number(worstDeviation(x, y, c, yScale))));
    QCOMPARE(c.keys.front(), x.front());
    QCOMPARE(c.keys.back(), x.back());
}

void TestCurveThinning::keepsKinksAndExtremes()
{
    // A tent with its top between grid samples: the top is a sample to keep; a flat stretch's two ends stay.
    QVector<double> x, y;
    for (int i = 0; i <= 1000; ++i)
        x << i / 1000.0;
    x.insert(377, 0.3765);
    std::sort(x.begin(), x.end());
    for (double t : x)
        y << (t < 0.7 ? 1 - std::abs(t - 0.3765) : 0.6235 - 0.0);
    std::vector<bool> keep(std::size_t(x.size()), false);
    const auto top = std::size_t(x.indexOf(0.3765));
    keep[top] = true;
    const DrawnCurve c = thinCurve(x, y, 100, 100, 2.0, keep); // a loose tolerance: only what must stay
    QVERIFY(c.keys.contains(0.3765));
    QCOMPARE(c.values[c.keys.indexOf(0.3765)], 1.0);
    QVERIFY(c.keys.size() <= 6);
    // Without the mask the peak is still kept: it is a local maximum.
    const DrawnCurve unmasked = thinCurve(x, y, 100, 100, 2.0);
    QVERIFY(unmasked.keys.contains(0.3765));
}

void TestCurveThinning::gapsStayGaps()
{
    QVector<double> x, y;
    for (int i = 0; i < 300; ++i) {
        x << i;
        y << ((i >= 100 && i < 150) ? kNaN : 2.0 * i);
    }
    const DrawnCurve c = thinCurve(x, y, 1, 1, 0.1);
    int gaps = 0;
    for (qsizetype i = 0; i < c.values.size(); ++i) {
        if (std::isnan(c.values[i])) {
            ++gaps;
            QCOMPARE(c.keys[i - 1], 99.0); // the first piece ends at its last sample
            QCOMPARE(c.keys[i + 1], 150.0); // the second starts at its first
        }
    }
    QCOMPARE(gaps, 1);
    QCOMPARE(c.keys.size(), 5);
}

void TestCurveThinning::columnsKeepTheirExtremes()
{
    // 1,000 samples in 10 columns of [100, 900): of each column the first, lowest, highest and last, in key
    // order; the last sample before the range and the first after it; a NaN once, as a break.
    QVector<double> x, y;
    for (int i = 0; i < 1000; ++i) {
        x << i;
        y << (i % 7) + (i == 345 ? 100 : 0) - (i == 777 ? 50 : 0);
    }
    y[500] = kNaN;
    y[501] = kNaN;
    const std::vector<qsizetype> kept = columnSamples(x, y, 100, 899.999, 10);
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));
    QCOMPARE(kept.front(), qsizetype(99));
    QCOMPARE(kept.back(), qsizetype(900));
    QVERIFY(kept.size() <= std::size_t(4 * 10 + 2 + 1));
    const auto has = [&kept](qsizetype i) { return std::find(kept.begin(), kept.end(), i) != kept.end(); };
    QVERIFY(has(345)); // the peak
    QVERIFY(has(777)); // the valley
    QVERIFY(has(100) && has(179) && has(180)); // a column's first and last, the next one's first
    QVERIFY(has(500) && !has(501)); // one break
    QVERIFY(has(499) && has(502)); // the pieces' ends
    for (qsizetype i : kept) {
        if (i >= 100 && i < 900 && std::isfinite(y[i])) {
            const qsizetype column = (i - 100) / 80;
            double lo = 1e300, hi = -1e300;
            for (qsizetype j = 100 + column * 80; j < 180 + column * 80; ++j) {
                if (std::isfinite(y[j]))
                    lo = std::min(lo, y[j]), hi = std::max(hi, y[j]);
            }
            QVERIFY(y[i] >= lo && y[i] <= hi);
        }
    }
    // Logarithmic keys: columns even in the logarithm, so the decade 1..10 gets as many as 10..100.
    QVector<double> lx, ly;
    for (int i = 1; i <= 100'000; ++i)
        lx << i * 1e-3, ly << std::sin(i * 1e-3);
    const std::vector<qsizetype> logKept = columnSamples(lx, ly, 1, 100, 20, true);
    const auto firstDecade = std::count_if(logKept.begin(), logKept.end(), [&lx](qsizetype i) { return lx[i] < 10; });
    QVERIFY(firstDecade >= 20 && firstDecade <= 4 * 10 + 1);
}

void TestCurveThinning::badScalesDrawEverySample()
{
    const QVector<double> x{0, 1, 2, 3}, y{0, 1, 2, 3};
    QCOMPARE(thinCurve(x, y, 0, 1, 0.1).keys.size(), 4);
    QCOMPARE(thinCurve(x, y, 1, std::numeric_limits<double>::infinity(), 0.1).keys.size(), 4);
    QCOMPARE(thinCurve(x, y, 1, 1, 0).keys.size(), 4);
}

void TestCurveThinning::xgraphPassesThroughItsLandmarks()
{
    ParameterState state; // the default profile: a GTX 570 thrashing its cache, with a peak and a valley
    XModelEvaluation eval(&state);
    XGraphView view(&eval);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const auto &lm = eval.result().landmarks;
    QVERIFY(lm.psi && lm.valley);
    const QVector<double> fk = graphKeys(view.supplyGraph());
    const QVector<double> fv = graphValues(view.supplyGraph());
    QVERIFY2(fk.size() < int(eval.curves().k.size()) / 4, qPrintable(QString::number(fk.size())));
    // f's kink at delta, the cache peak psi and the valley are points of the drawn f, with their exact values.
    const auto &c = eval.curves();
    const double n = state.params().n;
    for (double landmark : {lm.delta, *lm.psi, *lm.valley}) {
        if (!(landmark > 0 && landmark < n))
            continue; // beyond the plot
        const qsizetype at = fk.indexOf(landmark);
        QVERIFY2(at >= 0, qPrintable(QString::number(landmark)));
        const auto dense = std::size_t(std::find(c.k.begin(), c.k.end(), landmark) - c.k.begin());
        QCOMPARE(fv[at], c.f_gbs[dense]);
    }
    // G's kink at k = n - pi is a point of the drawn G.
    QVERIFY(graphKeys(view.demandGraph()).contains(state.params().n - lm.pi));
    // Every dense sample of f and of G is within the tolerance, in this plot's pixels.
    QCustomPlot *plot = view.plot();
    const double yScale = plot->height() / plot->yAxis->range().size();
    const QVector<double> keys(c.k.begin(), c.k.end());
    const QVector<double> g(c.g_gbs.begin(), c.g_gbs.end());
    const DrawnCurve drawnG{graphKeys(view.demandGraph()), graphValues(view.demandGraph())};
    QVERIFY(worstDeviation(keys, g, drawnG, yScale) <= XGraphView::kDefaultCurveTolerance + 1e-9);
}

void TestCurveThinning::xgraphDrawsTheSamePixels()
{
    ParameterState state;
    XModelEvaluation eval(&state);
    XGraphView view(&eval);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // The dashed (unstable) stretch is left out of the comparison: drawn from every sample, QCustomPlot folds
    // the samples of each pixel column into a zigzag that uses up its dash pattern, so the dense drawing looked
    // nearly solid; thinned, it is dashed as its pen says. Its samples are thinned like the others.
    view.unstableSupplyGraph()->setVisible(false);
    for (const QString &key : {QStringLiteral("n"), QStringLiteral("Z")}) {
        state.setValue(key, state.value(key) * 0.8);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage thinned = view.plot()->toPixmap().toImage().convertToFormat(QImage::Format_RGB32);
        const int thinnedCount = view.supplyGraph()->dataCount() + view.demandGraph()->dataCount();
        const int thinnedDashed = view.unstableSupplyGraph()->dataCount();
        view.setCurveTolerance(0);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage dense = view.plot()->toPixmap().toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(view.supplyGraph()->dataCount() + view.demandGraph()->dataCount() > 4 * thinnedCount);
        QVERIFY2(view.unstableSupplyGraph()->dataCount() > 4 * thinnedDashed,
                 qPrintable(QStringLiteral("%1 of %2").arg(thinnedDashed).arg(view.unstableSupplyGraph()->dataCount())));
        view.setCurveTolerance(XGraphView::kDefaultCurveTolerance);
        QCOMPARE(thinned.size(), dense.size());
        // Antialiasing shades a curve's edge pixels a little differently where the thinned polyline runs a
        // fraction of a pixel off the dense one, and where the dense one's 2,000 short segments overlap at their
        // joins (the same differences at a 0.05-pixel tolerance): edge pixels change by some levels, none by
        // half the range, one in a thousand by a quarter.
        int changed = 0, worst = 0, strong = 0;
        for (int y = 0; y < dense.height(); ++y) {
            const auto *a = reinterpret_cast<const QRgb *>(thinned.constScanLine(y));
            const auto *b = reinterpret_cast<const QRgb *>(dense.constScanLine(y));
            for (int x = 0; x < dense.width(); ++x) {
                const int d = crossroof::test::channelDifference(a[x], b[x]);
                worst = std::max(worst, d);
                changed += d > 25 ? 1 : 0;
                strong += d > 64 ? 1 : 0;
            }
        }
        const int pixels = dense.width() * dense.height();
        const QString what = QStringLiteral("%1: worst %2, %3 pixels by more than 25, %4 by more than 64")
                                     .arg(key).arg(worst).arg(changed).arg(strong);
        QVERIFY2(worst < 128, qPrintable(what));
        QVERIFY2(changed <= pixels / 200, qPrintable(what));
        QVERIFY2(strong <= pixels / 1000, qPrintable(what));
    }
}

void TestCurveThinning::zoomThinsAgain()
{
    ParameterState state;
    XModelEvaluation eval(&state);
    XGraphView view(&eval);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCustomPlot *plot = view.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const int whole = view.supplyGraph()->dataCount();
    // Zoomed into the cache peak, a pixel holds far less of the curve: more samples are drawn, each still
    // within the tolerance at the new scale.
    const double psi = *eval.result().landmarks.psi;
    plot->xAxis->setRange(psi * 0.5, psi * 1.5);
    plot->yAxis->setRange(plot->yAxis->range().upper * 0.5, plot->yAxis->range().upper);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(view.supplyGraph()->dataCount() > whole);
    const auto &c = eval.curves();
    const double yScale = plot->height() / plot->yAxis->range().size();
    QVector<double> keys, f;
    for (std::size_t i = 0; i < c.k.size(); ++i) {
        if (c.k[i] >= psi * 0.5 && c.k[i] <= psi * 1.5)
            keys << c.k[i], f << c.f_gbs[i];
    }
    // The drawn f is split in solid and dashed stretches; the solid one holds the peak's neighbourhood.
    const DrawnCurve drawn{graphKeys(view.supplyGraph()), graphValues(view.supplyGraph())};
    double worst = 0;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const double v = valueAt(drawn.keys, drawn.values, keys[i]);
        if (std::isfinite(v))
            worst = std::max(worst, std::abs(v - f[i]) * yScale);
    }
    QVERIFY2(worst <= XGraphView::kDefaultCurveTolerance + 1e-9, qPrintable(QString::number(worst)));
}

QTEST_MAIN(TestCurveThinning)
void TestCurveThinning::logarithmicKeysThinInTheirPixels()
{
    // y = log10(x) over four decades is straight on a logarithmic x axis and bent on a linear one: the same
    // samples thin to their two ends on the first, and keep their bend on the second. Kept keys are samples.
    QCustomPlot plot;
    plot.resize(600, 400);
    QCPGraph *graph = plot.addGraph();
    QVector<double> x, y;
    for (int i = 0; i <= 1000; ++i) {
        x << std::pow(10.0, 4.0 * i / 1000);
        y << 4.0 * i / 1000;
    }
    plot.xAxis->setRange(1, 1e4);
    plot.yAxis->setRange(0, 4);
    auto *thinned = new ThinnedGraphs(&plot);
    plot.xAxis->setScaleType(QCPAxis::stLogarithmic);
    thinned->set(graph, x, y);
    thinned->update();
    QCOMPARE(graph->dataCount(), 2);
    QCOMPARE(graph->data()->at(0)->key, x.front());
    QCOMPARE(graph->data()->at(1)->key, x.back());

    plot.xAxis->setScaleType(QCPAxis::stLinear);
    plot.replot(); // the scale changed: thinned again before drawing
    QVERIFY2(graph->dataCount() > 20, qPrintable(QString::number(graph->dataCount())));
    for (int i = 0; i < graph->dataCount(); ++i)
        QVERIFY(x.contains(graph->data()->at(i)->key));

    // The same along a logarithmic value axis: y = x drawn over 1 to 10^4 with y logarithmic and x as log10 of
    // it is straight; the values drawn are the samples'.
    QVector<double> u(x.size());
    for (qsizetype i = 0; i < x.size(); ++i)
        u[i] = y[i];
    plot.xAxis->setRange(0, 4);
    plot.yAxis->setRange(1, 1e4);
    plot.yAxis->setScaleType(QCPAxis::stLogarithmic);
    thinned->set(graph, u, x);
    thinned->update();
    QCOMPARE(graph->dataCount(), 2);
    QCOMPARE(graph->data()->at(1)->value, x.back());
}

#include "tst_curve_thinning.moc"
