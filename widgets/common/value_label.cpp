// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/value_label.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

ValueLabel::ValueLabel(Qt::Alignment alignment, QWidget *parent)
    : QWidget(parent)
    , m_alignment(alignment)
{
    m_static.setTextFormat(Qt::PlainText);
    m_static.setPerformanceHint(QStaticText::AggressiveCaching);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    measure();
}

void ValueLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_static.setText(text);
    if (measure()) {
        ++m_hintChanges;
        updateGeometry();
    }
    update();
    setAccessibleName(text);
}

bool ValueLabel::measure()
{
    const QFontMetrics metrics(font());
    m_static.prepare(QTransform(), font()); // laid out once, here: its size is the text's width
    m_advance = m_text.isEmpty() ? 0 : int(std::ceil(m_static.size().width()));
    const int step = std::max(1, 2 * metrics.averageCharWidth());
    // Room for one more step, so a number that gains a digit (9.99 to 10.01) fits; grown at once, shrunk only
    // when three steps stand empty, so numbers that flicker between widths do not relayout the panel each
    // step.
    if (m_advance <= m_hintWidth && m_advance > m_hintWidth - 3 * step)
        return false;
    const int width = (m_advance + step - 1) / step * step + step;
    if (width == m_hintWidth)
        return false;
    m_hintWidth = width;
    // Measured as QLabel measures, when the hint moves; never less than the laid-out text the paint draws (a
    // pixel more, at times), or a label given its minimum would elide a text that fits.
    m_minimumWidth = std::max(metrics.horizontalAdvance(m_text), m_advance);
    return true;
}

QSize ValueLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {m_hintWidth + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

QSize ValueLabel::minimumSizeHint() const
{
    // The text as it was when the hint last moved, without the step to spare: a narrow panel gives up the spare
    // room first (and elides a text that outgrew it before the hint moved).
    const QMargins m = contentsMargins();
    return {m_minimumWidth + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

void ValueLabel::paintEvent(QPaintEvent *)
{
    if (m_text.isEmpty())
        return;
    QPainter painter(this);
    painter.setPen(palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, foregroundRole()));
    const QRect area = contentsRect();
    if (m_advance > area.width()) { // squeezed: elided, laid out on the spot
        const QString elided = fontMetrics().elidedText(m_text, Qt::ElideRight, area.width());
        painter.drawText(area, int(m_alignment | Qt::AlignVCenter), elided);
        return;
    }
    const QRect at = QStyle::alignedRect(layoutDirection(), m_alignment | Qt::AlignVCenter,
                                         QSize(m_advance, fontMetrics().height()), area);
    painter.drawStaticText(at.topLeft(), m_static);
}

void ValueLabel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_hintWidth = 0; // measured afresh in the new font
        m_minimumWidth = 0;
        measure();
        updateGeometry();
        update();
    }
}

} // namespace crossroof::widgets
