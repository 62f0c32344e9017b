// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "export/figure_export.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QImage>
#include <QPalette>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    return p;
}

/// The colour of the plot's top left pixel: its background.
QColor corner(QCustomPlot *plot)
{
    return plot->toPixmap().toImage().pixelColor(1, 1);
}

} // namespace

class TestPlotStyle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        QApplication::setPalette(m_light);
        m_state = std::make_unique<ParameterState>();
        m_eval = new XModelEvaluation(m_state.get(), m_state.get());
        m_view = std::make_unique<XGraphView>(m_eval);
        m_view->resize(800, 500);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup()
    {
        m_view.reset();
        m_state.reset();
        QApplication::setPalette(m_light);
    }

    void logAxesTickAtDecadesOrOneTwoFive()
    {
        // Less than two decades (a CPI slice from 0.9 to 23): 1, 2, 5, 10, 20, no linear 12.5, 15, 17.5 crowding
        // the top; more: the decades.
        QCustomPlot plot;
        plot.resize(400, 400);
        plot_style::setLogScale(plot.yAxis, true);
        const auto ticks = [&plot](double lower, double upper) {
            plot.yAxis->setRange(lower, upper);
            plot.replot();
            QVector<double> inRange;
            for (double t : plot.yAxis->tickVector()) {
                if (plot.yAxis->range().contains(t))
                    inRange << t;
            }
            return inRange;
        };
        QCOMPARE(ticks(0.9, 23), (QVector<double>{1, 2, 5, 10, 20}));
        QCOMPARE(ticks(0.001, 1000), (QVector<double>{0.001, 0.01, 0.1, 1, 10, 100, 1000}));
    }

    void legendEntrySizeFollowsTheEntry()
    {
        // The remembered size of a legend entry is the one QCustomPlot measures, whatever changed since.
        QCustomPlot plot;
        plot.legend->setVisible(true);
        QCPGraph *graph = plot.addGraph();
        graph->setName(QStringLiteral("f(k)"));
        QCPAbstractLegendItem *item = plot.legend->itemWithPlottable(graph);
        QVERIFY(item);
        const QSize first = plot_style::legendEntrySize(item);
        QCOMPARE(first, item->minimumOuterSizeHint());
        QCOMPARE(plot_style::legendEntrySize(item), first);
        graph->setName(QStringLiteral("f(k), MS supply with a long name"));
        QVERIFY(plot_style::legendEntrySize(item).width() > first.width());
        QCOMPARE(plot_style::legendEntrySize(item), item->minimumOuterSizeHint());
        QFont big = item->font();
        big.setPointSizeF(big.pointSizeF() * 2);
        item->setFont(big);
        QCOMPARE(plot_style::legendEntrySize(item), item->minimumOuterSizeHint());
        plot.legend->setIconSize(60, 40);
        QCOMPARE(plot_style::legendEntrySize(item), item->minimumOuterSizeHint());
        plot.legend->setIconTextPadding(30);
        QCOMPARE(plot_style::legendEntrySize(item), item->minimumOuterSizeHint());
        item->setMargins(QMargins(20, 1, 20, 1));
        QCOMPARE(plot_style::legendEntrySize(item), item->minimumOuterSizeHint());
    }

    void lightPaletteDrawsBlackOnWhite()
    {
        QCustomPlot *plot = m_view->plot();
        QVERIFY(!plot_style::isDark(plot->palette()));
        QCOMPARE(corner(plot), QColor(Qt::white));
        QCOMPARE(plot->xAxis->labelColor(), QColor(Qt::black));
        QCOMPARE(m_view->stableGraph()->scatterStyle().pen().color(), QColor(Qt::black));
    }

    void darkPaletteRecoloursInkAndPaper()
    {
        QCustomPlot *plot = m_view->plot();
        const QColor supply = m_view->supplyGraph()->pen().color();
        const QColor gridAlpha = plot->xAxis->grid()->pen().color();
        const QImage before = plot->toPixmap().toImage();
        const double z = m_state->params().Z;

        const QPalette dark = darkPalette();
        QApplication::setPalette(dark);
        QCoreApplication::processEvents();
        QVERIFY(plot_style::isDark(plot->palette()));
        const QColor ink = dark.color(QPalette::WindowText);
        const QColor paper = dark.color(QPalette::Base);
        QCOMPARE(corner(plot), paper);
        QCOMPARE(plot->xAxis->labelColor(), ink);
        QCOMPARE(plot->yAxis->tickLabelColor(), ink);
        QCOMPARE(plot->xAxis->basePen().color(), ink);
        QCOMPARE(plot->xAxis->grid()->pen().color().rgb(), ink.rgb());
        QCOMPARE(plot->xAxis->grid()->pen().color().alpha(), gridAlpha.alpha()); // as faint as before
        QCOMPARE(plot->legend->textColor(), ink);
        QCOMPARE(m_view->stableGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(m_view->unstableGraph()->scatterStyle().brush().color(), paper); // hollow: the background
        QCOMPARE(m_view->supplyGraph()->pen().color(), supply); // the coloured series keep their colours

        // A view that sets its pens again as it updates: they follow before the replot.
        m_state->setValue(QStringLiteral("Z"), 3.0);
        plot->replot();
        QCOMPARE(m_view->stableGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(plot->xAxis->labelColor(), ink);

        // A figure is black on white whatever the screen, and the screen is dark again after it.
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("figure.png"));
        QCOMPARE(exportFigure(m_view->figurePlots(), png, FigureOptions{}), QString());
        const QImage figure(png);
        QVERIFY(!figure.isNull());
        QCOMPARE(figure.pixelColor(2, 2), QColor(Qt::white));
        int dark_pixels = 0;
        for (int y = 0; y < figure.height(); y += 7) {
            for (int x = 0; x < figure.width(); x += 7)
                dark_pixels += figure.pixelColor(x, y).lightness() < 60 ? 1 : 0;
        }
        QVERIFY2(dark_pixels > 20, "black ink in the figure");
        QCOMPARE(corner(plot), paper);
        QCOMPARE(m_view->stableGraph()->scatterStyle().pen().color(), ink);

        // Back to a light palette: the plot is drawn exactly as before the dark one.
        QApplication::setPalette(m_light);
        QCoreApplication::processEvents();
        QCOMPARE(corner(plot), QColor(Qt::white));
        QCOMPARE(m_view->stableGraph()->scatterStyle().pen().color(), QColor(Qt::black));
        QCOMPARE(plot->xAxis->grid()->pen().color(), gridAlpha);
        m_state->setValue(QStringLiteral("Z"), z);
        plot->replot();
        QCOMPARE(plot->toPixmap().toImage(), before);
    }

    void narrowAxesShowTheirShortTitles()
    {
        // A title longer than its axis shows the short one on screen; the full one comes back with room, and a
        // figure (which fits its own titles) starts from the full one and leaves the screen as it was.
        QCustomPlot plot;
        const QString full = QStringLiteral("a long axis title that needs far more than two hundred pixels");
        plot.xAxis->setLabel(full);
        plot_style::setShortLabel(plot.xAxis, QStringLiteral("k (warps)"));
        plot.resize(200, 150);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        // One replot: it lays the axis rect out at this size, and the title is chosen again in that layout.
        plot.replot();
        QTRY_COMPARE(plot.xAxis->label(), QStringLiteral("k (warps)"));
        QCOMPARE(plot_style::fullLabel(plot.xAxis), full);

        QTemporaryDir dir;
        FigureOptions options;
        options.width_mm = 178;
        QCOMPARE(exportFigure({&plot}, dir.filePath(QStringLiteral("f.png")), options), QString());
        QCOMPARE(plot.xAxis->label(), QStringLiteral("k (warps)"));

        plot.resize(1400, 300);
        QTRY_COMPARE(plot.xAxis->label(), full);
        // Narrow again, with no replot of a view's: the resize's own replot chose by the wide layout before it,
        // and the title is chosen again in the narrow one (the full title stayed, cut, before).
        plot.resize(200, 150);
        QTRY_COMPARE(plot.xAxis->label(), QStringLiteral("k (warps)"));
        plot.resize(1400, 300);
        QTRY_COMPARE(plot.xAxis->label(), full);
        // A new full title set by the view replaces the remembered one.
        plot.xAxis->setLabel(QStringLiteral("k"));
        plot.replot();
        QCOMPARE(plot_style::fullLabel(plot.xAxis), QStringLiteral("k"));
    }

private:
    const QPalette m_light = QApplication::palette();
    std::unique_ptr<ParameterState> m_state;
    XModelEvaluation *m_eval = nullptr;
    std::unique_ptr<XGraphView> m_view;
};

QTEST_MAIN(TestPlotStyle)
#include "tst_plot_style.moc"
