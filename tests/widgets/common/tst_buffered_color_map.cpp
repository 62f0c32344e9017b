// SPDX-License-Identifier: GPL-3.0-or-later
// BufferedColorMap draws the same pixels as QCPColorMap given the same cells cell by cell.
#include "common/buffered_color_map.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace crossroof::widgets;

namespace {

std::vector<double> cellsOf(int keys, int values)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 3);
    std::vector<double> cells(std::size_t(keys) * std::size_t(values));
    for (std::size_t i = 0; i < cells.size(); ++i)
        cells[i] = i % 97 == 0 ? std::numeric_limits<double>::quiet_NaN() : u(rng);
    return cells;
}

QCPColorGradient gradient(bool transparentNan)
{
    QCPColorGradient g(QCPColorGradient::gpThermal);
    g.setNanHandling(transparentNan ? QCPColorGradient::nhTransparent : QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(0xBB, 0xBB, 0xBB));
    return g;
}

/// A plot of CELLS drawn by MAP, with the axes and range every case shares.
QImage draw(QCustomPlot &plot, QCPColorMap *map, bool transparentNan)
{
    map->setGradient(gradient(transparentNan));
    map->setInterpolate(false);
    map->setDataRange(QCPRange(-1, 3));
    plot.xAxis->setRange(-0.5, 10.5);
    plot.yAxis->setRange(-0.5, 5.5);
    plot.resize(520, 380);
    return plot.toPixmap(520, 380).toImage();
}

} // namespace

class TestBufferedColorMap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsWhatCellByCellDraws_data();
    void drawsWhatCellByCellDraws();
};

void TestBufferedColorMap::drawsWhatCellByCellDraws_data()
{
    QTest::addColumn<int>("keys");
    QTest::addColumn<int>("values");
    QTest::addColumn<bool>("transparentNan");
    QTest::newRow("400 x 300, grey NaN (coloured from the buffer)") << 400 << 300 << false;
    QTest::newRow("400 x 300, transparent NaN") << 400 << 300 << true;
    QTest::newRow("40 x 30 (oversampled, through QCPColorMapData)") << 40 << 30 << false;
}

void TestBufferedColorMap::drawsWhatCellByCellDraws()
{
    QFETCH(int, keys);
    QFETCH(int, values);
    QFETCH(bool, transparentNan);
    const std::vector<double> cells = cellsOf(keys, values);
    const QCPRange keyRange(0, 10), valueRange(0, 5);

    QCustomPlot reference;
    auto *plain = new QCPColorMap(reference.xAxis, reference.yAxis);
    plain->data()->setSize(keys, values);
    plain->data()->setRange(keyRange, valueRange);
    for (int j = 0; j < values; ++j) {
        for (int i = 0; i < keys; ++i)
            plain->data()->setCell(i, j, cells[std::size_t(j * keys + i)]);
    }
    const QImage expected = draw(reference, plain, transparentNan);

    QCustomPlot plot;
    auto *buffered = new BufferedColorMap(plot.xAxis, plot.yAxis);
    buffered->setCells(cells, keys, values, keyRange, valueRange);
    const QImage actual = draw(plot, buffered, transparentNan);
    QCOMPARE(buffered->data()->keySize(), keys);
    QCOMPARE(buffered->data()->valueSize(), values);
    QCOMPARE(actual.convertToFormat(QImage::Format_RGB32), expected.convertToFormat(QImage::Format_RGB32));

    // New cells of the same size are drawn at the next replot.
    std::vector<double> flat(cells.size(), 2.0);
    buffered->setCells(flat, keys, values, keyRange, valueRange);
    const QImage redrawn = plot.toPixmap(520, 380).toImage();
    QVERIFY(redrawn != actual);
    QCOMPARE(redrawn.pixelColor(260, 190), redrawn.pixelColor(200, 150)); // one colour over the map
}

QTEST_MAIN(TestBufferedColorMap)
#include "tst_buffered_color_map.moc"
