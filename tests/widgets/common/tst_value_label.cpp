// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/value_label.h"

#include <QFontMetrics>
#include <QImage>
#include <QTest>

using namespace crossroof::widgets;

class TestValueLabel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hintHoldsTheText();
    void hintMovesInSteps();
    void drawsTheTextWhereAligned();
    void newFontIsMeasured();
    void givenItsMinimumTheTextIsWhole();
};

namespace {

/// The columns of IMAGE that hold a pixel darker than mid grey.
std::pair<int, int> inkColumns(const QImage &image)
{
    int first = image.width(), last = -1;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (qGray(image.pixel(x, y)) < 128) {
                first = std::min(first, x);
                last = std::max(last, x);
            }
        }
    }
    return {first, last};
}

QImage rendered(ValueLabel &label, QSize size)
{
    label.resize(size);
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    label.render(&image);
    return image;
}

} // namespace

void TestValueLabel::hintHoldsTheText()
{
    ValueLabel label;
    const QFontMetrics metrics(label.font());
    for (const QString &text :
         {QStringLiteral("1"), QStringLiteral("897.2 GB/s"), QStringLiteral("48 warps / 12 warps")}) {
        label.setText(text);
        QCOMPARE(label.text(), text);
        QVERIFY(label.sizeHint().width() >= metrics.horizontalAdvance(text));
        QVERIFY(label.sizeHint().height() >= metrics.height());
        // The room to spare is not asked of a narrow panel: the minimum is the text itself.
        QVERIFY(std::abs(label.minimumSizeHint().width() - metrics.horizontalAdvance(text)) <= 1);
    }
    label.clear();
    QVERIFY(label.text().isEmpty());
}

void TestValueLabel::hintMovesInSteps()
{
    ValueLabel label;
    label.setText(QStringLiteral("9.99 GB/s"));
    const int changes = label.hintChanges();
    const int width = label.sizeHint().width();
    // A drag's numbers of about the same width: the panel is not laid out again.
    for (const QString &text :
         {QStringLiteral("9.98 GB/s"), QStringLiteral("10.01 GB/s"), QStringLiteral("9.97 GB/s")}) {
        label.setText(text);
        QCOMPARE(label.sizeHint().width(), width);
    }
    QCOMPARE(label.hintChanges(), changes);
    // A much longer text widens the hint at once, a much shorter one narrows it.
    label.setText(QStringLiteral("9.99 GB/s, stable, memory-bound"));
    QVERIFY(label.sizeHint().width() > width);
    QCOMPARE(label.hintChanges(), changes + 1);
    label.setText(QStringLiteral("9"));
    QVERIFY(label.sizeHint().width() < width);
    QCOMPARE(label.hintChanges(), changes + 2);
}

void TestValueLabel::drawsTheTextWhereAligned()
{
    ValueLabel right(Qt::AlignRight);
    ValueLabel left(Qt::AlignLeft);
    for (ValueLabel *label : {&right, &left})
        label->setText(QStringLiteral("897.2 GB/s"));
    const QSize size(300, right.sizeHint().height());
    const auto [rFirst, rLast] = inkColumns(rendered(right, size));
    const auto [lFirst, lLast] = inkColumns(rendered(left, size));
    QVERIFY(rLast >= 0 && lLast >= 0); // something was drawn
    QVERIFY2(rLast > size.width() - 8, qPrintable(QString::number(rLast)));
    QVERIFY2(lFirst < 8, qPrintable(QString::number(lFirst)));
    QVERIFY(rFirst > lLast); // the same text, at the two ends
}

void TestValueLabel::newFontIsMeasured()
{
    ValueLabel label;
    label.setText(QStringLiteral("897.2 GB/s"));
    const int width = label.sizeHint().width();
    QFont big = label.font();
    big.setPointSizeF(big.pointSizeF() * 3);
    label.setFont(big);
    QVERIFY(label.sizeHint().width() >= QFontMetrics(big).horizontalAdvance(label.text()));
    QVERIFY(label.sizeHint().width() > 2 * width);
}

void TestValueLabel::givenItsMinimumTheTextIsWhole()
{
    // A layout that has to squeeze the readout gives each value its minimum width: the text is drawn whole there,
    // as it is given room to spare (the readout's values are bold; the laid-out text can be a pixel wider than
    // QFontMetrics says).
    for (const bool bold : {false, true}) {
        for (const QString &text : {QStringLiteral("6.006 warps, 287.1 GB/s"), QStringLiteral("21.69 warps, 207.1 GB/s"),
                                    QStringLiteral("4.066 / 43.93 warps"), QStringLiteral("255.5 GB/s, unstable")}) {
            ValueLabel label;
            QFont font = label.font();
            font.setBold(bold);
            label.setFont(font);
            label.setText(text);
            const int height = label.sizeHint().height();
            const QImage roomy = rendered(label, QSize(label.sizeHint().width() + 40, height));
            const QImage tight = rendered(label, QSize(label.minimumSizeHint().width(), height));
            const auto [first, last] = inkColumns(roomy);
            const auto [tightFirst, tightLast] = inkColumns(tight);
            QVERIFY2(tightFirst == first && tightLast == last,
                     qPrintable(QStringLiteral("%1%2: ink %3..%4 at its minimum, %5..%6 with room")
                                        .arg(text, bold ? QStringLiteral(" (bold)") : QString())
                                        .arg(tightFirst).arg(tightLast).arg(first).arg(last)));
        }
    }
}

QTEST_MAIN(TestValueLabel)
#include "tst_value_label.moc"
