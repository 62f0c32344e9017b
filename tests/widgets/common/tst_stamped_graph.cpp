// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/plot_style.h"
#include "common/stamped_graph.h"

#include <QRandomGenerator>
#include <QPainterPath>
#include <QTest>

#include <cmath>
#include <memory>

using namespace crossroof::widgets;

class TestStampedGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void marksLookDrawn_data();
    void marksLookDrawn();
    void legendIconLooksDrawn();
    void scaledFigureDrawsPaths();
    void fewImagesForManyMarks();
};

namespace {

constexpr QSize kSize(400, 300);

/// A plot with one marks-only graph of STYLE (stamped or QCustomPlot's) at POINTS, axes 0..100 both ways.
std::unique_ptr<QCustomPlot> plotOf(bool stamped, const QCPScatterStyle &style, const QList<QPointF> &points)
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->resize(kSize);
    QCPGraph *graph = stamped ? new StampedGraph(plot->xAxis, plot->yAxis) : plot->addGraph();
    graph->setName(QStringLiteral("stable"));
    graph->setPen(Qt::NoPen);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    for (const QPointF &p : points)
        graph->addData(p.x(), p.y());
    plot->xAxis->setRange(0, 100);
    plot->yAxis->setRange(0, 100);
    return plot;
}

QImage picture(QCustomPlot &plot, double scale = 1.0)
{
    return plot.toPixmap(kSize.width(), kSize.height(), scale).toImage().convertToFormat(QImage::Format_RGB32);
}

struct Difference
{
    int largest = 0;    ///< of one channel at one pixel
    double inkDiff = 0; ///< the sum of the channel differences over the sum of the ink (darkness) of A
};

Difference compare(const QImage &a, const QImage &b)
{
    Difference d;
    double diff = 0, ink = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            const int dr = std::abs(qRed(p) - qRed(q)), dg = std::abs(qGreen(p) - qGreen(q)),
                      db = std::abs(qBlue(p) - qBlue(q));
            d.largest = std::max({d.largest, dr, dg, db});
            diff += dr + dg + db;
            ink += 3 * 255 - qRed(p) - qGreen(p) - qBlue(p);
        }
    }
    d.inkDiff = ink > 0 ? diff / ink : 0;
    return d;
}


QList<QPointF> scattered(int count)
{
    QRandomGenerator random(17);
    QList<QPointF> points;
    for (int i = 0; i < count; ++i)
        points.append({5 + 90 * random.generateDouble(), 5 + 90 * random.generateDouble()});
    return points;
}

} // namespace

void TestStampedGraph::marksLookDrawn_data()
{
    QTest::addColumn<QCPScatterStyle>("style");
    // The X-graph's marks.
    QTest::newRow("disc") << QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(Qt::black, 1.5), Qt::black, 9);
    QTest::newRow("circle") << QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::white, 9);
    QTest::newRow("diamond") << QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), Qt::yellow, 11);
    QTest::newRow("ring") << QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::darkGreen, 3), Qt::NoBrush, 20);
    QTest::newRow("triangle") << QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(Qt::blue, 1.5), Qt::cyan, 10);
    // The measured kernels' stars and the predictions' crosses.
    QTest::newRow("star") << QCPScatterStyle(plot_style::starPath(), QPen(Qt::black, 0.8), QColor(0xE6, 0x9F, 0x00), 16);
    QTest::newRow("cross") << QCPScatterStyle(QCPScatterStyle::ssCross, QPen(Qt::black, 1.5), Qt::NoBrush, 9);
}

void TestStampedGraph::marksLookDrawn()
{
    QFETCH(QCPScatterStyle, style);
    const QList<QPointF> points = scattered(12);
    auto stamped = plotOf(true, style, points);
    auto drawn = plotOf(false, style, points);
    const QImage a = picture(*stamped);
    const auto *graph = static_cast<StampedGraph *>(stamped->graph(0));
    QCOMPARE(graph->marksStamped(), points.size());
    // At most an eighth of a pixel apart: edges differ by a fraction of their range, the rest not at all (half a
    // pixel apart, the difference is three times as large).
    const Difference d = compare(picture(*drawn), a);
    QVERIFY2(d.largest <= 64 && d.inkDiff < 0.035,
             qPrintable(QStringLiteral("largest %1, relative %2").arg(d.largest).arg(d.inkDiff)));
}

void TestStampedGraph::legendIconLooksDrawn()
{
    const QCPScatterStyle style(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::white, 9);
    auto stamped = plotOf(true, style, {});
    auto drawn = plotOf(false, style, {});
    // Each graph put itself into its plot's legend.
    for (QCustomPlot *plot : {stamped.get(), drawn.get()})
        plot->legend->setVisible(true);
    const QImage a = picture(*stamped);
    QCOMPARE(static_cast<StampedGraph *>(stamped->graph(0))->marksStamped(), 1);
    const Difference d = compare(picture(*drawn), a);
    QVERIFY2(d.largest <= 64 && d.inkDiff < 0.035,
             qPrintable(QStringLiteral("largest %1, relative %2").arg(d.largest).arg(d.inkDiff)));
}

void TestStampedGraph::scaledFigureDrawsPaths()
{
    const QCPScatterStyle style(QCPScatterStyle::ssDisc, QPen(Qt::black, 1.5), Qt::black, 9);
    auto stamped = plotOf(true, style, scattered(5));
    picture(*stamped, 2.0);
    QCOMPARE(static_cast<StampedGraph *>(stamped->graph(0))->marksStamped(), 0);
    // Without antialiasing a mark is snapped to pixels its own way: drawn too.
    stamped->graph(0)->setAntialiasedScatters(false);
    picture(*stamped);
    QCOMPARE(static_cast<StampedGraph *>(stamped->graph(0))->marksStamped(), 0);
}

void TestStampedGraph::fewImagesForManyMarks()
{
    const QCPScatterStyle style(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), Qt::yellow, 11);
    auto stamped = plotOf(true, style, scattered(300));
    picture(*stamped);
    picture(*stamped);
    const auto *graph = static_cast<StampedGraph *>(stamped->graph(0));
    QCOMPARE(graph->marksStamped(), 600);
    QVERIFY(graph->stampsRendered() <= 16);
    // A new colour is a new symbol.
    stamped->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::red, 1.5), Qt::yellow, 11));
    const int before = graph->stampsRendered();
    picture(*stamped);
    QVERIFY(graph->stampsRendered() > before);
}

QTEST_MAIN(TestStampedGraph)
#include "tst_stamped_graph.moc"
