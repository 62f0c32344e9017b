// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/fine_slider.h"

#include <QBoxLayout>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QStyle>
#include <QStyleOptionSlider>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

FineSlider::FineSlider(QWidget *parent)
    : QSlider(Qt::Horizontal, parent)
{
}

int FineSlider::span() const
{
    // As QSlider measures it: the groove less the handle's own width.
    QStyleOptionSlider option;
    initStyleOption(&option);
    const QRect groove = style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, this);
    return std::max(1, groove.width() - handleRect().width());
}

QRect FineSlider::handleRect() const
{
    QStyleOptionSlider option;
    initStyleOption(&option);
    return style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
}

void FineSlider::anchor(double pixel, Qt::KeyboardModifiers modifiers)
{
    m_anchorPixel = pixel;
    m_anchorValue = sliderPosition();
    m_fine = modifiers.testFlag(Qt::ShiftModifier);
}

void FineSlider::mousePressEvent(QMouseEvent *event)
{
    QSlider::mousePressEvent(event);
    m_dragging = isSliderDown();
    if (m_dragging)
        anchor(event->position().x(), event->modifiers());
}

void FineSlider::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_dragging || !isSliderDown()) {
        QSlider::mouseMoveEvent(event);
        return;
    }
    const double x = event->position().x();
    if (event->modifiers().testFlag(Qt::ShiftModifier) != m_fine)
        anchor(x, event->modifiers());
    double perPixel = double(maximum() - minimum()) / span() / (m_fine ? kFineFactor : 1);
    if (invertedAppearance() != (layoutDirection() == Qt::RightToLeft)) // drawn from right to left
        perPixel = -perPixel;
    const double value = std::clamp(m_anchorValue + (x - m_anchorPixel) * perPixel, double(minimum()),
                                    double(maximum()));
    setSliderPosition(int(std::lround(value)));
    event->accept();
}

void FineSlider::mouseReleaseEvent(QMouseEvent *event)
{
    m_dragging = false;
    QSlider::mouseReleaseEvent(event);
}

SliderRow::SliderRow(QSlider *slider, QWidget *spinBox, int minLength, QWidget *parent)
    : QWidget(parent)
    , m_slider(slider)
    , m_spin(spinBox)
    , m_layout(new QBoxLayout(QBoxLayout::LeftToRight, this))
    , m_minLength(minLength)
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_slider->setParent(this);
    m_spin->setParent(this);
    m_layout->addWidget(m_slider, 1);
    m_layout->addWidget(m_spin);
    // Never narrower than the box, nor than the slider's least length: the slider goes below the box first, and
    // keeps its length there (a panel that lines its boxes up under its widest symbol has less room for them).
    setMinimumWidth(std::max({m_spin->minimumWidth(), m_spin->minimumSizeHint().width(), m_minLength}));
}

bool SliderRow::stacked() const
{
    return m_layout->direction() != QBoxLayout::LeftToRight;
}

void SliderRow::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange(event->size().width());
}

void SliderRow::arrange(int width)
{
    const int beside = m_minLength + m_layout->spacing() + m_spin->sizeHint().width();
    // Bottom to top: the box (added last) on the first line, beside the row's label; the slider under it.
    const QBoxLayout::Direction direction = width >= beside ? QBoxLayout::LeftToRight : QBoxLayout::BottomToTop;
    if (direction == m_layout->direction())
        return;
    m_layout->setDirection(direction);
    m_layout->setAlignment(m_spin, direction == QBoxLayout::LeftToRight ? Qt::Alignment() : Qt::AlignLeft);
    updateGeometry();
}

} // namespace crossroof::widgets
