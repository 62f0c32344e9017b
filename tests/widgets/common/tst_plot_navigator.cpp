// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

using namespace crossroof::widgets;

/// Zoom, pan, fit and the crosshair on a real view (the X-graph, whose right axis is coupled to the left).
class TestPlotNavigator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void wheelZoomsAroundThePointer();
    void zoomSurvivesSliderMovesUntilHome();
    void dragPans();
    void doubleClickFits();
    void crosshairReadsTheAxes();
    void crosshairShowsAndGoes();
    void crosshairReadsThePointerAfterUndo();

private:
    void wheel(QPoint at, int notches);
    ParameterState *m_state = nullptr;
    XGraphView *m_view = nullptr;
    QCustomPlot *m_plot = nullptr;
};

void TestPlotNavigator::init()
{
    m_state = new ParameterState;
    auto *eval = new XModelEvaluation(m_state, m_state);
    m_view = new XGraphView(eval);
    m_view->resize(900, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    m_plot = m_view->plot();
    m_plot->replot();
    QVERIFY(PlotNavigator::of(m_plot));
}

void TestPlotNavigator::cleanup()
{
    delete m_view;
    delete m_state;
}

void TestPlotNavigator::wheel(QPoint at, int notches)
{
    QWheelEvent event(QPointF(at), m_plot->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(m_plot, &event);
}

void TestPlotNavigator::wheelZoomsAroundThePointer()
{
    const QCPRange x0 = m_plot->xAxis->range();
    const QCPRange y0 = m_plot->yAxis->range();
    const QPoint at = m_plot->axisRect()->rect().center() + QPoint(-50, 30);
    const double kAt = m_plot->xAxis->pixelToCoord(at.x());
    const double gbsAt = m_plot->yAxis->pixelToCoord(at.y());
    wheel(at, 2);
    QVERIFY(PlotNavigator::of(m_plot)->isZoomed());
    QVERIFY(m_plot->xAxis->range().size() < 0.8 * x0.size());
    QVERIFY(m_plot->yAxis->range().size() < 0.8 * y0.size());
    // The point under the pointer stays under it.
    QVERIFY(std::abs(m_plot->xAxis->pixelToCoord(at.x()) - kAt) < 1e-6 * x0.size());
    QVERIFY(std::abs(m_plot->yAxis->pixelToCoord(at.y()) - gbsAt) < 1e-6 * y0.size());
    wheel(at, -2);
    QVERIFY(std::abs(m_plot->xAxis->range().size() - x0.size()) < 1e-9 * x0.size());
}

void TestPlotNavigator::zoomSurvivesSliderMovesUntilHome()
{
    const double gopsPerGbs = m_plot->yAxis2->range().upper / m_plot->yAxis->range().upper;
    wheel(m_plot->axisRect()->rect().center(), 3);
    const QCPRange zoomedX = m_plot->xAxis->range();
    const QCPRange zoomedY = m_plot->yAxis->range();
    m_state->setValue(QStringLiteral("n"), 40); // the view sets its own ranges again
    m_plot->replot();
    QCOMPARE(m_plot->xAxis->range(), zoomedX);
    QCOMPARE(m_plot->yAxis->range(), zoomedY);
    // The right axis (Gop/s) stays the left axis (GB/s) times the view's factor.
    QVERIFY(std::abs(m_plot->yAxis2->range().upper / m_plot->yAxis->range().upper - gopsPerGbs)
            < 1e-9 * gopsPerGbs);
    // The top axis stays x = n - k of the bottom one, for the new n.
    const QCPRange k = m_plot->xAxis->range();
    QVERIFY(std::abs(m_plot->xAxis2->range().lower - (40 - k.upper)) < 1e-9 * k.size());
    QVERIFY(std::abs(m_plot->xAxis2->range().upper - (40 - k.lower)) < 1e-9 * k.size());

    m_plot->setFocus();
    QTest::keyClick(m_plot, Qt::Key_Home);
    QVERIFY(!PlotNavigator::of(m_plot)->isZoomed());
    QCOMPARE(m_plot->xAxis->range().upper, 40.0); // the view's range for n = 40: k in [0, n]
    QCOMPARE(m_plot->xAxis->range().lower, 0.0);
}

void TestPlotNavigator::dragPans()
{
    const QCPRange x0 = m_plot->xAxis->range();
    const QPoint a = m_plot->axisRect()->rect().center();
    const QPoint b = a + QPoint(100, 0);
    QTest::mousePress(m_plot, Qt::LeftButton, {}, a);
    QMouseEvent move(QEvent::MouseMove, QPointF(b), m_plot->mapToGlobal(QPointF(b)), Qt::LeftButton,
                     Qt::LeftButton, {});
    QCoreApplication::sendEvent(m_plot, &move);
    QTest::mouseRelease(m_plot, Qt::LeftButton, {}, b);
    m_plot->replot();
    const double perPixel = x0.size() / m_plot->axisRect()->width();
    QVERIFY(std::abs(m_plot->xAxis->range().size() - x0.size()) < 1e-9 * x0.size());
    QVERIFY(std::abs(m_plot->xAxis->range().lower - (x0.lower - 100 * perPixel)) < 1e-6 * x0.size());
}

void TestPlotNavigator::doubleClickFits()
{
    const QCPRange x0 = m_plot->xAxis->range();
    wheel(m_plot->axisRect()->rect().center(), 2);
    QVERIFY(m_plot->xAxis->range() != x0);
    QTest::mouseDClick(m_plot, Qt::LeftButton, {}, m_plot->axisRect()->rect().center());
    QCOMPARE(m_plot->xAxis->range(), x0);
}

void TestPlotNavigator::crosshairReadsTheAxes()
{
    const QPoint at = m_plot->axisRect()->rect().center();
    const QString text = PlotNavigator::of(m_plot)->readoutAt(at);
    QVERIFY2(text.contains(m_plot->xAxis->label()), qPrintable(text));
    // The throughputs by their titles, their values under the prefix that suits them ("CS throughput = 13.87
    // Top/s", where it read "CS throughput (Gop/s) = 1.387e+04"), never a power of ten.
    QVERIFY2(text.contains(QStringLiteral("MS throughput = ")) && text.contains(QStringLiteral("B/s")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("CS throughput = ")) && text.contains(QStringLiteral("op/s")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("e+")), qPrintable(text));
    QVERIFY(text.contains(QLatin1Char('=')));
    QVERIFY(PlotNavigator::of(m_plot)->readoutAt(QPoint(1, 1)).isEmpty()); // outside the axis rect
    QMouseEvent hover(QEvent::MouseMove, QPointF(at), m_plot->mapToGlobal(QPointF(at)), Qt::NoButton,
                      Qt::NoButton, {});
    QCoreApplication::sendEvent(m_plot, &hover);
    QCPLayer *overlay = m_plot->layer(QStringLiteral("crossroof-overlay"));
    QVERIFY(overlay);
    QCOMPARE(overlay->mode(), QCPLayer::lmBuffered);
    QVERIFY(overlay->visible());
    const auto children = overlay->children();
    const auto label = std::find_if(children.begin(), children.end(),
                                    [](QCPLayerable *l) { return qobject_cast<QCPItemText *>(l) != nullptr; });
    QVERIFY(label != children.end());
    QVERIFY((*label)->visible());
    QCOMPARE(qobject_cast<QCPItemText *>(*label)->text(), text);
}

void TestPlotNavigator::crosshairShowsAndGoes()
{
    // The crosshair lives on its own buffered layer, and the X-graph paints its layers straight onto the window:
    // every move of the pointer shows the lines where it is, and leaving the plot takes them away.
    QCoreApplication::processEvents();
    const QImage before = m_plot->grab().toImage();
    const QRect rect = m_plot->axisRect()->rect();
    const auto hover = [this](QPoint at) {
        QMouseEvent event(QEvent::MouseMove, QPointF(at), m_plot->mapToGlobal(QPointF(at)), Qt::NoButton,
                          Qt::NoButton, {});
        QCoreApplication::sendEvent(m_plot, &event);
        QCoreApplication::processEvents();
    };
    // Pixels of column X (or row Y) of IMAGE that differ from BEFORE, from one end of the axis rect to the other.
    const auto changedAlong = [&](const QImage &image, int x, int y) {
        int count = 0;
        if (x >= 0) {
            for (int row = rect.top() + 2; row < rect.bottom() - 2; ++row)
                count += image.pixel(x, row) != before.pixel(x, row) ? 1 : 0;
        } else {
            for (int column = rect.left() + 2; column < rect.right() - 2; ++column)
                count += image.pixel(column, y) != before.pixel(column, y) ? 1 : 0;
        }
        return count;
    };
    hover(rect.center());
    for (const QPoint at : {rect.center() + QPoint(37, 21), rect.center() - QPoint(80, 40)}) {
        hover(at); // the lines exist now: only the overlay's layer is replotted
        const QImage shown = m_plot->grab().toImage();
        // A dashed line: about half of its pixels, and more than a third of the height and of the width.
        QVERIFY2(changedAlong(shown, at.x(), -1) > rect.height() / 3, qPrintable(QString::number(at.x())));
        QVERIFY2(changedAlong(shown, -1, at.y()) > rect.width() / 3, qPrintable(QString::number(at.y())));
    }
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(m_plot, &leave);
    QCoreApplication::processEvents();
    QCOMPARE(m_plot->grab().toImage(), before);
}

void TestPlotNavigator::crosshairReadsThePointerAfterUndo()
{
    // The pointer rests on the plot while the axes change under it (undo of n, which rescales k): the
    // crosshair reads where the pointer is on the new axes, not the k it read before.
    PlotNavigator *navigator = PlotNavigator::of(m_plot);
    const QRect rect = m_plot->axisRect()->rect();
    const QPoint at = rect.center() + QPoint(rect.width() / 4, 0);
    m_state->applyValue(QStringLiteral("n"), 12);
    m_plot->replot();
    QMouseEvent hover(QEvent::MouseMove, QPointF(at), m_plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton, {});
    QCoreApplication::sendEvent(m_plot, &hover);
    const QString before = navigator->crosshairText();
    QCOMPARE(before, navigator->readoutAt(at));
    const QCPRange kBefore = m_plot->xAxis->range();
    m_state->undoStack()->undo();
    m_plot->replot();
    QVERIFY(m_plot->xAxis->range() != kBefore);
    QCOMPARE(navigator->crosshairText(), navigator->readoutAt(at));
    QVERIFY(navigator->crosshairText() != before);
    QVERIFY2(navigator->crosshairText().contains(QStringLiteral("= %1").arg(formatNumber(m_plot->xAxis->pixelToCoord(at.x())))),
             qPrintable(navigator->crosshairText()));
    // A replot that is queued (a slider's) updates it too.
    m_state->undoStack()->redo();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    QCoreApplication::processEvents();
    QCOMPARE(navigator->crosshairText(), navigator->readoutAt(at));
}

QTEST_MAIN(TestPlotNavigator)
#include "tst_plot_navigator.moc"
