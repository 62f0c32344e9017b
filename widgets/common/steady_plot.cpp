// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/steady_plot.h"

#include "common/curve_thinning.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"

#include <QElapsedTimer>
#include <QMetaObject>

namespace crossroof::widgets {

namespace {

constexpr QCPAxis::AxisType kSides[] = {QCPAxis::atBottom, QCPAxis::atLeft, QCPAxis::atTop, QCPAxis::atRight};

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

void SteadyPlot::setDirectPaint(bool on)
{
    m_direct = on;
    update();
}

void SteadyPlot::redraw()
{
    if (!m_queued)
        return; // a replot came first and drew it
    m_queued = false;
    m_holdLayout = layoutHolds();
    const bool held = m_holdLayout;
    if (m_direct) {
        // What replot() does, less drawing its buffers: the paint that follows draws the layers.
        Q_EMIT beforeReplot(); // the plot's helpers put the user's ranges back and restyle here
        updateLayout();
        update();
        Q_EMIT afterReplot();
    } else {
        replot();
    }
    m_holdLayout = false;
    if (held)
        ++m_steadyRedraws;
}

void SteadyPlot::paintEvent(QPaintEvent *event)
{
    if (!m_direct) {
        QCustomPlot::paintEvent(event);
        return;
    }
    QElapsedTimer timer;
    timer.start();
    {
        QCPPainter painter(this);
        if (!painter.isActive())
            return;
        if (mBackgroundBrush.style() != Qt::NoBrush)
            painter.fillRect(mViewport, mBackgroundBrush);
        m_painting = true;
        draw(&painter); // the background picture and every layer, in the layout of the last redraw
        m_painting = false;
    }
    m_lastPaintMs = double(timer.nsecsElapsed()) / 1e6;
}

void SteadyPlot::updateLayout()
{
    if (m_painting && m_layout.valid && viewport().size() == m_layout.viewport)
        return; // a paint draws in the layout its redraw made
    if (m_holdLayout)
        return; // the last layout, checked by layoutHolds()
    QCustomPlot::updateLayout();
    ++m_laidOutRedraws;
    if (!m_painting)
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
