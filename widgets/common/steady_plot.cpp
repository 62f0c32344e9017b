// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/steady_plot.h"

#include "common/curve_thinning.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"

#include <QMetaObject>

namespace crossroof::widgets {

namespace {

constexpr QCPAxis::AxisType kSides[] = {QCPAxis::atBottom, QCPAxis::atLeft, QCPAxis::atTop, QCPAxis::atRight};

/// A paint buffer that is cleared to a fill colour when it has one: the plot's bottom buffer, which then holds
/// the background and can be copied to the widget without blending.
class BaseBuffer : public QCPPaintBufferPixmap
{
public:
    using QCPPaintBufferPixmap::QCPPaintBufferPixmap;

    void setFill(const QColor &fill) { m_fill = fill; }
    /// Whether the last clear filled it with an opaque colour.
    bool opaque() const { return m_opaque; }
    void clear(const QColor &color) override
    {
        m_opaque = m_fill.isValid();
        QCPPaintBufferPixmap::clear(m_opaque ? m_fill : color);
    }

private:
    QColor m_fill;
    bool m_opaque = false;
};

} // namespace

SteadyPlot::SteadyPlot(QWidget *parent)
    : QCustomPlot(parent)
{
}

void SteadyPlot::requestRedraw()
{
    if (m_queued)
        return;
    m_queued = true;
    QMetaObject::invokeMethod(this, &SteadyPlot::redraw, Qt::QueuedConnection);
}

void SteadyPlot::redraw()
{
    if (!m_queued)
        return; // a replot came first and drew it
    m_queued = false;
    m_holdLayout = layoutHolds();
    const bool held = m_holdLayout;
    replot();
    m_holdLayout = false;
    if (held)
        ++m_steadyRedraws;
}

void SteadyPlot::prepareBaseBuffer()
{
    QColor fill;
    if (m_opaqueBase && !mOpenGl && mBackgroundPixmap.isNull() && mBackgroundBrush.style() == Qt::SolidPattern
        && mBackgroundBrush.color().alpha() == 255) {
        fill = mBackgroundBrush.color();
    }
    auto *base = mPaintBuffers.isEmpty() ? nullptr : dynamic_cast<BaseBuffer *>(mPaintBuffers.first().data());
    if (!base) {
        base = new BaseBuffer(viewport().size(), mBufferDevicePixelRatio);
        const QSharedPointer<QCPAbstractPaintBuffer> buffer(base);
        if (mPaintBuffers.isEmpty())
            mPaintBuffers.append(buffer);
        else
            mPaintBuffers.first() = buffer; // the layers are given their buffers again before they draw
    }
    base->setFill(fill);
}

void SteadyPlot::paintEvent(QPaintEvent *event)
{
    // Before the replot that follows a resize, the buffers are still of the old size: painted as usual then.
    const auto *base = mPaintBuffers.isEmpty() ? nullptr : dynamic_cast<BaseBuffer *>(mPaintBuffers.first().data());
    m_paintedOpaque = base && base->opaque() && base->size() == viewport().size();
    if (!m_paintedOpaque) {
        QCustomPlot::paintEvent(event);
        return;
    }
    QCPPainter painter(this);
    if (!painter.isActive())
        return;
    painter.setCompositionMode(QPainter::CompositionMode_Source);
    base->draw(&painter);
    painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
    for (qsizetype i = 1; i < mPaintBuffers.size(); ++i)
        mPaintBuffers.at(i)->draw(&painter);
}

void SteadyPlot::updateLayout()
{
    prepareBaseBuffer(); // every replot comes here just before its buffers are cleared
    if (m_holdLayout)
        return; // the last layout, checked by layoutHolds()
    QCustomPlot::updateLayout();
    ++m_laidOutRedraws;
    m_queued = false; // this replot draws whatever was requested before it
    remember();
}

bool SteadyPlot::layoutHolds()
{
    if (!m_layout.valid || viewport().size() != m_layout.viewport || axisRectCount() != 1
        || property(kFullDetailProperty).toBool())
        return false;
    // The navigator puts the user's ranges back just before the replot.
    if (const PlotNavigator *navigator = PlotNavigator::of(this); navigator && navigator->isZoomed())
        return false;

    QCPAxisRect *rect = axisRect();
    bool ticksMoved = false;
    for (std::size_t i = 0; i < std::size(kSides); ++i) {
        const QCPAxis *axis = rect->axis(kSides[i]);
        if (!axis)
            continue;
        if (axis->label() != m_layout.labels[i])
            return false;
        const QCPRange range = axis->range();
        ticksMoved = ticksMoved || range.lower != m_layout.ranges[2 * i] || range.upper != m_layout.ranges[2 * i + 1];
    }
    if (ticksMoved) {
        // The axes get their ticks for the new ranges (the layout's first phase); their labels must still fit
        // the margins laid out (its second).
        rect->update(QCPLayoutElement::upPreparation);
        rect->update(QCPLayoutElement::upMargins);
        if (rect->margins() != m_layout.margins)
            return false;
    }

    if (!legend)
        return true;
    if (legend->realVisibility() != m_layout.legendVisible || legend->itemCount() != m_layout.legend.size())
        return false;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        const LegendEntry &was = m_layout.legend[i];
        if (item != was.item)
            return false;
        if (!item)
            continue;
        // Measured again only when its name or font changed.
        if (item->visible() != was.visible || plot_style::legendEntrySize(item) != was.size)
            return false;
    }
    return true;
}

void SteadyPlot::remember()
{
    m_layout.valid = true;
    m_layout.viewport = viewport().size();
    QCPAxisRect *rect = axisRect();
    for (std::size_t i = 0; i < std::size(kSides); ++i) {
        const QCPAxis *axis = rect ? rect->axis(kSides[i]) : nullptr;
        const QCPRange range = axis ? axis->range() : QCPRange();
        m_layout.ranges[2 * i] = range.lower;
        m_layout.ranges[2 * i + 1] = range.upper;
        m_layout.labels[i] = axis ? axis->label() : QString();
    }
    m_layout.margins = rect ? rect->margins() : QMargins();
    m_layout.legend.clear();
    if (legend) {
        m_layout.legendVisible = legend->realVisibility();
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (item)
                m_layout.legend.append({item, item->visible(), plot_style::legendEntrySize(item)});
            else
                m_layout.legend.append({nullptr, false, {}});
        }
    }
}

} // namespace crossroof::widgets
