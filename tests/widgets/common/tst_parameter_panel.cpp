// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "core/profiles/profile_library.h"
#include "support/image_compare.h"
#include "core/session/session.h"
#include "xgraph/flow_arrows.h"
#include "xgraph/readout_panel.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QUndoStack>

#include <cmath>

#include <functional>
#include <utility>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

QVector<double> values(QCPGraph *g)
{
    QVector<double> v;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        v << it->key << it->value;
    return v;
}

bool allFinite(QCPGraph *g)
{
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        if (!std::isfinite(it->key))
            return false;
    }
    return true;
}

} // namespace

class TestParameterPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void sliderMapping();
    void everySliderChangesStateAndPlot_data();
    void everySliderChangesStateAndPlot();
    void spinBoxChangesState();
    void stateChangesShowInTheEditors();
    void cacheModeEnablesItsParameters();
    void extremeSliderValuesNeverShowNaN();
    void hoverNamesTheFormula();
    void flowArrowsAndBasinsFollowTheDynamics();
    void stampedArrowHeadsLookDrawn();
    void compareModeDrawsTheWhatIf();
    void severalWhatIfsEachNamedAndAllInView();
    void aHeldSliderKeepsTheAxesStill();
    void aDragRedrawsWithTheSamePixels();
    void directPaintShowsTheSamePicture();
    void keptMarginsShowWhatAFullPaintShows();
    void aCpuProfileCountsThreads();
    void aMeasuredSupplySaysSoInTheCacheModeAndReadout();

private:
    /// Drags each of KEYS over four steps as a hand does (the slider held). After each step PICTURES gives two
    /// pictures of the X-graph, which must be the same to the pixel. Returns the first difference found (empty
    /// when none), and counts the steps in STEPS.
    QString dragComparing(std::initializer_list<const char *> keys,
                          const std::function<std::pair<QImage, QImage>()> &pictures, int &steps);

    ParameterState *m_state = nullptr;
    XModelEvaluation *m_eval = nullptr;
    ParameterPanel *m_panel = nullptr;
    XGraphView *m_view = nullptr;
};

void TestParameterPanel::init()
{
    m_state = new ParameterState;
    m_eval = new XModelEvaluation(m_state, m_state);
    m_panel = new ParameterPanel(m_state);
    m_view = new XGraphView(m_eval);
    m_view->resize(900, 600);
    m_view->show();
}

void TestParameterPanel::cleanup()
{
    delete m_view;
    delete m_panel;
    delete m_state;
}

void TestParameterPanel::sliderMapping()
{
    for (const auto &info : core::parameterInfos()) {
        // Ends map to ends; positions round-trip; log sliders are log.
        QVERIFY(std::abs(ParameterPanel::sliderValue(info, 0) - info.slider_min) <= std::pow(10, -info.decimals));
        QVERIFY(std::abs(ParameterPanel::sliderValue(info, ParameterPanel::kSliderSteps) - info.slider_max)
                <= std::max(0.5, std::pow(10, -info.decimals)));
        const int mid = ParameterPanel::kSliderSteps / 2;
        const double v = ParameterPanel::sliderValue(info, mid);
        if (!info.integer)
            QVERIFY(std::abs(ParameterPanel::sliderPosition(info, v) - mid) <= 2);
        if (info.log_scale && !info.integer) {
            const double geometricMid = std::sqrt(info.slider_min * info.slider_max);
            QVERIFY(std::abs(v - geometricMid) <= 0.01 * geometricMid + std::pow(10, -info.decimals));
        }
    }
}

void TestParameterPanel::everySliderChangesStateAndPlot_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("cache");
    QTest::addColumn<int>("position");
    // Each row moves one slider in a cache mode where the parameter shapes the curves.
    const int loc = int(core::CacheMode::Locality);
    QTest::newRow("n") << "n" << loc << 300;
    QTest::newRow("Z") << "Z" << loc << 800;
    QTest::newRow("E") << "E" << loc << 200;
    QTest::newRow("R") << "R" << loc << 800;
    QTest::newRow("L") << "L" << loc << 300;
    QTest::newRow("M") << "M" << loc << 900;
    QTest::newRow("L_c") << "L_c" << loc << 700;
    QTest::newRow("S_s") << "S_s" << loc << 800;
    QTest::newRow("L_s") << "L_s" << loc << 100;
    QTest::newRow("alpha") << "alpha" << loc << 100;
    QTest::newRow("beta") << "beta" << loc << 900;
    QTest::newRow("h") << "h" << int(core::CacheMode::Fixed) << 900;
    QTest::newRow("S_2") << "S_2" << int(core::CacheMode::TwoLevel) << 300;
}

void TestParameterPanel::everySliderChangesStateAndPlot()
{
    QFETCH(QString, key);
    QFETCH(int, cache);
    QFETCH(int, position);
    m_state->setCacheMode(core::CacheMode(cache));
    QSlider *slider = m_panel->slider(key);
    QVERIFY(slider);
    QVERIFY(slider->isEnabled());
    const double before = m_state->value(key);
    const QVector<double> fBefore = values(m_view->supplyGraph());
    const QVector<double> gBefore = values(m_view->demandGraph());
    QSignalSpy spy(m_state, &ParameterState::valueChanged);

    slider->setValue(position);

    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toString(), key);
    const auto *info = core::findParameter(key.toStdString());
    QCOMPARE(m_state->value(key), ParameterPanel::sliderValue(*info, position));
    QVERIFY(m_state->value(key) != before);
    QCOMPARE(m_panel->spinBox(key)->value(), m_state->value(key));
    QVERIFY2(values(m_view->supplyGraph()) != fBefore || values(m_view->demandGraph()) != gBefore,
             "the plotted curves must change");
    QVERIFY(allFinite(m_view->supplyGraph()));
    QCOMPARE(m_eval->model()->params().*(info->member), m_state->value(key));
}

void TestParameterPanel::spinBoxChangesState()
{
    QDoubleSpinBox *spin = m_panel->spinBox(QStringLiteral("Z"));
    spin->setValue(33.5);
    QCOMPARE(m_state->value(QStringLiteral("Z")), 33.5);
    QCOMPARE(m_panel->slider(QStringLiteral("Z"))->value(),
             ParameterPanel::sliderPosition(*core::findParameter("Z"), 33.5));
    // The top axis x = n - k and the CS axis follow Z.
    QVERIFY(qFuzzyCompare(m_view->plot()->yAxis2->range().upper,
                          m_view->plot()->yAxis->range().upper * 33.5 * 32 / 128));
}

void TestParameterPanel::stateChangesShowInTheEditors()
{
    QSignalSpy spy(m_state, &ParameterState::valueChanged);
    m_state->setValue(QStringLiteral("L"), 321.0);
    QCOMPARE(spy.count(), 1); // no echo from the editors back into the state
    QCOMPARE(m_panel->spinBox(QStringLiteral("L"))->value(), 321.0);
    m_state->setValue(QStringLiteral("L"), 321.0);
    QCOMPARE(spy.count(), 1); // unchanged value: no signal
}

void TestParameterPanel::cacheModeEnablesItsParameters()
{
    QComboBox *box = m_panel->cacheModeBox();
    box->setCurrentIndex(box->findData(int(core::CacheMode::None)));
    Q_EMIT box->activated(box->currentIndex());
    QCOMPARE(m_state->params().cache, core::CacheMode::None);
    QVERIFY(!m_panel->slider(QStringLiteral("alpha"))->isEnabled());
    QVERIFY(!m_panel->slider(QStringLiteral("h"))->isEnabled());
    QVERIFY(!m_panel->slider(QStringLiteral("L_s"))->isEnabled());
    m_state->setCacheMode(core::CacheMode::Fixed);
    QCOMPARE(box->currentData().toInt(), int(core::CacheMode::Fixed));
    QVERIFY(m_panel->slider(QStringLiteral("h"))->isEnabled());
    QVERIFY(!m_panel->slider(QStringLiteral("alpha"))->isEnabled());
    QVERIFY(!m_panel->slider(QStringLiteral("S_2"))->isEnabled());

    // Two levels: the L1's capacity keys and the L2's, no fixed hit rate.
    const int twoLevel = box->findData(int(core::CacheMode::TwoLevel));
    QVERIFY(twoLevel >= 0);
    box->setCurrentIndex(twoLevel);
    Q_EMIT box->activated(twoLevel);
    QCOMPARE(m_state->params().cache, core::CacheMode::TwoLevel);
    for (const char *key : {"S_s", "alpha", "beta", "L_s", "S_2", "alpha_2", "bypass"})
        QVERIFY2(m_panel->slider(QString::fromLatin1(key))->isEnabled(), key);
    QVERIFY(!m_panel->slider(QStringLiteral("h"))->isEnabled());
    QVERIFY(!m_panel->slider(QStringLiteral("h_2"))->isEnabled());
    // With an L2 the sharpness of its step shapes f(k).
    m_state->setValue(QStringLiteral("S_2"), 4 * m_state->value(QStringLiteral("S_s")));
    const QVector<double> before = values(m_view->supplyGraph());
    m_panel->slider(QStringLiteral("alpha_2"))->setValue(900);
    QVERIFY(values(m_view->supplyGraph()) != before);
    QVERIFY(allFinite(m_view->supplyGraph()));
}

void TestParameterPanel::extremeSliderValuesNeverShowNaN()
{
    for (const auto &info : core::parameterInfos()) {
        QSlider *slider = m_panel->slider(QString::fromLatin1(info.key.data()));
        if (!slider)
            continue;
        for (int pos : {0, ParameterPanel::kSliderSteps}) {
            slider->setValue(pos);
            QVERIFY(m_eval->model().has_value());
            QVERIFY(!m_eval->result().equilibria.empty());
            QVERIFY(std::isfinite(m_eval->result().operatingPoint().ms_gbs));
            QVERIFY(allFinite(m_view->supplyGraph()));
        }
    }
}

void TestParameterPanel::hoverNamesTheFormula()
{
    const auto &model = *m_eval->model();
    const double k = 2;
    const double f = model.toGbs(model.msSupply(k));
    QVERIFY(m_view->describeAt(k, f, 0.1, 0.5).contains(QLatin1String("f(k) = k / (L_s")));
    // Where the curves are apart (k = 46: f is well above the flat demand M/Z).
    const double g = model.toGbs(model.csDemand(model.params().n - 46));
    QVERIFY(std::abs(model.toGbs(model.msSupply(46)) - g) > 5);
    QVERIFY(m_view->describeAt(46, g, 0.1, 0.5).contains(QStringLiteral("G(x) = min(E·x, M)/Z")));
    QVERIFY(m_view->describeAt(46, g + 30, 0.1, 0.5).isEmpty()); // over nothing
    const auto &op = m_eval->result().operatingPoint();
    QVERIFY(m_view->describeAt(op.k, op.ms_gbs, 0.1, 0.5).startsWith(QLatin1String("Equilibrium")));
}

void TestParameterPanel::flowArrowsAndBasinsFollowTheDynamics()
{
    const auto &model = *m_eval->model();
    const auto &arrows = m_view->flowArrows();
    QVERIFY(arrows.size() >= 10);
    for (const auto &a : arrows) // dk/dt = -F(k): warps move against the sign of F
        QCOMPARE(a.direction, model.balance(a.k) > 0 ? -1 : 1);
    // The default workload is bistable: two basins, split at the unstable root.
    const auto &r = m_eval->result();
    QCOMPARE(r.stableCount(), 2);
    const auto &basins = m_view->basins();
    QCOMPARE(basins.size(), 2);
    QCOMPARE(basins[0].to, r.equilibria[1].k);
    QCOMPARE(basins[1].from, r.equilibria[1].k);
    // The operating point's basin is the one told apart.
    const double opK = r.operatingPoint().k;
    for (const auto &b : basins)
        QCOMPARE(b.operating, b.from <= opK && opK <= b.to);
    // One stable state: no basins drawn.
    m_state->setValue(QStringLiteral("Z"), 4.0);
    QVERIFY(m_view->basins().isEmpty());
}

void TestParameterPanel::stampedArrowHeadsLookDrawn()
{
    // On screen the flow arrows' heads are stamped from an image; in a vector figure they are drawn as paths.
    // Both show the same arrows: every pixel of one has a pixel of about the same shade within a pixel of it in
    // the other (a stamp sits on whole pixels, so it may be half a pixel off the path).
    QCustomPlot plot;
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        axis->setVisible(false);
        axis->grid()->setVisible(false);
    }
    plot.xAxis->setRange(0, 100);
    plot.yAxis->setRange(0, 10);
    plot.axisRect()->setAutoMargins(QCP::msNone);
    plot.axisRect()->setMargins(QMargins());
    auto *arrows = new FlowArrows(&plot);
    arrows->setArrows({{20, 1}, {50, -1}, {80, 1}, {33.3, -1}, {66.7, 1}}, 7, 5);
    const QSize size(400, 60);
    const QImage stamped = plot.toPixmap(size.width(), size.height(), 1.0).toImage().convertToFormat(QImage::Format_RGB32);
    QImage drawn(size, QImage::Format_RGB32);
    drawn.fill(Qt::white);
    {
        QCPPainter painter(&drawn);
        painter.setMode(QCPPainter::pmVectorized); // as in a PDF or SVG
        plot.toPainter(&painter, size.width(), size.height());
    }
    const auto shade = [](const QImage &image, int x, int y) { return qGray(image.pixel(x, y)); };
    const auto matched = [&](const QImage &a, const QImage &b) {
        int unmatched = 0;
        int ink = 0;
        for (int y = 1; y + 1 < size.height(); ++y) {
            for (int x = 1; x + 1 < size.width(); ++x) {
                const int s = shade(a, x, y);
                ink += s < 200 ? 1 : 0;
                bool near = false;
                for (int dy = -1; dy <= 1 && !near; ++dy)
                    for (int dx = -1; dx <= 1 && !near; ++dx)
                        near = std::abs(shade(b, x + dx, y + dy) - s) <= 64;
                unmatched += near ? 0 : 1;
            }
        }
        return std::pair{ink, unmatched};
    };
    const auto [stampInk, stampAlone] = matched(stamped, drawn);
    const auto [drawnInk, drawnAlone] = matched(drawn, stamped);
    QVERIFY2(stampInk > 5 * 20 && std::abs(stampInk - drawnInk) <= stampInk / 10,
             qPrintable(QStringLiteral("ink: %1 stamped, %2 drawn").arg(stampInk).arg(drawnInk)));
    QCOMPARE(stampAlone, 0);
    QCOMPARE(drawnAlone, 0);
}

void TestParameterPanel::compareModeDrawsTheWhatIf()
{
    core::XModelParams whatIf = m_state->params();
    whatIf.n = 20; // thread throttling
    m_state->setComparison(whatIf, QStringLiteral("Thread throttling"));
    QVERIFY(m_view->comparisonSupplyGraph()->dataCount() > 2); // thinned for drawing
    const auto op = core::XModel(whatIf).solve().operatingPoint();
    QCOMPARE(m_view->comparisonOperatingGraph()->data()->at(0)->key, op.k);
    QCOMPARE(m_view->comparisonOperatingGraph()->data()->at(0)->value, op.ms_gbs);
    QVERIFY(m_view->comparisonSupplyGraph()->name().contains(QStringLiteral("Thread throttling")));
    // The baseline stays as it was.
    QCOMPARE(m_state->params().n, 48.0);
    m_state->setComparison(std::nullopt);
    QCOMPARE(m_view->comparisonSupplyGraph()->dataCount(), 0);
}

void TestParameterPanel::severalWhatIfsEachNamedAndAllInView()
{
    // The default workload thrashes the cache: a cache four times larger moves the peak of f up and to the
    // right, above the current curves. With thread throttling beside it, both are drawn, each with its own
    // legend entry naming it, and the axes hold every what-if's f(k) whole, after a zoom and Home too.
    core::XModelParams larger = m_state->params();
    larger.S_s *= 4;
    core::XModelParams fewer = m_state->params();
    fewer.n = 20;
    const double currentTop = m_view->plot()->yAxis->range().upper;
    m_state->setComparisons({{larger, QStringLiteral("Larger cache")}, {fewer, QStringLiteral("Thread throttling")}});
    QCOMPARE(m_eval->comparisons().size(), std::size_t(2));
    QCPGraph *first = m_view->comparisonSupplyGraph(0);
    QCPGraph *second = m_view->comparisonSupplyGraph(1);
    QVERIFY(first != second);
    QVERIFY(first->dataCount() > 2 && second->dataCount() > 2);
    QVERIFY2(first->name().contains(QStringLiteral("Larger cache")), qPrintable(first->name()));
    QVERIFY2(second->name().contains(QStringLiteral("Thread throttling")), qPrintable(second->name()));
    QVERIFY(m_view->plot()->legend->itemWithPlottable(first));
    QVERIFY(m_view->plot()->legend->itemWithPlottable(second));
    QVERIFY(first->pen().color().rgb() != second->pen().color().rgb());
    QCOMPARE(m_view->comparisonOperatingGraph(1)->data()->at(0)->key, core::XModel(fewer).solve().operatingPoint().k);
    double peak = 0;
    for (double f : m_eval->comparisons()[0].curves.f_gbs)
        peak = std::max(peak, f);
    QVERIFY2(peak > currentTop, qPrintable(QStringLiteral("peak %1, top %2").arg(peak).arg(currentTop)));
    const auto whole = [this, peak] {
        return m_view->plot()->yAxis->range().upper >= peak;
    };
    QVERIFY2(whole(), qPrintable(QStringLiteral("peak %1 above the top %2").arg(peak).arg(m_view->plot()->yAxis->range().upper)));
    PlotNavigator *nav = PlotNavigator::of(m_view->plot());
    nav->zoom(0.3, m_view->plot()->axisRect()->rect().center());
    m_view->plot()->replot();
    QVERIFY(!whole());
    nav->resetRanges(); // Home
    m_view->plot()->replot();
    QVERIFY(whole());
    // One taken off: its entry goes, the other stays.
    m_state->setComparisons({{fewer, QStringLiteral("Thread throttling")}});
    QVERIFY(m_view->comparisonSupplyGraph(0)->name().contains(QStringLiteral("Thread throttling")));
    QCOMPARE(m_view->comparisonSupplyGraph(1)->dataCount(), 0);
    QVERIFY(!m_view->plot()->legend->itemWithPlottable(m_view->comparisonSupplyGraph(1)));
}

void TestParameterPanel::aHeldSliderKeepsTheAxesStill()
{
    // While the n slider is held the axes stay put as long as the graph fits (a third more room once n runs past
    // the end), and the top axis keeps counting x = n - k; let go, and they fit the graph again.
    QCustomPlot *plot = m_view->plot();
    QSlider *slider = m_panel->slider(QStringLiteral("n"));
    const auto *info = core::findParameter("n");
    const double n0 = m_state->params().n;
    QCOMPARE(plot->xAxis->range().upper, n0);
    slider->setSliderDown(true);
    slider->setSliderPosition(ParameterPanel::sliderPosition(*info, n0 - 10));
    QCOMPARE(m_state->params().n, n0 - 10);
    QCOMPARE(plot->xAxis->range().upper, n0); // held
    QCOMPARE(plot->xAxis2->range().upper, n0 - 10); // x = n at k = 0
    QCOMPARE(plot->xAxis2->range().lower, -10.0);   // and below zero past k = n
    const double top = plot->yAxis->range().upper;
    slider->setSliderPosition(ParameterPanel::sliderPosition(*info, n0 - 11));
    QCOMPARE(plot->yAxis->range().upper, top);
    slider->setSliderPosition(ParameterPanel::sliderPosition(*info, n0 + 6));
    QCOMPARE(plot->xAxis->range().upper, std::ceil((n0 + 6) * 4 / 3)); // past the end: more room
    slider->setSliderDown(false);
    QCOMPARE(plot->xAxis->range().upper, n0 + 6); // let go: fitted
    QCOMPARE(plot->xAxis2->range().lower, 0.0);
}


QString TestParameterPanel::dragComparing(std::initializer_list<const char *> keys,
                                         const std::function<std::pair<QImage, QImage>()> &pictures, int &steps)
{
    for (const char *key : keys) {
        const auto *info = core::findParameter(key);
        QSlider *slider = m_panel->slider(QString::fromLatin1(key));
        const double start = m_state->params().*(info->member);
        slider->setSliderDown(true);
        for (double factor : {0.97, 0.94, 0.9, 1.05}) {
            slider->setSliderPosition(ParameterPanel::sliderPosition(*info, start * factor));
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
            const auto [a, b] = pictures();
            int differ = a.size() == b.size() ? 0 : a.width() * a.height();
            for (int y = 0; a.size() == b.size() && y < a.height(); ++y) {
                for (int x = 0; x < a.width(); ++x)
                    differ += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
            }
            ++steps;
            if (differ != 0) {
                slider->setSliderDown(false);
                return QStringLiteral("%1 at %2: %3 pixels differ")
                        .arg(QString::fromLatin1(key))
                        .arg(m_state->params().*(info->member))
                        .arg(differ);
            }
        }
        slider->setSliderDown(false);
        QCoreApplication::processEvents();
    }
    return {};
}

void TestParameterPanel::aDragRedrawsWithTheSamePixels()
{
    // A step of a drag redraws the X-graph without laying it out again while the layout holds; whichever way it
    // was drawn, the plot shows exactly what a full replot shows. Z rescales the right axis and n shifts the top
    // one (new tick labels), L and E move curves, landmarks and the legend's numbers.
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QCustomPlot *plot = m_view->plot();
    const SteadyPlot *steady = m_view->steadyPlot();
    QCoreApplication::processEvents();
    const int steadyBefore = steady->steadyRedraws();
    int steps = 0;
    const QString differ = dragComparing({"Z", "n", "L", "E"}, [plot] {
        const QImage drawn = plot->grab().toImage();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        return std::pair(drawn, plot->grab().toImage());
    }, steps);
    QVERIFY2(differ.isEmpty(), qPrintable(differ + QStringLiteral(" from a full replot")));
    // Most steps kept the layout (a step whose tick labels need other margins is laid out anew).
    QVERIFY2(steady->steadyRedraws() - steadyBefore >= steps / 2,
             qPrintable(QStringLiteral("%1 of %2 steps").arg(steady->steadyRedraws() - steadyBefore).arg(steps)));
}

void TestParameterPanel::directPaintShowsTheSamePicture()
{
    // The X-graph draws its layers straight onto the window when it paints; painted the way QCustomPlot paints
    // (layers drawn into a transparent buffer at the replot, the buffer blended over the background), it shows the
    // same picture, within a level or two of rounding where antialiased edges meet the background. Checked on
    // the default machine and a bistable one.
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    SteadyPlot *plot = m_view->steadyPlot();
    for (const double alpha : {0.0, 10.0}) {
        m_state->setCacheMode(core::CacheMode::Locality);
        m_state->setValue(QStringLiteral("alpha"), alpha > 0 ? alpha : 1.5);
        QVERIFY(plot->directPaint());
        QCoreApplication::processEvents();
        const int laidOut = plot->laidOutRedraws();
        const QImage direct = plot->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(plot->laidOutRedraws(), laidOut); // painted in the layout of the last redraw
        plot->setDirectPaint(false);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QImage buffered = plot->grab().toImage().convertToFormat(QImage::Format_RGB32);
        plot->setDirectPaint(true);
        QCOMPARE(direct.size(), buffered.size());
        int worst = 0;
        int ink = 0;
        for (int y = 0; y < direct.height(); ++y) {
            for (int x = 0; x < direct.width(); ++x) {
                const QRgb a = direct.pixel(x, y);
                const QRgb b = buffered.pixel(x, y);
                worst = std::max(worst, test::channelDifference(a, b));
                ink += qGray(b) < 128 ? 1 : 0;
            }
        }
        QVERIFY(ink > 1000); // a drawn plot, not two blank ones
        QVERIFY2(worst <= 2, qPrintable(QStringLiteral("alpha %1: a channel differs by %2").arg(alpha).arg(worst)));
    }
}

void TestParameterPanel::keptMarginsShowWhatAFullPaintShows()
{
    // While the axes hold still, a drag step repaints all but the axis rect's margins and the axes draw only their
    // lines there: what the window shows (its real pixels, not a new rendering) is what a full paint shows. Z
    // rescales the right axis (its margin painted again); L, E and R leave every axis as it was.
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    SteadyPlot *plot = m_view->steadyPlot();
    QCoreApplication::processEvents();
    const int keptBefore = plot->marginsKept();
    const QPoint at = plot->mapTo(m_view, QPoint(0, 0));
    int steps = 0;
    const QString differ = dragComparing({"L", "Z", "E", "R"}, [&] {
        const QImage shown = m_view->screen()
                                     ->grabWindow(m_view->winId(), at.x(), at.y(), plot->width(), plot->height())
                                     .toImage()
                                     .convertToFormat(QImage::Format_RGB32);
        return std::pair(shown, plot->grab().toImage().convertToFormat(QImage::Format_RGB32));
    }, steps);
    QVERIFY2(differ.isEmpty(), qPrintable(differ + QStringLiteral(" on the window from a full paint")));
    // The steps of L, E and R kept the margins (the first step of a drag may still lay the plot out).
    QVERIFY2(plot->marginsKept() - keptBefore >= steps / 2,
             qPrintable(QStringLiteral("%1 of %2 steps").arg(plot->marginsKept() - keptBefore).arg(steps)));
}

void TestParameterPanel::aCpuProfileCountsThreads()
{
    // A GPU counts warps on SMs; a CPU hardware threads on cores (one thread is the model's "warp").
    QVERIFY(m_panel->deviceFacts()->text().contains(QLatin1String("warps/SM")));
    QCOMPARE(m_panel->spinBox(QStringLiteral("n"))->suffix(), QStringLiteral(" warps"));
    m_state->applyProfile(*core::findBundledProfile("clovertown-x5365"));
    const QString facts = m_panel->deviceFacts()->text();
    QVERIFY2(facts.startsWith(QStringLiteral("8 cores × 3 GHz")), qPrintable(facts));
    QVERIFY(facts.contains(QLatin1String("up to 8 threads/core")));
    QVERIFY(!facts.contains(QLatin1String("warp")));
    QVERIFY(!facts.contains(QLatin1Char('%'))); // every placeholder filled
    QCOMPARE(m_panel->spinBox(QStringLiteral("n"))->suffix(), QStringLiteral(" threads"));
}

void TestParameterPanel::aMeasuredSupplySaysSoInTheCacheModeAndReadout()
{
    // The H100 sample, whose 16 KiB trace is f(k): the cache mode box no longer claims f(k) = k / Lm(k), and the
    // readout's delta, MLP and TLP say they are the parameters' (the measured curve need not turn at them).
    const core::Session session = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    QVERIFY(session.params.measured_f);
    core::XModelParams analytic = session.params;
    analytic.measured_f.reset();
    analytic.cache = core::CacheMode::None;
    m_state->setProfile(session.profile, analytic);
    ReadoutPanel readout(m_eval);
    QComboBox *mode = m_panel->cacheModeBox();
    const int none = mode->findData(int(core::CacheMode::None));
    QCOMPARE(mode->itemText(none), QStringLiteral("None: f(k) = k / Lm(k)"));
    QVERIFY(!readout.text().contains(QStringLiteral("(parameters)")));

    m_state->applySupplyCurve(session.params.measured_f, QStringLiteral("h100-16k"));
    QCOMPARE(mode->currentText(), QStringLiteral("None: measured f(k), then k / Lm(k)"));
    QVERIFY2(mode->toolTip().contains(QString::fromStdString(session.params.measured_f->source())), qPrintable(mode->toolTip()));
    QVERIFY(mode->toolTip().contains(QStringLiteral("replaces")));
    const QString text = readout.text();
    for (const char *row : {"δ, MS transition: ", "MLP of machine: ", "TLP of machine: "}) {
        const QString line = text.section(QString::fromUtf8(row), 1).section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(line.endsWith(QStringLiteral("(parameters)")), qPrintable(text));
    }

    m_state->undoStack()->undo(); // the analytic f(k) again
    QCOMPARE(mode->itemText(none), QStringLiteral("None: f(k) = k / Lm(k)"));
    QVERIFY(!readout.text().contains(QStringLiteral("(parameters)")));
}

QTEST_MAIN(TestParameterPanel)
#include "tst_parameter_panel.moc"
