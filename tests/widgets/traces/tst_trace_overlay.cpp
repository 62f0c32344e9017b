// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "common/steady_plot.h"
#include "support/image_compare.h"
#include "state/occupancy_state.h"
#include "core/profiles/profile_library.h"
#include "traces/trace_overlay.h"
#include "state/trace_state.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QSet>
#include <QPointer>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

core::MeasuredTrace fk(const std::string &name, double scale = 1)
{
    core::MeasuredTrace t;
    t.name = name;
    t.source = "/data/gpu-benches/stream/" + name + ".txt";
    t.kind = core::TraceKind::BandwidthVsWarps;
    for (int k = 2; k <= 64; k += 2) {
        t.x.push_back(k);
        t.y.push_back(scale * std::min(70.0 * k, 880.0));
    }
    return t;
}

core::MeasuredTrace kernels()
{
    core::MeasuredTrace t;
    t.name = "kernels";
    t.source = "/data/run.ncu.csv";
    t.kind = core::TraceKind::KernelPoints;
    t.x = {8, 16, 32};
    t.y = {500, 800, 880};
    t.extra = {4, std::nan(""), 64};
    t.labels = {"a", "b", "c"};
    return t;
}

core::MeasuredTrace runtimes()
{
    core::MeasuredTrace t;
    t.name = "apsp";
    t.source = "/data/apsp_runs.csv";
    t.kind = core::TraceKind::Runtimes;
    for (double br : {100.0, 400.0, 900.0, 1600.0, 2500.0}) {
        t.x.push_back(br);
        t.y.push_back(0.957 * std::sqrt(br) + 53.9 + (br == 900 ? 0.5 : 0));
    }
    return t;
}

/// Key and value of every point of every graph of the plot, to see that nothing else changed.
QVector<double> snapshot(const QList<QCPGraph *> &graphs)
{
    QVector<double> v;
    for (QCPGraph *g : graphs) {
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            v << it->key << (std::isnan(it->value) ? -2.0 : it->value); // the gaps, comparable
        v << -1;
    }
    return v;
}

QList<QCPGraph *> allGraphs(QCustomPlot *plot)
{
    QList<QCPGraph *> out;
    for (int i = 0; i < plot->graphCount(); ++i)
        out << plot->graph(i);
    return out;
}

bool inLegend(QCustomPlot *plot, QCPGraph *g)
{
    return plot->legend->hasItemWithPlottable(g);
}

} // namespace

class TestTraceOverlay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void tracesAppearAndDisappear();
    void otherGraphsAreUntouched();
    void kernelsShowThePredictionAndTheError();
    void modelPredictionFollowsTheState();
    void runtimesGoOnTheZigzagWithTheFit();
    void twelveDistinctColours();
    void aRefreshKeepsItsGraphs();
    void measuredPointsKeptAsAPicture();

private:
    ParameterState *m_state = nullptr;
    XModelEvaluation *m_eval = nullptr;
    TraceState *m_traces = nullptr;
    XGraphView *m_view = nullptr;
};

void TestTraceOverlay::init()
{
    m_state = new ParameterState;
    m_state->setProfile(*core::findBundledProfile("v100"), core::findBundledProfile("v100")->params);
    m_eval = new XModelEvaluation(m_state, m_state);
    m_traces = new TraceState(m_state);
    m_view = new XGraphView(m_eval);
    m_view->resize(900, 600);
}

void TestTraceOverlay::cleanup()
{
    delete m_view;
    delete m_state;
}

void TestTraceOverlay::tracesAppearAndDisappear()
{
    auto *overlay = new TraceOverlay(m_view->plot(), m_traces, TraceOverlay::Target::XGraph);
    const int base = m_view->plot()->graphCount();
    QVERIFY(overlay->graphs().isEmpty());

    const QStringList ids = m_traces->add({fk("v100"), fk("a100", 1.5)});
    QCOMPARE(overlay->graphs().size(), 2);
    QCOMPARE(m_view->plot()->graphCount(), base + 2);
    QCPGraph *first = overlay->graphsFor(ids[0]).value(0);
    QVERIFY(first);
    QCOMPARE(first->dataCount(), 32);
    QCOMPARE(first->name(), QStringLiteral("v100 (v100.txt)")); // names the source file
    QVERIFY(inLegend(m_view->plot(), first));
    QCOMPARE(first->scatterStyle().shape(), QCPScatterStyle::ssCircle);
    QCOMPARE(first->scatterStyle().brush().style(), Qt::NoBrush); // hollow

    m_traces->setVisible(ids[0], false);
    QVERIFY(overlay->graphsFor(ids[0]).isEmpty());
    QCOMPARE(overlay->graphsFor(ids[1]).size(), 1);
    QCOMPARE(m_view->plot()->graphCount(), base + 1);
    m_traces->setVisible(ids[0], true);
    QCOMPARE(m_view->plot()->graphCount(), base + 2);
    m_traces->remove(ids[1]);
    QVERIFY(overlay->graphsFor(ids[1]).isEmpty());
    QCOMPARE(m_view->plot()->graphCount(), base + 1);

    // Traces of other plots stay off the X-graph.
    m_traces->add(runtimes());
    QCOMPARE(m_view->plot()->graphCount(), base + 1);

    delete overlay; // takes its graphs with it, leaves the view's
    QCOMPARE(m_view->plot()->graphCount(), base);
}

void TestTraceOverlay::otherGraphsAreUntouched()
{
    const QList<QCPGraph *> before = allGraphs(m_view->plot());
    const QVector<double> data = snapshot(before);
    QStringList names;
    for (QCPGraph *g : before)
        names << g->name();

    TraceOverlay overlay(m_view->plot(), m_traces, TraceOverlay::Target::XGraph, nullptr);
    overlay.setPrediction(TraceOverlay::xmodelPrediction(m_state));
    const QStringList ids = m_traces->add({fk("v100"), kernels()});
    m_traces->setVisible(ids[0], false);
    m_traces->remove(ids[1]);
    m_traces->add(fk("again"));

    const QList<QCPGraph *> after = allGraphs(m_view->plot()).mid(0, before.size());
    QCOMPARE(after, before);
    QCOMPARE(snapshot(after), data);
    for (int i = 0; i < before.size(); ++i)
        QCOMPARE(before[i]->name(), names[i]);
    QVERIFY(m_view->supplyGraph()->dataCount() > 2); // thinned for drawing
}

void TestTraceOverlay::kernelsShowThePredictionAndTheError()
{
    TraceOverlay overlay(m_view->plot(), m_traces, TraceOverlay::Target::XGraph, nullptr);
    // Without a prediction: the stars alone.
    const QString id = m_traces->add(kernels());
    QCOMPARE(overlay.graphsFor(id).size(), 1);
    QCOMPARE(overlay.graphsFor(id).front()->scatterStyle().shape(), QCPScatterStyle::ssCustom);

    QList<std::pair<double, double>> asked;
    overlay.setPrediction([&asked](double warps, double z) -> std::optional<double> {
        asked.append({warps, z});
        return 2 * warps * 10;
    });
    const QList<QCPGraph *> graphs = overlay.graphsFor(id);
    QCOMPARE(graphs.size(), 3); // stars, error lines, predictions
    QCOMPARE(asked.size(), 3);
    QCOMPARE(asked[0].second, 4.0);
    QVERIFY(std::isnan(asked[1].second)); // Z not measured: the callback decides
    QCPGraph *stars = graphs[0];
    QCPGraph *lines = graphs[1];
    QCPGraph *model = graphs[2];
    QCOMPARE(model->dataCount(), 3);
    QCOMPARE(model->data()->at(0)->value, 160.0);
    QCOMPARE(lines->dataCount(), 9); // measured, predicted, gap per kernel
    QCOMPARE(lines->data()->at(0)->value, 500.0);
    QCOMPARE(lines->data()->at(1)->value, 160.0);
    QVERIFY(!inLegend(m_view->plot(), lines));
    // Mean |error| = (340/500 + 480/800 + 240/880) / 3 = 52 %.
    QVERIFY2(stars->name().contains(QStringLiteral("52 %")), qPrintable(stars->name()));
    QVERIFY(stars->name().contains(QStringLiteral("run.ncu.csv")));
    // Over 100 % in whole numbers (the H100 family under the thrashing sample read "1.3e+02 %").
    overlay.setPrediction([](double warps, double) -> std::optional<double> { return 300 * warps; });
    // Predicted 2400, 4800, 9600 for the measured 500, 800, 880: (380 + 500 + 990.9) / 3 = 623.6 %.
    QVERIFY2(overlay.graphsFor(id).front()->name().contains(QStringLiteral("off 624 %")),
             qPrintable(overlay.graphsFor(id).front()->name()));
}

void TestTraceOverlay::modelPredictionFollowsTheState()
{
    const auto predict = TraceOverlay::xmodelPrediction(m_state);
    // Memory-bound (Z tiny) at all 64 warps: the plateau R.
    const auto high = predict(64, 0.5);
    QVERIFY(high);
    QVERIFY(std::abs(*high - m_state->params().R) < 1e-6 * m_state->params().R);
    // Fractional warps interpolate between whole ones.
    const auto a = predict(10, 8), b = predict(11, 8), mid = predict(10.5, 8);
    QVERIFY(a && b && mid);
    QVERIFY(std::abs(*mid - (*a + *b) / 2) < 1e-9 * *b);
    // NaN Z: the state's Z.
    QCOMPARE(*predict(20, std::nan("")), *predict(20, m_state->params().Z));
    m_state->setValue(QStringLiteral("R"), 500);
    QVERIFY(std::abs(*predict(64, 0.5) - 500) < 1e-6);
    QVERIFY(!predict(0, 8));
}

void TestTraceOverlay::aRefreshKeepsItsGraphs()
{
    // Every model change refreshes the overlay (the predictions move): the same graphs, and so the same legend
    // entries, are drawn again with the new data; what the traces show decides when graphs come and go.
    TraceOverlay overlay(m_view->plot(), m_traces, TraceOverlay::Target::XGraph, nullptr);
    double scale = 10;
    overlay.setPrediction([&scale](double warps, double) -> std::optional<double> { return scale * warps; });
    const QStringList ids = m_traces->add({fk("v100"), kernels()});
    const QList<QCPGraph *> before = overlay.graphs();
    QCOMPARE(before.size(), 4); // the stream curve; the kernels' stars, error lines and predictions
    const int legendEntries = m_view->plot()->legend->itemCount();
    const QList<QPointer<QCPGraph>> guarded(before.begin(), before.end()); // null once a graph is deleted
    scale = 20;
    overlay.refresh();
    QCOMPARE(overlay.graphs(), before);
    QVERIFY(std::all_of(guarded.begin(), guarded.end(), [](const QPointer<QCPGraph> &g) { return !g.isNull(); }));
    QCOMPARE(m_view->plot()->legend->itemCount(), legendEntries);
    QCOMPARE(overlay.graphsFor(ids[1])[2]->data()->at(0)->value, 20 * 8.0); // new predictions, not added ones
    QCOMPARE(overlay.graphsFor(ids[1])[2]->dataCount(), 3);
    // A selected kernel is ringed: a graph more, in its place among the kernels' graphs.
    overlay.setHighlighted({QStringLiteral("a")});
    QCOMPARE(overlay.graphsFor(ids[1]).size(), 4);
    QCOMPARE(overlay.graphs().mid(0, 2), before.mid(0, 2)); // the curve and the stars kept
    QVERIFY(guarded[0] && guarded[1]);
    QCOMPARE(overlay.graphsFor(ids[1])[1]->scatterStyle().size(), 26.0); // the rings, after the stars
    QVERIFY(!inLegend(m_view->plot(), overlay.graphsFor(ids[1])[1]));
    QVERIFY(inLegend(m_view->plot(), overlay.graphsFor(ids[1])[3])); // the predictions
    QCOMPARE(m_view->plot()->graphCount(), allGraphs(m_view->plot()).size());
    // Hidden, the stream curve's graph goes (the kernels' are drawn anew after it).
    m_traces->setVisible(ids[0], false);
    QVERIFY(overlay.graphsFor(ids[0]).isEmpty());
    QCOMPARE(overlay.graphsFor(ids[1]).size(), 4);
}

void TestTraceOverlay::measuredPointsKeptAsAPicture()
{
    // The X-graph keeps its measured points (on their own layer over the model's curves) as a picture while a
    // drag of n moves only the model: each kernel's prediction is at its own warps, so the points, the
    // predictions and the error lines stay, and the picture is not drawn again. What the window shows is what
    // drawing every marker again shows; an R change moves the predictions and draws the picture anew.
    auto *overlay = new TraceOverlay(m_view->plot(), m_traces, TraceOverlay::Target::XGraph, m_view);
    overlay->setPrediction(TraceOverlay::xmodelPrediction(m_state));
    connect(m_eval, &XModelEvaluation::updated, overlay, &TraceOverlay::refresh);
    m_traces->add({fk("v100"), kernels()});
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    SteadyPlot *plot = m_view->steadyPlot();
    QCPLayer *layer = plot->layer(QStringLiteral("crossroof-measured"));
    QVERIFY(layer);
    QCOMPARE(layer->children().size(), overlay->graphs().size());
    QCOMPARE(plot->layer(QStringLiteral("main"))->index() + 1, layer->index()); // over the model, as before
    m_state->setValue(QStringLiteral("n"), 16); // the drag's first step
    QCoreApplication::processEvents();
    plot->grab();
    const int draws = plot->cachedLayerDraws();
    QVERIFY(draws >= 1);
    QList<QImage> shown;
    for (const double n : {20.0, 24.0, 28.0, 32.0}) {
        m_state->setValue(QStringLiteral("n"), n);
        QCoreApplication::processEvents();
        shown << plot->grab().toImage();
    }
    QCOMPARE(plot->cachedLayerDraws(), draws);
    plot->setCachedLayer(nullptr);
    const QImage direct = plot->grab().toImage();
    QCOMPARE(direct.size(), shown.back().size());
    QVERIFY(direct != shown.front()); // the model moved
    const int worst = test::largestChannelDifference(shown.back(), direct);
    QVERIFY2(worst <= 2, qPrintable(QString::number(worst)));
    plot->setCachedLayer(layer);
    plot->grab();
    const int before = plot->cachedLayerDraws();
    m_state->setValue(QStringLiteral("R"), m_state->params().R / 2);
    QCoreApplication::processEvents();
    plot->grab();
    QCOMPARE(plot->cachedLayerDraws(), before + 1);
}

void TestTraceOverlay::runtimesGoOnTheZigzagWithTheFit()
{
    OccupancyState occupancy(m_state);
    ZigzagView zigzag(&occupancy);
    QCustomPlot *plot = zigzag.plot();
    const int base = plot->graphCount();
    TraceOverlay overlay(plot, m_traces, TraceOverlay::Target::Zigzag);
    QVERIFY(!plot->yAxis2->visible());
    m_traces->add(fk("not here"));
    QCOMPARE(plot->graphCount(), base);

    const QString id = m_traces->add(runtimes());
    const QList<QCPGraph *> graphs = overlay.graphsFor(id);
    QCOMPARE(graphs.size(), 2); // measured points and the Eq. 15 fit
    QCOMPARE(graphs[0]->valueAxis(), plot->yAxis2);
    QCOMPARE(graphs[0]->name(), QStringLiteral("apsp (apsp_runs.csv)"));
    QVERIFY(plot->yAxis2->visible());
    QCOMPARE(plot->yAxis2->label(), QStringLiteral("measured time (s)"));
    QVERIFY(plot->yAxis2->range().upper > 100);
    QVERIFY2(graphs[1]->name().contains(QStringLiteral("r² = 0.99")), qPrintable(graphs[1]->name()));
    QVERIFY(graphs[1]->name().contains(QStringLiteral("0.95")));
    QVERIFY(std::abs(graphs[1]->data()->at(0)->value - (0.957 * 10 + 53.9)) < 0.5);

    m_traces->setVisible(id, false);
    QVERIFY(!plot->yAxis2->visible());
    QCOMPARE(plot->graphCount(), base);
}

void TestTraceOverlay::twelveDistinctColours()
{
    QSet<QRgb> seen;
    for (int i = 0; i < 12; ++i) {
        const QRgb c = widgets::seriesColour(i).rgb();
        QVERIFY2(!seen.contains(c), qPrintable(QString::number(i)));
        QVERIFY(c != widgets::plot_style::kBlue.rgb() && c != widgets::plot_style::kVermillion.rgb());
        seen.insert(c);
    }
    QCOMPARE(widgets::seriesColour(12), widgets::seriesColour(0));
    // Each stands out from a white plot: at least 2:1 against white (WCAG's contrast ratio of relative
    // luminances), where Okabe-Ito's yellow (1.3:1) and Tol's sand (1.6:1) were all but invisible lines.
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    for (int i = 0; i < 12; ++i) {
        const double contrast = 1.05 / (luminance(widgets::seriesColour(i)) + 0.05);
        QVERIFY2(contrast >= 2, qPrintable(QStringLiteral("colour %1: %2:1").arg(i).arg(contrast, 0, 'f', 2)));
    }
}

QTEST_MAIN(TestTraceOverlay)
#include "tst_trace_overlay.moc"
