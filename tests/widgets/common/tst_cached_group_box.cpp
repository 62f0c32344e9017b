// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/cached_group_box.h"
#include "support/image_compare.h"

#include <QApplication>
#include <QImage>
#include <QSlider>
#include <QStyleFactory>
#include <QTest>
#include <QVBoxLayout>

#include <memory>

using namespace crossroof::widgets;

class TestCachedGroupBox : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void pictureDrawsWhatTheStyleDraws();
    void titleIsDrawnByTheStyle();
    void newTitleOrSizeRendersAgain();
    void checkableBoxIsLeftToTheStyle();
    void sliderStepRepaintsFromThePicture();
};

namespace {

/// REGION of BOX, rendered over white.
QImage rendered(QWidget &box, const QRegion &region)
{
    QImage image(box.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    box.render(&image, QPoint(), region, QWidget::DrawWindowBackground);
    return image;
}

/// Pixels that differ from white: the frame was drawn.
int inked(const QImage &image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            count += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
    }
    return count;
}

/// The part of a box of SIZE below its title, where a child's repaint lands.
QRegion belowTitle(QSize size)
{
    return QRegion(0, 40, size.width(), size.height() - 40);
}

} // namespace

void TestCachedGroupBox::initTestCase()
{
    // The style the application uses, whose frame image made these paints slow.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
}

void TestCachedGroupBox::pictureDrawsWhatTheStyleDraws()
{
    CachedGroupBox cached(QStringLiteral("Workload"));
    QGroupBox plain(QStringLiteral("Workload"));
    cached.resize(300, 200);
    plain.resize(300, 200);
    const QImage fromPicture = rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.paintsFromPicture(), 1);
    QCOMPARE(cached.framesRendered(), 1);
    const QImage fromStyle = rendered(plain, belowTitle(plain.size()));
    QVERIFY(inked(fromStyle) > 0);
    QVERIFY2(crossroof::test::largestChannelDifference(fromPicture, fromStyle) <= 2,
             qPrintable(QString::number(crossroof::test::largestChannelDifference(fromPicture, fromStyle))));
    // Painted again, it copies the same picture.
    rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.paintsFromPicture(), 2);
    QCOMPARE(cached.framesRendered(), 1);
}

void TestCachedGroupBox::titleIsDrawnByTheStyle()
{
    CachedGroupBox cached(QStringLiteral("Shared cache"));
    QGroupBox plain(QStringLiteral("Shared cache"));
    cached.resize(260, 120);
    plain.resize(260, 120);
    const QImage whole = rendered(cached, QRegion(cached.rect()));
    QCOMPARE(cached.paintsFromPicture(), 0);
    QCOMPARE(whole, rendered(plain, QRegion(plain.rect())));
}

void TestCachedGroupBox::newTitleOrSizeRendersAgain()
{
    CachedGroupBox cached(QStringLiteral("Machine"));
    cached.resize(300, 200);
    rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.framesRendered(), 1);

    QGroupBox plain(QStringLiteral("A much longer title than before"));
    cached.setTitle(plain.title());
    QImage image = rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.framesRendered(), 2);
    plain.resize(300, 200);
    QVERIFY(crossroof::test::largestChannelDifference(image, rendered(plain, belowTitle(plain.size()))) <= 2);

    cached.resize(220, 260);
    plain.resize(220, 260);
    image = rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.framesRendered(), 3);
    QVERIFY(crossroof::test::largestChannelDifference(image, rendered(plain, belowTitle(plain.size()))) <= 2);

    cached.setEnabled(false);
    plain.setEnabled(false);
    image = rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.framesRendered(), 4);
    QVERIFY(crossroof::test::largestChannelDifference(image, rendered(plain, belowTitle(plain.size()))) <= 2);
}

void TestCachedGroupBox::checkableBoxIsLeftToTheStyle()
{
    CachedGroupBox cached(QStringLiteral("Bypass"));
    cached.setCheckable(true);
    cached.resize(300, 200);
    rendered(cached, belowTitle(cached.size()));
    QCOMPARE(cached.paintsFromPicture(), 0);
    QCOMPARE(cached.framesRendered(), 0);
}

void TestCachedGroupBox::sliderStepRepaintsFromThePicture()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *box = new CachedGroupBox(QStringLiteral("Workload"), &window);
    auto *slider = new QSlider(Qt::Horizontal, box);
    (new QVBoxLayout(box))->addWidget(slider);
    layout->addWidget(box);
    window.resize(320, 160);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    const int before = box->paintsFromPicture();
    slider->setValue(slider->value() + 10);
    slider->repaint();
    // The slider paints no background of its own: the box below it is painted first, from its picture.
    QCOMPARE(box->paintsFromPicture(), before + 1);
}

QTEST_MAIN(TestCachedGroupBox)
#include "tst_cached_group_box.moc"
