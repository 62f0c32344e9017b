// SPDX-License-Identifier: GPL-3.0-or-later
// The figure's marks in every format and style: outlines of one weight in PNG and PDF, markers that tell
// series apart in greyscale, operating points drawn whole at the plot's edge, and a legend that names only
// what is drawn, mid-drag too.
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "core/profiles/profile_library.h"
#include "stability/stability_map_plot.h"
#include "export/export_guard.h"
#include "export/figure_export.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <algorithm>
#include <set>

using namespace crossroof;
using namespace crossroof::widgets;

class TestFigureMarks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void markersWeighTheSameInEveryFormat();
    void greyscaleTellsTracesApartByShape();
    void operatingPointsAreWholeAtTheEdge();
    void aDragNamesOnlyWhatIsDrawn();

private:
    QTemporaryDir *m_dir = nullptr;
    ParameterState *m_state = nullptr;
    XModelEvaluation *m_eval = nullptr;
    XGraphView *m_view = nullptr;
};

void TestFigureMarks::init()
{
    m_dir = new QTemporaryDir;
    m_state = new ParameterState;
    m_eval = new XModelEvaluation(m_state, m_state);
    m_view = new XGraphView(m_eval);
    m_view->resize(900, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void TestFigureMarks::cleanup()
{
    delete m_view;
    delete m_state;
    delete m_dir;
}

namespace {
/// A graph that remembers how wide, in points on paper, the outline of the markers it last drew was: its pen
/// in canvas units through the painter's mapping onto the device, at the device's resolution.
struct PenRecordingGraph : QCPGraph
{
    using QCPGraph::QCPGraph;
    double outlinePt = 0;
    void draw(QCPPainter *painter) override
    {
        const double devicePerUnit = std::hypot(painter->deviceTransform().m11(), painter->deviceTransform().m12());
        outlinePt = scatterStyle().pen().widthF() * devicePerUnit * 72.0 / painter->device()->logicalDpiX();
        QCPGraph::draw(painter);
    }
};
} // namespace

void TestFigureMarks::markersWeighTheSameInEveryFormat()
{
    // A ring of 1.5 screen pixels is 1.5 × line_pt points on paper in the PNG as in the PDF, at every preset
    // (the SVG's stroke widths: presetsScaleTextAndLines()).
    auto *rings = new PenRecordingGraph(m_view->plot()->xAxis, m_view->plot()->yAxis);
    rings->setData(QVector<double>{10, 20, 30}, QVector<double>{100, 200, 300});
    rings->setLineStyle(QCPGraph::lsNone);
    rings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::NoBrush, 9));
    for (const FigurePreset &preset : figurePresets()) {
        const FigureOptions o = withPreset(FigureOptions{}, preset);
        QList<double> weights;
        for (const char *suffix : {"png", "pdf"}) {
            rings->outlinePt = 0;
            QCOMPARE(exportFigure(m_view->figurePlots(), m_dir->filePath(preset.id + QLatin1Char('.') + suffix), o),
                     QString());
            weights << rings->outlinePt;
        }
        for (double pt : weights)
            QVERIFY2(std::abs(pt - 1.5 * preset.line_pt) < 0.02 * preset.line_pt,
                     qPrintable(QStringLiteral("%1: PNG %2 pt, PDF %3 pt").arg(preset.id).arg(weights[0]).arg(weights[1])));
    }
    m_view->plot()->removeGraph(rings);
}

namespace {
/// A graph that remembers the marker shape it last drew.
struct ShapeRecordingGraph : QCPGraph
{
    using QCPGraph::QCPGraph;
    int drawnShape = -1;
    void draw(QCPPainter *painter) override
    {
        drawnShape = scatterStyle().shape();
        QCPGraph::draw(painter);
    }
};
} // namespace

void TestFigureMarks::greyscaleTellsTracesApartByShape()
{
    // Six traces told apart on screen by colour alone (hollow circles in the palette's colours, as six
    // gpu-benches stream traces are) each get a marker shape of their own in greyscale, none the plot's
    // operating point or stable point already has; in colour, and on screen afterwards, they keep their circles.
    QCustomPlot *plot = m_view->plot();
    const QColor palette[] = {plot_style::kOrange, plot_style::kSky,  plot_style::kGreen,
                              plot_style::kBlue,   plot_style::kPurple, plot_style::kVermillion};
    QList<ShapeRecordingGraph *> traces;
    for (int i = 0; i < 6; ++i) {
        auto *trace = new ShapeRecordingGraph(plot->xAxis, plot->yAxis);
        trace->setData(QVector<double>{4.0 + i, 20.0 + i, 40.0 + i}, QVector<double>{150.0 + 50 * i, 600, 800});
        trace->setPen(QPen(palette[i], 1));
        trace->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(palette[i], 1.5),
                                               Qt::NoBrush, 7));
        traces << trace;
    }
    FigureOptions o;
    o.dpi = 100;
    o.style = FigureStyle::Greyscale;
    // The shapes the plot's other marks have in greyscale (the curves get markers there too).
    std::set<int> others;
    {
        const figure::ExportGuard guard(m_view->figurePlots(), o);
        for (int i = 0; i < plot->graphCount(); ++i) {
            const bool trace = std::any_of(traces.cbegin(), traces.cend(), [&](const ShapeRecordingGraph *t) {
                return static_cast<const QCPGraph *>(t) == plot->graph(i);
            }); // compared as graphs: the plot's other graphs are no ShapeRecordingGraph to cast to
            if (!trace && !plot->graph(i)->scatterStyle().isNone())
                others.insert(plot->graph(i)->scatterStyle().shape());
        }
    }
    QVERIFY(!renderFigure(m_view->figurePlots(), o).isNull());
    std::set<int> shapes;
    for (ShapeRecordingGraph *trace : traces)
        shapes.insert(trace->drawnShape);
    QCOMPARE(int(shapes.size()), 6);
    for (ShapeRecordingGraph *trace : traces.mid(1))
        QVERIFY2(!others.count(trace->drawnShape), "a trace's marker is another mark's shape");
    for (ShapeRecordingGraph *trace : traces)
        QCOMPARE(trace->scatterStyle().shape(), QCPScatterStyle::ssCircle);
    o.style = FigureStyle::Colour;
    QVERIFY(!renderFigure(m_view->figurePlots(), o).isNull());
    for (ShapeRecordingGraph *trace : traces)
        QCOMPARE(trace->drawnShape, int(QCPScatterStyle::ssCircle));
    for (ShapeRecordingGraph *trace : traces)
        plot->removeGraph(trace);
}

namespace {
/// Whether PLOT draws GRAPH's mark past its axis rect's edge: the pixels outside the rect change when the graph
/// is drawn.
bool drawsPastTheEdge(QCustomPlot *plot, QCPGraph *graph)
{
    // As the widget paints it (the stability map's point has a buffered layer of its own).
    plot->replot();
    const QImage with = plot->grab().toImage();
    graph->setVisible(false);
    plot->replot();
    const QImage without = plot->grab().toImage();
    graph->setVisible(true);
    plot->replot();
    const QRect rect = plot->axisRect()->rect();
    const qreal dpr = with.devicePixelRatio();
    for (int y = 0; y < with.height(); ++y) {
        for (int x = 0; x < with.width(); ++x) {
            if (!rect.contains(QPoint(int(x / dpr), int(y / dpr))) && with.pixel(x, y) != without.pixel(x, y))
                return true;
        }
    }
    return false;
}
} // namespace

void TestFigureMarks::operatingPointsAreWholeAtTheEdge()
{
    // The X-graph's operating point at the origin and the stability map's current point in its last cell are
    // drawn whole, over the axis rect's edge, not cut in half by it.
    QCustomPlot *plot = m_view->plot();
    m_view->operatingGraph()->setData({plot->xAxis->range().lower}, {plot->yAxis->range().lower});
    QVERIFY(drawsPastTheEdge(plot, m_view->operatingGraph()));

    StabilityMapPlot map;
    map.resize(500, 360);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    core::StabilityMap cells;
    cells.x = {"n", 1, 48, 8, false};
    cells.y = {"Z", 1, 8, 6, false};
    for (int i = 0; i < 8; ++i)
        cells.x_values.push_back(1 + i * 47.0 / 7);
    for (int j = 0; j < 6; ++j)
        cells.y_values.push_back(1 + j * 7.0 / 5);
    cells.stable_count.assign(48, 1);
    cells.operating_gbs.assign(48, 100);
    cells.completed_stride = 1;
    map.showMap(cells);
    // The map's corner: the point as far as a drag on the map takes it.
    map.markPoint(map.xAxis->range().upper, map.yAxis->range().lower, true);
    QVERIFY(drawsPastTheEdge(&map, map.currentPoint()));
    // In greyscale the ⊗ keeps its light fill: a black one hid the cross, a black disc on a dark map.
    FigureOptions grey;
    grey.style = FigureStyle::Greyscale;
    const figure::ExportGuard guard({&map}, grey);
    QCOMPARE(map.currentPoint()->scatterStyle().brush().color().rgb(), qRgb(255, 255, 255));
    QCOMPARE(map.currentPoint()->scatterStyle().shape(), QCPScatterStyle::ssCrossCircle);
}

void TestFigureMarks::aDragNamesOnlyWhatIsDrawn()
{
    // The GTX 570's thrashing workload has two stable states, an unstable one between and two basins, all named
    // in the legend. Dragged to few warps mid-drag (the legend keeps its layout while a slider is held), the
    // legend shows no entry for an unstable point or basins the plot no longer draws.
    const auto profile = core::findBundledProfile("gtx570-sp");
    QVERIFY(profile);
    m_state->setProfile(*profile, profile->params);
    m_state->setValue(QStringLiteral("n"), 48);
    const auto shownTexts = [this] {
        QStringList texts;
        QCPLegend *legend = m_view->plot()->legend;
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (!item || !item->visible())
                continue;
            if (auto *own = qobject_cast<QCPPlottableLegendItem *>(item))
                texts << own->plottable()->name();
            else if (const QVariant text = item->property("text"); text.isValid())
                texts << text.toString();
            else
                texts << QString::fromLatin1(item->metaObject()->className());
        }
        return texts;
    };
    QVERIFY(shownTexts().contains(QStringLiteral("unstable")));
    QCOMPARE(m_view->basins().size(), 2);
    m_state->beginInteraction();
    for (double n = 47; n >= 2; n -= 5) {
        m_state->setValue(QStringLiteral("n"), n);
        m_view->plot()->replot();
        const QStringList shown = shownTexts();
        if (m_view->unstableGraph()->data()->isEmpty())
            QVERIFY2(!shown.contains(QStringLiteral("unstable")), qPrintable(QStringLiteral("n = %1: %2").arg(n).arg(shown.join(QStringLiteral(" | ")))));
        if (m_view->basins().size() < 2)
            QVERIFY2(shown.filter(QStringLiteral("asin")).isEmpty() && !shown.contains(QStringLiteral("IconLegendItem")),
                     qPrintable(QStringLiteral("n = %1: %2").arg(n).arg(shown.join(QStringLiteral(" | ")))));
    }
    QVERIFY(m_view->unstableGraph()->data()->isEmpty()); // the drag did leave the bistable stretch
    m_state->endInteraction();
}

QTEST_MAIN(TestFigureMarks)
#include "tst_figure_marks.moc"
