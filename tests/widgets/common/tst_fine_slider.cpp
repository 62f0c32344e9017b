// SPDX-License-Identifier: GPL-3.0-or-later
// Sliders a hand can use (issue 48 item 8): Z's slider spans six decades (0.01 to 10⁴) and had some 50 pixels in
// a dock, so that a drag of 25 pixels took Z from 32 to 10,000. Now every slider keeps a length of 30 pixels a
// decade (the slider goes below its box where the dock is narrower), and Shift held while dragging moves it a
// tenth as far.
#include "common/fine_slider.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"

#include <QDoubleSpinBox>
#include <QMouseEvent>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

void send(QWidget *to, QEvent::Type type, QPointF at, Qt::MouseButtons held, Qt::KeyboardModifiers modifiers)
{
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, at, to->mapToGlobal(at), button, held, modifiers);
    QCoreApplication::sendEvent(to, &event);
}

/// Drags SLIDER's handle DX pixels to the right, in steps of a pixel, with MODIFIERS held throughout.
void drag(FineSlider *slider, int dx, Qt::KeyboardModifiers modifiers)
{
    const QPointF from = slider->handleRect().center();
    send(slider, QEvent::MouseButtonPress, from, Qt::LeftButton, modifiers);
    QVERIFY(slider->isSliderDown());
    for (int i = 1; i <= dx; ++i)
        send(slider, QEvent::MouseMove, from + QPointF(i, 0), Qt::LeftButton, modifiers);
    send(slider, QEvent::MouseButtonRelease, from + QPointF(dx, 0), Qt::NoButton, modifiers);
}

} // namespace

class TestFineSlider : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void everyLogSliderHasThirtyPixelsADecade_data();
    void everyLogSliderHasThirtyPixelsADecade();
    void aDragOf25PixelsMovesZLessThanADecade();
    void shiftDragsInFineSteps();
    void theTipSaysHow();

private:
    FineSlider *zSlider() const { return qobject_cast<FineSlider *>(m_panel->slider(QStringLiteral("Z"))); }

    ParameterState *m_state = nullptr;
    ParameterPanel *m_panel = nullptr;
};

void TestFineSlider::init()
{
    m_state = new ParameterState;
    m_panel = new ParameterPanel(m_state);
}

void TestFineSlider::cleanup()
{
    delete m_panel;
    delete m_state;
}

void TestFineSlider::everyLogSliderHasThirtyPixelsADecade_data()
{
    QTest::addColumn<int>("width");
    // A dock at 1024x700 (the docks stacked beside the views' 60 %), one at 1600x1000, and a wide one.
    QTest::newRow("narrow dock") << 250;
    QTest::newRow("1600x1000 dock") << 330;
    QTest::newRow("wide dock") << 600;
}

void TestFineSlider::everyLogSliderHasThirtyPixelsADecade()
{
    QFETCH(int, width);
    m_panel->resize(width, m_panel->sizeHint().height());
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
    for (const char *key : {"n", "Z", "E", "R", "L", "M", "beta", "L_s"}) {
        const auto *info = core::findParameter(key);
        QVERIFY(info && info->log_scale);
        const auto *slider = qobject_cast<FineSlider *>(m_panel->slider(QString::fromLatin1(key)));
        QVERIFY(slider);
        const double decades = std::log10(info->slider_max / info->slider_min);
        // The handle's travel: the slider less its handle.
        QVERIFY2(slider->span() + slider->handleRect().width() >= decades * ParameterPanel::kPixelsPerDecade,
                 qPrintable(QStringLiteral("%1: %2 px for %3 decades").arg(key).arg(slider->span()).arg(decades)));
        // Its box stays whole beside or above it.
        QVERIFY(m_panel->spinBox(QString::fromLatin1(key))->width() >= 110);
    }
}

void TestFineSlider::aDragOf25PixelsMovesZLessThanADecade()
{
    m_panel->resize(250, m_panel->sizeHint().height());
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
    m_state->applyValue(QStringLiteral("Z"), 32.0);
    drag(zSlider(), 25, Qt::NoModifier);
    const double z = m_state->value(QStringLiteral("Z"));
    // 25 of at least 180 pixels over six decades: less than one (it was 32 to 10,000).
    QVERIFY2(z > 32.0 && z < 320.0, qPrintable(QString::number(z)));
}

void TestFineSlider::shiftDragsInFineSteps()
{
    m_panel->resize(250, m_panel->sizeHint().height());
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
    m_state->applyValue(QStringLiteral("Z"), 32.0);
    drag(zSlider(), 25, Qt::ShiftModifier);
    const double fine = m_state->value(QStringLiteral("Z"));
    // A tenth of the plain drag: under a tenth of a decade (10^0.1 = 1.26).
    QVERIFY2(fine > 32.0 && fine < 32.0 * 1.26, qPrintable(QString::number(fine)));

    // Shift let go mid-drag: the handle carries on from where it is, at the plain pace, without a jump.
    FineSlider *slider = zSlider();
    const QPointF from = slider->handleRect().center();
    send(slider, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::ShiftModifier);
    for (int i = 1; i <= 10; ++i)
        send(slider, QEvent::MouseMove, from + QPointF(i, 0), Qt::LeftButton, Qt::ShiftModifier);
    const int afterFine = slider->sliderPosition();
    send(slider, QEvent::MouseMove, from + QPointF(11, 0), Qt::LeftButton, Qt::NoModifier);
    QVERIFY(std::abs(slider->sliderPosition() - afterFine) <= 1);
    send(slider, QEvent::MouseMove, from + QPointF(21, 0), Qt::LeftButton, Qt::NoModifier);
    const int plain = slider->sliderPosition() - afterFine;
    QVERIFY2(plain >= 10 * ParameterPanel::kSliderSteps / slider->span() - 2, qPrintable(QString::number(plain)));
    send(slider, QEvent::MouseButtonRelease, from + QPointF(21, 0), Qt::NoButton, Qt::NoModifier);
    QVERIFY(!slider->isSliderDown());
}

void TestFineSlider::theTipSaysHow()
{
    QVERIFY(zSlider()->toolTip().contains(QStringLiteral("Shift")));
}

QTEST_MAIN(TestFineSlider)
#include "tst_fine_slider.moc"
