// SPDX-License-Identifier: GPL-3.0-or-later
// SteadyPlot at a device pixel ratio of 2 (a HiDPI screen): its grid is kept as a picture, drawn again only when
// the grid changes, and shows what drawing the grid itself shows.
#include "common/steady_plot.h"

#include <QApplication>
#include <QTest>

#include <cmath>

using crossroof::widgets::SteadyPlot;

class TestSteadyPlot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theGridIsDrawnOnlyWhenItChanges()
    {
        SteadyPlot plot;
        plot.resize(500, 360);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QCOMPARE(plot.devicePixelRatioF(), 2.0);
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 5);
        plot.xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1));
        plot.yAxis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1));
        QCPGraph *curve = plot.addGraph();
        curve->setData(QVector<double> {0, 10}, QVector<double> {1, 4});
        plot.replot();
        plot.grab();
        const int drawn = plot.gridDraws();
        QVERIFY(drawn > 0);
        const int allocated = plot.picturesAllocated();
        QCOMPARE(allocated, 1);
        // Paints and redraws that leave the grid as it was blend the picture.
        for (int i = 0; i < 3; ++i) {
            curve->setData(QVector<double> {0, 10}, QVector<double> {1.0 + i, 4.0 - i});
            plot.requestRedraw();
            QCoreApplication::processEvents();
            plot.grab();
        }
        QCOMPARE(plot.gridDraws(), drawn);
        // A new range moves the lines: drawn again, once.
        plot.yAxis->setRange(0, 8); // tick labels as wide as before: the same layout
        plot.requestRedraw();
        QCoreApplication::processEvents();
        const QImage picture = plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(plot.gridDraws(), drawn + 1);
        // Drawn again into the picture it had (a new image of the plot's size at every drawing was most of a
        // drag step at a pixel ratio of 2).
        QCOMPARE(plot.picturesAllocated(), allocated);
        // The same pixels as the grid drawn by QCustomPlot's own paint (its buffer blended over the background),
        // along a vertical grid line away from the curve and over the whole of a horizontal one.
        plot.setDirectPaint(false);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage itself = plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(picture.size(), itself.size());
        const QRect rect = plot.axisRect()->rect();
        const int x = int(std::lround(plot.xAxis->coordToPixel(2) * 2));
        const int y = int(std::lround(plot.yAxis->coordToPixel(6) * 2));
        int differ = 0;
        for (int row = rect.top() * 2 + 4; row < rect.bottom() * 2 - 4; ++row)
            differ += picture.pixel(x, row) != itself.pixel(x, row);
        for (int column = rect.left() * 2 + 4; column < rect.right() * 2 - 4; ++column)
            differ += picture.pixel(column, y) != itself.pixel(column, y);
        QVERIFY2(differ == 0, qPrintable(QString::number(differ)));
        QVERIFY(picture.pixel(x, rect.center().y() * 2) != qRgb(255, 255, 255)); // a line is there
    }
};

int main(int argc, char **argv)
{
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    TestSteadyPlot test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_steady_plot.moc"
