// SPDX-License-Identifier: GPL-3.0-or-later
// The figure's marks in every format and style: outlines of one weight in PNG and PDF, and markers that tell
// series apart in greyscale.
#include "common/parameter_state.h"
#include "common/plot_style.h"
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

QTEST_MAIN(TestFigureMarks)
#include "tst_figure_marks.moc"
