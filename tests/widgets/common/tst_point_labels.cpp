// SPDX-License-Identifier: GPL-3.0-or-later
// Point names: placed beside their points, on no mark and no other name; for a figure of another size and
// text, placed again there (the screen's hidden meanwhile), where the screen's offsets would land on marks.
#include "common/label_placement.h"
#include "common/point_labels.h"

#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace crossroof::widgets;

namespace {

/// Twelve points close together along a diagonal, each named, with marks of 6 px radius.
std::vector<PointLabel> crowd()
{
    std::vector<PointLabel> labels;
    for (int i = 0; i < 12; ++i)
        labels.push_back({1.0 + i * 0.35, 1.0 + i * 0.3, QStringLiteral("kernel [%1]").arg(i), 6});
    return labels;
}

std::vector<QCPItemText *> visibleNames(QCustomPlot &plot)
{
    std::vector<QCPItemText *> names;
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot.item(i));
        if (text && text->visible())
            names.push_back(text);
    }
    return names;
}

QRectF boxOf(const QCPItemText *text)
{
    return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
}

/// Whether no name lies on a mark or on another name, and each is inside the axis rect.
bool apart(QCustomPlot &plot, const std::vector<PointLabel> &labels)
{
    const std::vector<QCPItemText *> names = visibleNames(plot);
    const QRectF rect = plot.axisRect()->rect();
    for (std::size_t i = 0; i < names.size(); ++i) {
        const QRectF box = boxOf(names[i]).adjusted(1, 1, -1, -1);
        if (!rect.adjusted(-1, -1, 1, 1).contains(box))
            return false;
        for (const PointLabel &l : labels) {
            const QPointF at(plot.xAxis->coordToPixel(l.x), plot.yAxis->coordToPixel(l.y));
            if (box.intersects(QRectF(at - QPointF(l.markRadius, l.markRadius), QSizeF(2, 2) * l.markRadius)))
                return false;
        }
        for (std::size_t j = i + 1; j < names.size(); ++j) {
            if (box.intersects(boxOf(names[j]).adjusted(1, 1, -1, -1)))
                return false;
        }
    }
    return true;
}

} // namespace

class TestPointLabels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesCrossNoCurve()
    {
        // A line through every point, as a prediction plot's diagonal runs: no name lies across it.
        QCustomPlot plot;
        plot.resize(700, 500);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 6);
        plot.yAxis->setRange(0, 5);
        QCPGraph *diagonal = plot.addGraph();
        diagonal->setData(QVector<double> {0, 6}, QVector<double> {0, 5});
        diagonal->setName(QStringLiteral("diagonal"));
        plot.replot();
        std::vector<PointLabel> labels;
        for (int i = 0; i < 5; ++i)
            labels.push_back({0.6 + i * 1.2, (0.6 + i * 1.2) * 5 / 6, QStringLiteral("a long kernel name [%1]").arg(i), 5});
        const int hidden = placePointLabels(&plot, labels);
        QCOMPARE(hidden, 0);
        const std::vector<DataShape> shapes = dataShapes(&plot);
        QCOMPARE(shapes.size(), std::size_t(1));
        QCOMPARE(shapes[0].name, QStringLiteral("diagonal"));
        QCOMPARE(visibleNames(plot).size(), std::size_t(5));
        for (QCPItemText *name : visibleNames(plot))
            QVERIFY2(!crosses(glyphBox(name), shapes[0]), qPrintable(name->text()));
        QVERIFY(apart(plot, labels));
    }

    void namesGoOnNoOtherText()
    {
        // A label the plot shows already (the X-graph's "plateau R = …") where a name would go first, right of
        // its point: the name goes elsewhere ("vectorized_layer_norm_kernel [14]" was drawn over the plateau's).
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        plot.replot();
        auto *plateau = new QCPItemText(&plot);
        plateau->setText(QStringLiteral("plateau R = 2.072 TB/s"));
        plateau->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        plateau->position->setCoords(5.2, 5);
        plot.replot();
        const std::vector<PointLabel> labels {{5, 5, QStringLiteral("a kernel [14]"), 5}};
        QCOMPARE(placePointLabels(&plot, labels), 0);
        const std::vector<QCPItemText *> texts = visibleNames(plot);
        QCOMPARE(texts.size(), std::size_t(2));
        const QCPItemText *name = texts[0] == plateau ? texts[1] : texts[0];
        QVERIFY2(!boxOf(name).intersects(boxOf(plateau)), qPrintable(name->text()));
    }

    void landmarkLabelMovesOffTheData()
    {
        // A label on a vertical line, drawn where a curve runs through it, slides along its line to the nearest
        // clear place; one free around its point goes anywhere near; a label with no clear place is hidden
        // only when asked.
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        QCPGraph *flat = plot.addGraph();
        flat->setData(QVector<double> {0, 10}, QVector<double> {8, 8});
        QCPGraph *marks = plot.addGraph();
        marks->setLineStyle(QCPGraph::lsNone);
        marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 10));
        marks->setData(QVector<double> {3}, QVector<double> {3});
        plot.replot();
        auto *label = new QCPItemText(&plot);
        label->setClipToAxisRect(true);
        label->setText(QStringLiteral("δ = 5"));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->position->setCoords(5, 8);
        setLabelFreedom(label, LabelFreedom::AlongVerticalLine);
        setLabelHome(label);
        const double x = label->position->pixelPosition().x();
        std::vector<DataShape> shapes = dataShapes(&plot);
        QCOMPARE(shapes.size(), std::size_t(2));
        QVERIFY(crosses(glyphBox(label), shapes[0]));
        const auto onData = [](const QCPItemText *text, const std::vector<DataShape> &on) {
            return std::any_of(on.begin(), on.end(), [text](const DataShape &s) { return crosses(glyphBox(text), s); });
        };
        QVERIFY(placeOffData(label, shapes, {}));
        QVERIFY(!onData(label, shapes));
        QVERIFY(!crosses(glyphBox(label), shapes[0]));
        QCOMPARE(label->position->pixelPosition().x(), x); // along its line only
        QVERIFY(std::abs(label->position->coords().y() - 8) < 2); // and near where it was
        // Once the curve has gone, the label goes back where it belongs, whatever the last placement did.
        const QPointF moved = label->position->coords();
        flat->setData(QVector<double> {0, 10}, QVector<double> {1, 1});
        plot.replot();
        QVERIFY(placeOffData(label, dataShapes(&plot), {}));
        QCOMPARE(label->position->coords(), QPointF(5, 8));
        QVERIFY(moved != QPointF(5, 8));
        flat->setData(QVector<double> {0, 10}, QVector<double> {8, 8});
        plot.replot();
        shapes = dataShapes(&plot);
        QVERIFY(placeOffData(label, shapes, {}));
        // A label over a marker, free around its point.
        auto *name = new QCPItemText(&plot);
        name->setClipToAxisRect(true);
        name->setText(QStringLiteral("peak"));
        name->position->setCoords(3, 3);
        QVERIFY(crosses(glyphBox(name), shapes[1]));
        QVERIFY(placeOffData(name, shapes, {glyphBox(label)}));
        QVERIFY(!crosses(glyphBox(name), shapes[1]));
        QVERIFY(QLineF(name->position->pixelPosition(), QPointF(plot.xAxis->coordToPixel(3), plot.yAxis->coordToPixel(3)))
                        .length()
                < 60);
        // Nowhere clear: a band of lines everywhere keeps the label where it was, or hides it.
        QCPGraph *zigzag = plot.addGraph();
        QVector<double> zx, zy;
        for (int i = 0; i <= 200; ++i) {
            zx << i * 0.05;
            zy << (i % 2 ? 10.0 : 0.0);
        }
        zigzag->setData(zx, zy);
        plot.replot();
        shapes = dataShapes(&plot);
        const QPointF before = name->position->coords();
        QVERIFY(!placeOffData(name, shapes, {}));
        QVERIFY(onData(name, shapes));
        QCOMPARE(name->position->coords(), before);
        QVERIFY(placeOffData(name, shapes, {}, true));
        QVERIFY(!name->visible());
    }

    void aLabelIsNeverPushedOutOfThePlot()
    {
        // A label half below the plot's edge, where every place inside along its line crosses thirty curves
        // (measured traces over the model's) and its cut place crosses none: it comes inside, crossing them,
        // rather than staying cut.
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        for (int i = 0; i < 30; ++i) {
            QCPGraph *g = plot.addGraph();
            QVector<double> x, y;
            for (int k = 0; k <= 40; ++k) {
                x << k * 0.25;
                y << (k % 2 ? 10.0 : 0.3); // clear of the cut label's inside half alone
            }
            g->setData(x, y);
        }
        plot.replot();
        auto *label = new QCPItemText(&plot);
        label->setClipToAxisRect(true);
        label->setText(QStringLiteral("π = 11.2"));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->position->setCoords(5, 0);
        setLabelFreedom(label, LabelFreedom::AlongVerticalLine);
        const QRectF area = QRectF(plot.axisRect()->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
        QVERIFY(!area.contains(glyphBox(label)));
        placeOffData(label, dataShapes(&plot), {});
        QVERIFY(label->visible());
        QVERIFY(area.contains(glyphBox(label)));
    }

    void aFigureGetsItsOwnPlaces()
    {
        QCustomPlot plot;
        plot.resize(900, 700);
        plot.show(); // a hidden widget gets its resize events when shown
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 6);
        plot.yAxis->setRange(0, 5);
        plot.replot();
        const std::vector<PointLabel> labels = crowd();
        placePointLabels(&plot, labels);
        plot.replot();
        const std::vector<QCPItemText *> screen = visibleNames(plot);
        QVERIFY(screen.size() >= 8);
        QVERIFY(apart(plot, labels));

        // The figure: smaller, with larger text. The screen's offsets now put names on marks and on each other.
        plot.resize(420, 300);
        QTRY_COMPARE(plot.viewport().width(), 420);
        QFont big = plot.font();
        big.setPixelSize(18);
        for (QCPItemText *text : screen)
            text->setFont(big);
        plot.replot();
        QVERIFY(!apart(plot, labels));

        const FigureLabels figure = placePointLabelsForFigure(&plot, big);
        plot.replot();
        const auto hiddenNames = std::count_if(figure.hidden.begin(), figure.hidden.end(),
                                               [](QCPAbstractItem *i) { return qobject_cast<QCPItemText *>(i); });
        QCOMPARE(std::size_t(hiddenNames), screen.size());
        for (QCPItemText *text : screen)
            QVERIFY(!text->visible());
        QVERIFY(!figure.placed.empty());
        QVERIFY(apart(plot, labels));

        // Back: the figure's names go, the screen's come back.
        for (QCPAbstractItem *item : figure.placed)
            plot.removeItem(item);
        for (QCPAbstractItem *item : figure.hidden)
            item->setVisible(true);
        QCOMPARE(visibleNames(plot).size(), screen.size());
    }

    void aFigureNamesItsFirstPointsFarOffWithLeaders()
    {
        // Four kernels inside a thicket of curve, with no clear place within reach of any: the screen leaves
        // their names out (hover names them there); a figure names the first three at the nearest clear places
        // in the plot, each with a leader from its point, and leaves the fourth out.
        QCustomPlot plot;
        plot.resize(500, 400);
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        QCPGraph *thicket = plot.addGraph();
        for (double x = 1; x <= 9; x += 0.1) {
            thicket->addData(x, 1);
            thicket->addData(x + 0.05, 8.5);
        }
        plot.replot();
        std::vector<PointLabel> labels;
        for (int i = 0; i < 4; ++i)
            labels.push_back({4.4 + 0.4 * i, 4.4 + 0.4 * i, QStringLiteral("kernel [%1]").arg(i), 6});
        QCOMPARE(placePointLabels(&plot, labels), 4);
        QVERIFY(visibleNames(plot).empty());

        setPendingPointLabels(&plot, labels);
        const FigureLabels figure = placePointLabelsForFigure(&plot, plot.font());
        plot.replot();
        QStringList named;
        const QRectF thicketBox(QPointF(plot.xAxis->coordToPixel(1), plot.yAxis->coordToPixel(8.5)),
                                QPointF(plot.xAxis->coordToPixel(9.05), plot.yAxis->coordToPixel(1)));
        for (QCPItemText *name : visibleNames(plot)) {
            named << name->text();
            QVERIFY2(!boxOf(name).intersects(thicketBox), qPrintable(name->text()));
        }
        named.sort();
        QCOMPARE(named, QStringList({QStringLiteral("kernel [0]"), QStringLiteral("kernel [1]"),
                                     QStringLiteral("kernel [2]")}));
        int leaders = 0;
        for (QCPAbstractItem *item : figure.placed) {
            if (auto *line = qobject_cast<QCPItemLine *>(item)) {
                ++leaders;
                QVERIFY(QLineF(line->start->pixelPosition(), line->end->pixelPosition()).length() > 20);
            }
        }
        QCOMPARE(leaders, 3);
        QVERIFY(apart(plot, labels));
    }

    void nothingWithoutNames()
    {
        QCustomPlot plot;
        plot.resize(400, 300);
        plot.replot();
        const FigureLabels figure = placePointLabelsForFigure(&plot, plot.font());
        QVERIFY(figure.placed.empty() && figure.hidden.empty());
    }
};

QTEST_MAIN(TestPointLabels)
#include "tst_point_labels.moc"
