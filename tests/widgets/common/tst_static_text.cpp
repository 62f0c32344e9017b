// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/static_text.h"
#include "common/symbol_text.h"

#include <QTest>

using namespace crossroof::widgets;

class TestStaticText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labelDrawsLikeQCPItemText_data();
    void labelDrawsLikeQCPItemText();
    void legendEntryDrawsLikeQCustomPlots();
    void cacheFollowsTextAndFont();
    void anchorsFrameWhatIsDrawn_data();
    void anchorsFrameWhatIsDrawn();
    void markupLabelKeptInsideByItsDrawnWidth();
    void shortenedNamesKeepWholeWords_data();
    void shortenedNamesKeepWholeWords();
};

namespace {

/// A plot that shows only what is put on it.
void bare(QCustomPlot &plot)
{
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        axis->setVisible(false);
        axis->grid()->setVisible(false);
        axis->setRange(0, 100);
    }
    plot.axisRect()->setAutoMargins(QCP::msNone);
    plot.axisRect()->setMargins(QMargins());
}

QImage render(QCustomPlot &plot, QSize size)
{
    return plot.toPixmap(size.width(), size.height(), 1.0).toImage().convertToFormat(QImage::Format_RGB32);
}

/// The box around every pixel darker than light grey.
QRect ink(const QImage &image)
{
    QRect box;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 200)
                box |= QRect(x, y, 1, 1);
    return box;
}

/// Whether the boxes A and B of ink are the same, each side within a pixel (text laid out once is not always
/// antialiased alike at its edges).
void sameInk(const QRect &a, const QRect &b)
{
    QVERIFY2(std::abs(a.left() - b.left()) <= 1 && std::abs(a.right() - b.right()) <= 1
                     && std::abs(a.top() - b.top()) <= 1 && std::abs(a.bottom() - b.bottom()) <= 1,
             qPrintable(QStringLiteral("ink (%1, %2)-(%3, %4) against (%5, %6)-(%7, %8)")
                                .arg(a.left()).arg(a.top()).arg(a.right()).arg(a.bottom())
                                .arg(b.left()).arg(b.top()).arg(b.right()).arg(b.bottom())));
}

/// How many pixels of A have no pixel of about their shade in B within TOLERANCE pixels.
int unmatched(const QImage &a, const QImage &b, int tolerance)
{
    int count = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const int s = qGray(a.pixel(x, y));
            bool near = false;
            for (int dy = -tolerance; dy <= tolerance && !near; ++dy) {
                for (int dx = -tolerance; dx <= tolerance && !near; ++dx) {
                    const QPoint p(x + dx, y + dy);
                    near = a.rect().contains(p) && std::abs(qGray(b.pixel(p)) - s) <= 64;
                }
            }
            count += near ? 0 : 1;
        }
    }
    return count;
}

} // namespace

void TestStaticText::labelDrawsLikeQCPItemText_data()
{
    QTest::addColumn<QPointF>("at");
    QTest::addColumn<int>("alignment");
    QTest::addColumn<bool>("framed");
    QTest::newRow("centred below") << QPointF(50.3, 50.6) << int(Qt::AlignHCenter | Qt::AlignBottom) << false;
    QTest::newRow("left top") << QPointF(10.5, 70.25) << int(Qt::AlignLeft | Qt::AlignTop) << false;
    QTest::newRow("right centre, framed") << QPointF(90.7, 40.4) << int(Qt::AlignRight | Qt::AlignVCenter) << true;
}

void TestStaticText::labelDrawsLikeQCPItemText()
{
    // The same label drawn by QCPItemText and by StaticTextItem covers the same pixels, within a pixel, whatever
    // its place.
    QFETCH(QPointF, at);
    QFETCH(int, alignment);
    QFETCH(bool, framed);
    const QSize size(400, 120);
    QImage images[2];
    for (int i = 0; i < 2; ++i) {
        QCustomPlot plot;
        bare(plot);
        QCPItemText *label = i == 0 ? new QCPItemText(&plot) : new StaticTextItem(&plot);
        label->setText(QStringLiteral("ψ cache peak, π = M·L_c/E = 20"));
        label->setColor(QColor(0x00, 0x72, 0xB2));
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setPositionAlignment(Qt::Alignment(alignment));
        label->position->setCoords(at);
        if (framed) {
            label->setPen(QPen(Qt::black));
            label->setBrush(QColor(255, 255, 200));
        }
        images[i] = render(plot, size);
    }
    const QRect drawn = ink(images[0]);
    QVERIFY(drawn.width() > 100);
    sameInk(ink(images[1]), drawn);
    // Glyphs laid out once are antialiased a little differently here and there: a few pixels in a hundred.
    const int most = drawn.width() * drawn.height() * 3 / 100;
    for (const int alone : {unmatched(images[1], images[0], 1), unmatched(images[0], images[1], 1)})
        QVERIFY2(alone <= most, qPrintable(QStringLiteral("%1 pixels unmatched, at most %2").arg(alone).arg(most)));
}

void TestStaticText::legendEntryDrawsLikeQCustomPlots()
{
    const QSize size(300, 80);
    QImage images[2];
    for (int i = 0; i < 2; ++i) {
        QCustomPlot plot;
        bare(plot);
        plot.setAutoAddPlottableToLegend(false);
        plot.legend->setVisible(true);
        QCPGraph *graph = plot.addGraph();
        graph->setName(QStringLiteral("operating point, 255.5 GB/s"));
        graph->setPen(Qt::NoPen);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::darkGreen, 3), Qt::NoBrush, 20));
        if (i == 0)
            graph->addToLegend();
        else
            QVERIFY(addLegendEntry(graph));
        QVERIFY(!addLegendEntry(graph)); // once only
        QCOMPARE(plot.legend->itemCount(), 1);
        images[i] = render(plot, size);
    }
    const QRect drawn = ink(images[0]);
    QVERIFY(drawn.width() > 100);
    // Everything QCustomPlot draws; and at most the one row below the entry that QCustomPlot's clip (a unit
    // above the entry's box) cuts off, which the static entry keeps (StaticLegendItem::clipRect()).
    QCOMPARE(unmatched(images[0], images[1], 1), 0);
    const int extra = unmatched(images[1], images[0], 1);
    QVERIFY2(extra <= drawn.width(), qPrintable(QString::number(extra)));
    const QRect mine = ink(images[1]);
    QVERIFY(mine.left() >= drawn.left() && mine.right() <= drawn.right() && mine.top() >= drawn.top());
    QVERIFY(mine.bottom() <= drawn.bottom() + 1);
}

void TestStaticText::cacheFollowsTextAndFont()
{
    StaticTextCache cache;
    QFont font;
    const QRect a = cache.boundingRect(QStringLiteral("valley"), font, 0, Qt::TextDontClip);
    QCOMPARE(a, QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip, QStringLiteral("valley")));
    QCOMPARE(cache.text(QStringLiteral("valley"), font).text(), QStringLiteral("valley"));
    const QRect b = cache.boundingRect(QStringLiteral("valley and more"), font, 0, Qt::TextDontClip);
    QVERIFY(b.width() > a.width());
    QCOMPARE(cache.text(QStringLiteral("valley and more"), font).text(), QStringLiteral("valley and more"));
    QFont big = font;
    big.setPointSizeF(font.pointSizeF() * 2);
    QCOMPARE(cache.boundingRect(QStringLiteral("valley and more"), big, 0, Qt::TextDontClip),
             QFontMetrics(big).boundingRect(0, 0, 0, 0, Qt::TextDontClip, QStringLiteral("valley and more")));
    QVERIFY(cache.text(QStringLiteral("valley and more"), big).size().width() > b.width() * 1.5);
}

void TestStaticText::anchorsFrameWhatIsDrawn_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("plain") << QStringLiteral("ψ cache peak, π = M·L/E = 20");
    // Markup is drawn with subscripts, narrower than its characters: the anchors follow what is drawn.
    QTest::newRow("markup") << QStringLiteral("π = M·L_{c}/E = 11.3, δ = R·L_{dram}");
}

void TestStaticText::anchorsFrameWhatIsDrawn()
{
    // A label's corners (what label placement and keepLabelInside read) frame the ink it draws, within the
    // padding, whatever its text; asked again after the text changed, they follow it.
    QFETCH(QString, text);
    QCustomPlot plot;
    bare(plot);
    plot.setGeometry(0, 0, 400, 120);
    auto *label = new StaticTextItem(&plot);
    label->setText(text);
    label->setPadding(QMargins(3, 1, 3, 1));
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->position->setType(QCPItemPosition::ptAbsolute);
    label->position->setCoords(20, 60);
    const QImage image = render(plot, QSize(400, 120));
    const QRect drawn = ink(image);
    QVERIFY(drawn.width() > 100);
    const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
    QVERIFY2(box.left() <= drawn.left() + 1 && box.right() >= drawn.right() - 1,
             qPrintable(QStringLiteral("box %1..%2, ink %3..%4").arg(box.left()).arg(box.right())
                                .arg(drawn.left()).arg(drawn.right())));
    // No wider than the ink and its padding (raw markup measured as characters is 20 % wider).
    QVERIFY2(box.width() <= drawn.width() + 3 + 3 + 4,
             qPrintable(QStringLiteral("box %1 wide, ink %2").arg(box.width()).arg(drawn.width())));
    QCOMPARE(label->left->pixelPosition().y(), (box.top() + box.bottom()) / 2);
    label->setText(text + QStringLiteral(" and more"));
    QVERIFY(label->topRight->pixelPosition().x() > box.right() + 20);
}

void TestStaticText::markupLabelKeptInsideByItsDrawnWidth()
{
    // A left-aligned label with markup whose drawn text fits before the right edge stays where it is; one that
    // does not goes to its position's other side.
    QCustomPlot plot;
    bare(plot);
    plot.setViewport(QRect(0, 0, 400, 120));
    plot.replot();
    QCOMPARE(plot.axisRect()->rect(), QRect(0, 0, 400, 120));
    auto *label = new StaticTextItem(&plot);
    label->setClipAxisRect(plot.axisRect());
    label->setText(QStringLiteral("L_{dram}·R_{dram} = 9"));
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    const double drawnWidth = symbol_text::width(label->text(), label->font()) + label->padding().left()
                              + label->padding().right();
    const double rawWidth = QFontMetricsF(label->font()).horizontalAdvance(label->text());
    QVERIFY(rawWidth > drawnWidth + 10);
    const double room = (drawnWidth + rawWidth) / 2; // enough for what is drawn, not for the raw characters
    label->position->setType(QCPItemPosition::ptAbsolute);
    label->position->setCoords(400 - room, 60);
    QVERIFY(!keepLabelInside(label));
    QCOMPARE(label->positionAlignment(), Qt::AlignLeft | Qt::AlignVCenter);
    label->position->setCoords(400 - drawnWidth + 8, 60);
    QVERIFY(keepLabelInside(label));
    QCOMPARE(label->positionAlignment(), Qt::AlignRight | Qt::AlignVCenter);
}

void TestStaticText::shortenedNamesKeepWholeWords_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("room"); // the widest text that must fit
    QTest::addColumn<QString>("expected");
    const QString more(QChar(0x2026));
    QTest::newRow("middle parts first")
            << QStringLiteral("f(k): measured, H100 SXM cache thrashing, 16 KiB per warp, dashed where unstable")
            << QStringLiteral("f(k): measured, …, dashed where unstable")
            << QStringLiteral("f(k): measured, ") + more + QStringLiteral(", dashed where unstable");
    QTest::newRow("then all but the first") << QStringLiteral("operating point, 2.173 TB/s")
                                            << QStringLiteral("operating point, 2.1") << QStringLiteral("operating point");
    QTest::newRow("then its last words") << QStringLiteral("H100 SXM cache thrashing (cache.csv)")
                                         << QStringLiteral("H100 SXM cache thrash")
                                         << QStringLiteral("H100 SXM cache") + more;
}

void TestStaticText::shortenedNamesKeepWholeWords()
{
    // A legend name too wide for its room loses whole parts and words ("operating p… 2.173 TB/s" and
    // "f(k): measu…re unstable" were cut mid-word in a single-column figure).
    QFETCH(QString, name);
    QFETCH(QString, room);
    QFETCH(QString, expected);
    const QFontMetricsF metrics(QFont(QStringLiteral("DejaVu Sans"), 10));
    const QString shorter = shortenedEntryName(name, metrics, metrics.horizontalAdvance(room), false);
    QCOMPARE(shorter, expected);
    QVERIFY(metrics.horizontalAdvance(shorter) <= metrics.horizontalAdvance(room));
}

QTEST_MAIN(TestStaticText)
#include "tst_static_text.moc"
