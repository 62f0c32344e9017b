// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/steady_plot.h"

#include "common/curve_thinning.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/qcp_access.h"
#include "common/steady_plot_stand_ins.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QPaintEvent>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

using namespace qcp_access;

namespace {

constexpr QCPAxis::AxisType kSides[] = {QCPAxis::atBottom, QCPAxis::atLeft, QCPAxis::atTop, QCPAxis::atRight};
const QString kAxisLinesLayer = QStringLiteral("crossroof-axis-lines");

/// How far from the axis rect's edge, outwards, AXIS's line and ticks may colour pixels.
int lineReach(const QCPAxis *axis)
{
    const double width = std::max({axis->basePen().widthF(), axis->tickPen().widthF(), axis->subTickPen().widthF()});
    return axis->offset() + std::max({0, axis->tickLengthOut(), axis->subTickLengthOut()}) + 1
           + (width > 1 ? int(std::ceil(width / 2)) : 0) + (axis->antialiased() ? 1 : 0);
}

} // namespace

SteadyPlot::SteadyPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    QCPLayer *axes = layer(QStringLiteral("axes"));
    addLayer(kAxisLinesLayer, axes, limAbove);
    m_axisLines = new AxisLines(this, layer(kAxisLinesLayer));
    m_gridLines = new GridLines(this, layer(QStringLiteral("grid"))); // after the grids on their layer
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
        // The margins stay on the window when the layout held and the axes show there what they showed.
        const bool keep = held && m_paintedLooksValid && marginsKeepable() && looks() == m_paintedLooks;
        update(keep ? QRegion(rect()) - margins() : QRegion(rect()));
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
    const bool laidOut = m_layout.valid && viewport().size() == m_layout.viewport;
    const QRegion margins = laidOut ? this->margins() : QRegion();
    QCPLayer *axes = layer(QStringLiteral("axes"));
    {
        QCPPainter painter(this);
        if (!painter.isActive())
            return;
        // A paint that does not reach the margins draws the axes' lines alone (it is clipped to its region, so
        // whatever else draws into the margins is not shown either way).
        m_linesOnly = laidOut && !event->region().intersects(margins) && standInsExact();
        if (mBackgroundBrush.style() != Qt::NoBrush)
            painter.fillRect(mViewport, mBackgroundBrush);
        m_painting = true;
        if (m_linesOnly)
            axes->setVisible(false);
        draw(&painter); // the background picture and every layer, in the layout of the last redraw
        if (m_linesOnly)
            axes->setVisible(true);
        m_painting = false;
    }
    if (m_linesOnly) {
        ++m_marginsKept;
    } else if (laidOut && (margins - event->region()).isEmpty()) {
        m_paintedLooks = looks(); // what the margins show now
        m_paintedLooksValid = true;
    } else if (!laidOut || looks() != m_paintedLooks) {
        m_paintedLooksValid = false; // partly painted: the next redraw paints them whole
    }
    m_linesOnly = false;
    m_lastPaintMs = double(timer.nsecsElapsed()) / 1e6;
}

void SteadyPlot::setCachedLayer(QCPLayer *layer)
{
    m_cachedLayer = layer;
    m_picture = {};
}

void SteadyPlot::draw(QCPPainter *painter)
{
    if (!m_painting) {
        QCustomPlot::draw(painter);
        return;
    }
    updateLayout();
    QCPLayer *grids = m_gridLines ? m_gridLines->layer() : nullptr;
    const bool gridReady = gridPictureReady();
    QCPLayer *cached = m_cachedLayer.data();
    if (!cached || cached->children().isEmpty()) {
        drawLayers(painter, gridReady ? grids : nullptr, nullptr);
        return;
    }
    std::vector<double> numbers;
    numbers.reserve(m_picture.numbers.size());
    QList<QPainterPath> paths;
    if (!describeCachedLayer(numbers, paths)) {
        m_picture = {};
        drawLayers(painter, gridReady ? grids : nullptr, nullptr);
        return;
    }
    // NaN (a break in a curve) equals NaN here: the same bits draw the same.
    const bool same = numbers.size() == m_picture.numbers.size()
                      && std::equal(numbers.begin(), numbers.end(), m_picture.numbers.begin(),
                                    [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); })
                      && paths == m_picture.paths;
    if (!same) {
        // The layer's graphs draw inside their axis rects (a layer clips each child one pixel up).
        QRect area;
        for (QCPLayerable *child : cached->children())
            area |= (child->*&LayerableDrawing::clipRect)().translated(0, -1);
        clearPicture(m_picture, area & QRect(QPoint(0, 0), viewport().size()));
        {
            QCPPainter layerPainter(&m_picture.image);
            layerPainter.translate(-m_picture.area.topLeft());
            (cached->*&LayerDrawing::draw)(&layerPainter);
        }
        m_picture.numbers = std::move(numbers);
        m_picture.paths = std::move(paths);
        ++m_cacheDraws;
    }
    drawLayers(painter, gridReady ? grids : nullptr, cached);
}

void SteadyPlot::drawLayers(QCPPainter *painter, QCPLayer *grids, QCPLayer *cached)
{
    drawBackground(painter);
    for (int i = 0; i < layerCount(); ++i) {
        QCPLayer *each = layer(i);
        if (each == cached || each == grids) {
            // Clipped to the picture's rectangle: where the paint's region is not a rectangle (the margins kept),
            // Qt 6.4's raster engine blends an image clipped to that region span by span on its thread pool; the
            // part of the region inside the axis rect is a rectangle, blended in one pass on this thread.
            const Picture &picture = each == cached ? m_picture : m_gridPicture;
            painter->save();
            painter->setClipRect(picture.area);
            painter->drawImage(picture.area.topLeft(), picture.image);
            painter->restore();
        } else {
            (each->*&LayerDrawing::draw)(painter);
        }
    }
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

QRegion SteadyPlot::margins() const
{
    const QCPAxisRect *rect = axisRect();
    if (!rect)
        return {};
    std::array<int, 4> reach{}; // bottom, left, top, right
    for (std::size_t i = 0; i < std::size(kSides); ++i) {
        for (const QCPAxis *axis : rect->axes(kSides[i]))
            reach[i] = std::max(reach[i], lineReach(axis));
    }
    const QRect band = rect->rect().adjusted(-reach[1], -reach[2], reach[3], reach[0]);
    return QRegion(rect->outerRect()) - QRegion(band);
}

bool SteadyPlot::standInsExact() const
{
    if (axisRectCount() != 1 || !m_axisLines || !m_gridLines)
        return false;
    const QCPAxisRect *rect = axisRect();
    const QCPLayer *axes = layer(QStringLiteral("axes"));
    // The grids come first on their layer, the stand-in after them: nothing may be drawn between.
    const QList<QCPLayerable *> onGridLayer = m_gridLines->layer()->children();
    for (QCPLayerable *child : onGridLayer) {
        const auto *grid = qobject_cast<QCPGrid *>(child);
        const auto *owner = grid ? qobject_cast<QCPAxis *>(grid->parentLayerable()) : nullptr;
        if (child != m_gridLines && !(owner && owner->axisRect() == rect) && child->realVisibility())
            return false;
    }
    if (onGridLayer.isEmpty() || onGridLayer.last() != m_gridLines)
        return false;
    // Hiding the axes' layer hides nothing else.
    for (QCPLayerable *child : axes->children()) {
        const auto *axis = qobject_cast<QCPAxis *>(child);
        if (!(axis && axis->axisRect() == rect) && child->realVisibility())
            return false;
    }
    for (const QCPAxis *axis : rect->axes()) {
        if (axis->layer() != axes || axis->selectedParts() != QCPAxis::spNone
            || axis->lowerEnding().style() != QCPLineEnding::esNone
            || axis->upperEnding().style() != QCPLineEnding::esNone || axis->tickLabelSide() != QCPAxis::lsOutside)
            return false;
        // The tick labels and the title begin beyond the band the lines are redrawn in.
        const int beyondTicks = lineReach(axis) - axis->offset() - std::max({0, axis->tickLengthOut(), axis->subTickLengthOut()});
        if (axis->tickLabelPadding() <= beyondTicks || axis->labelPadding() <= beyondTicks)
            return false;
    }
    return true;
}

bool SteadyPlot::marginsKeepable() const
{
    if (!standInsExact())
        return false;
    // Nothing but the axes draws into the margins.
    const QCPAxisRect *rect = axisRect();
    const QCPLayer *axes = layer(QStringLiteral("axes"));
    const QRegion margins = this->margins();
    for (int i = 0; i < layerCount(); ++i) {
        for (QCPLayerable *child : layer(i)->children()) {
            if (child == m_axisLines || child == m_gridLines || !child->realVisibility())
                continue;
            if (child->layer() == axes)
                continue; // this rect's axes (standInsExact)
            if (qobject_cast<QCPGrid *>(child) || qobject_cast<QCPAbstractPlottable *>(child)
                || qobject_cast<const QCPAxisRect *>(child) == rect)
                continue; // inside the axis rect
            if (auto *item = qobject_cast<QCPAbstractItem *>(child)) {
                if (item->clipToAxisRect() && item->clipAxisRect() == rect)
                    continue;
                return false;
            }
            if (auto *selection = qobject_cast<QCPSelectionRect *>(child); selection && !selection->isActive())
                continue; // draws only while the user drags it out
            if (child->metaObject() == &QCPLayoutGrid::staticMetaObject
                || child->metaObject() == &QCPLayoutInset::staticMetaObject)
                continue; // a layout draws nothing of its own
            if (auto *element = qobject_cast<QCPLayoutElement *>(child)) {
                if (margins.intersects(element->outerRect()))
                    return false;
                continue;
            }
            if (margins.intersects((child->*&LayerableDrawing::clipRect)()))
                return false;
        }
    }
    return true;
}

std::array<SteadyPlot::AxisLook, 4> SteadyPlot::looks() const
{
    std::array<AxisLook, 4> looks;
    const QCPAxisRect *rect = axisRect();
    for (std::size_t i = 0; rect && i < std::size(kSides); ++i) {
        const QCPAxis *axis = rect->axis(kSides[i]);
        if (!axis)
            continue;
        looks[i] = {axis->visible(),           axis->range(),      axis->tickVectorLabels(), axis->label(),
                    axis->tickLabelColor(),    axis->labelColor(), axis->tickLabelFont(),    axis->labelFont()};
    }
    return looks;
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

void redrawSoon(QCustomPlot *plot)
{
    if (auto *steady = dynamic_cast<SteadyPlot *>(plot))
        steady->requestRedraw();
    else
        plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace crossroof::widgets
