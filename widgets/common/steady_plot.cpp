// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/steady_plot.h"

#include "common/curve_thinning.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QPaintEvent>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

constexpr QCPAxis::AxisType kSides[] = {QCPAxis::atBottom, QCPAxis::atLeft, QCPAxis::atTop, QCPAxis::atRight};
const QString kAxisLinesLayer = QStringLiteral("crossroof-axis-lines");

/// Reaches what QCustomPlot keeps to itself: a layerable's drawing and clip rectangle, an axis's sub-tick
/// coordinates.
struct LayerableDrawing : QCPLayerable
{
    using QCPLayerable::applyDefaultAntialiasingHint;
    using QCPLayerable::clipRect;
    using QCPLayerable::draw;
};
struct LayerDrawing : QCPLayer
{
    using QCPLayer::draw;
};
struct AxisTicks : QCPAxis
{
    using QCPAxis::mSubTickVector;
};

/// How far from the axis rect's edge, outwards, AXIS's line and ticks may colour pixels.
int lineReach(const QCPAxis *axis)
{
    const double width = std::max({axis->basePen().widthF(), axis->tickPen().widthF(), axis->subTickPen().widthF()});
    return axis->offset() + std::max({0, axis->tickLengthOut(), axis->subTickLengthOut()}) + 1
           + (width > 1 ? int(std::ceil(width / 2)) : 0) + (axis->antialiased() ? 1 : 0);
}

/// What a paint with PEN depends on, appended to NUMBERS.
void describePen(const QPen &pen, std::vector<double> &numbers)
{
    numbers.insert(numbers.end(), {double(pen.color().rgba()), pen.widthF(), double(pen.style()),
                                   double(pen.capStyle()), double(pen.joinStyle()), double(pen.isCosmetic()),
                                   pen.dashOffset()});
    if (pen.style() == Qt::CustomDashLine) {
        const QList<qreal> dashes = pen.dashPattern();
        numbers.insert(numbers.end(), dashes.begin(), dashes.end());
    }
}

} // namespace

/// What stands in for the axes' layer while it is hidden, during a paint that keeps the axis rect's margins
/// (SteadyPlot::m_linesOnly): something drawn for each axis of the axis rect, on LAYER, in the axes' order.
class SteadyPlot::StandIn : public QCPLayerable
{
public:
    StandIn(SteadyPlot *plot, QCPLayer *layer)
        : QCPLayerable(plot)
        , m_plot(plot)
    {
        setLayer(layer);
    }

protected:
    /// Draws AXIS's part, the painter saved around it.
    virtual void drawFor(QCPPainter *painter, const QCPAxis *axis) = 0;

    void applyDefaultAntialiasingHint(QCPPainter *) const override {} // each axis its own, in drawFor()
    void draw(QCPPainter *painter) override
    {
        if (!m_plot->m_linesOnly)
            return;
        for (const QCPAxis *axis : m_plot->axisRect()->axes()) {
            painter->save();
            drawFor(painter, axis);
            painter->restore();
        }
    }

    SteadyPlot *m_plot;
};

/// The axes' lines and ticks, drawn as QCPAxis draws them, to the pixel.
class SteadyPlot::AxisLines : public SteadyPlot::StandIn
{
public:
    using StandIn::StandIn;

protected:
    void drawFor(QCPPainter *painter, const QCPAxis *axis) override
    {
        if (!axis->visible())
            return;
        applyAntialiasingHint(painter, axis->antialiased(), QCP::aeAxes);
        const QRect rect = axis->axisRect()->rect();
        const QCPAxis::AxisType type = axis->axisType();
        const int offset = axis->offset();
        QPoint origin;
        double xCor = 0, yCor = 0; // the top and right axes lie one pixel outside the rect, as QCustomPlot has them
        switch (type) {
        case QCPAxis::atLeft: origin = rect.bottomLeft() + QPoint(-offset, 0); break;
        case QCPAxis::atRight: origin = rect.bottomRight() + QPoint(offset, 0); xCor = 1; break;
        case QCPAxis::atTop: origin = rect.topLeft() + QPoint(0, -offset); yCor = -1; break;
        case QCPAxis::atBottom: origin = rect.bottomLeft() + QPoint(0, offset); break;
        }
        const bool horizontal = QCPAxis::orientation(type) == Qt::Horizontal;
        painter->setPen(axis->basePen());
        if (horizontal)
            painter->drawLine(QLineF(origin + QPointF(xCor, yCor), origin + QPointF(rect.width() + xCor, yCor)));
        else
            painter->drawLine(QLineF(origin + QPointF(xCor, yCor), origin + QPointF(xCor, -rect.height() + yCor)));
        if (!axis->ticks())
            return;
        const int inward = (type == QCPAxis::atBottom || type == QCPAxis::atRight) ? -1 : 1;
        // In one call per pen; without antialiasing rounded to whole pixels first, as QCPPainter::drawLine does.
        const auto ticks = [&](const QVector<double> &coords, int lengthIn, int lengthOut) {
            m_lines.clear();
            for (const double coord : coords) {
                const double at = axis->coordToPixel(coord);
                if (horizontal)
                    m_lines.append(QLineF(at + xCor, origin.y() - lengthOut * inward + yCor, at + xCor,
                                          origin.y() + lengthIn * inward + yCor));
                else
                    m_lines.append(QLineF(origin.x() - lengthOut * inward + xCor, at + yCor,
                                          origin.x() + lengthIn * inward + xCor, at + yCor));
            }
            if (painter->antialiasing()) {
                painter->drawLines(m_lines);
                return;
            }
            m_whole.clear();
            for (const QLineF &line : std::as_const(m_lines))
                m_whole.append(line.toLine());
            painter->drawLines(m_whole);
        };
        const QVector<double> major = axis->tickVector();
        if (!major.isEmpty()) {
            painter->setPen(axis->tickPen());
            ticks(major, axis->tickLengthIn(), axis->tickLengthOut());
        }
        const QVector<double> &minor = axis->*&AxisTicks::mSubTickVector;
        if (axis->subTicks() && !minor.isEmpty()) {
            painter->setPen(axis->subTickPen());
            ticks(minor, axis->subTickLengthIn(), axis->subTickLengthOut());
        }
    }

private:
    QVector<QLineF> m_lines; ///< one pen's ticks, kept between paints for their storage
    QVector<QLine> m_whole;
};

/// The grids (a grid belongs to its axis and is hidden with it), each by its own drawing, as its layer draws it.
class SteadyPlot::GridLines : public SteadyPlot::StandIn
{
public:
    using StandIn::StandIn;

protected:
    void drawFor(QCPPainter *painter, const QCPAxis *axis) override
    {
        QCPGrid *grid = axis->grid();
        if (!grid->visible() || grid->layer() != layer())
            return;
        // The grid's lines lie in the axis rect. Clipped to a rectangle that holds it, not only to the paint's
        // region (the window less the margins): Qt's raster engine blends a line clipped by a region span by
        // span, on several threads at once, many times slower.
        const QRect inside = m_plot->axisRect()->rect().adjusted(-1, -1, 1, 1);
        painter->setClipRect((grid->*&LayerableDrawing::clipRect)().translated(0, -1) & inside);
        (grid->*&LayerableDrawing::applyDefaultAntialiasingHint)(painter);
        (grid->*&LayerableDrawing::draw)(painter);
    }
};

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

bool SteadyPlot::describeCachedLayer(std::vector<double> &numbers, QList<QPainterPath> &paths) const
{
    const auto pen = [&numbers](const QPen &p) { describePen(p, numbers); };
    const auto brush = [&numbers](const QBrush &b) {
        numbers.insert(numbers.end(), {double(b.color().rgba()), double(b.style())});
    };
    const auto axis = [&numbers](const QCPAxis *a) {
        const QRect rect = a->axisRect()->rect();
        numbers.insert(numbers.end(), {double(reinterpret_cast<quintptr>(a)), a->range().lower, a->range().upper,
                                       double(a->scaleType()), double(a->rangeReversed()), double(rect.x()),
                                       double(rect.y()), double(rect.width()), double(rect.height())});
    };
    numbers.insert(numbers.end(), {double(viewport().width()), double(viewport().height()), devicePixelRatioF(),
                                   double(antialiasedElements()), double(notAntialiasedElements())});
    for (QCPLayerable *child : m_cachedLayer->children()) {
        const auto *graph = qobject_cast<const QCPGraph *>(child);
        if (!graph || graph->selected() || graph->channelFillGraph() || !graph->keyAxis() || !graph->valueAxis())
            return false;
        numbers.insert(numbers.end(), {double(reinterpret_cast<quintptr>(graph)), double(graph->realVisibility()),
                                       double(graph->antialiased()), double(graph->antialiasedFill()),
                                       double(graph->antialiasedScatters()), double(graph->lineStyle()),
                                       double(graph->scatterSkip()), double(graph->adaptiveSampling())});
        if (!graph->realVisibility())
            continue;
        pen(graph->pen());
        brush(graph->brush());
        const QCPScatterStyle &scatter = graph->scatterStyle();
        numbers.insert(numbers.end(), {double(scatter.shape()), scatter.size(), double(scatter.isPenDefined())});
        pen(scatter.pen());
        brush(scatter.brush());
        if (scatter.shape() == QCPScatterStyle::ssCustom)
            paths.append(scatter.customPath());
        if (scatter.shape() == QCPScatterStyle::ssPixmap)
            return false;
        axis(graph->keyAxis());
        axis(graph->valueAxis());
        numbers.push_back(double(graph->dataCount()));
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            numbers.insert(numbers.end(), {it->key, it->value});
    }
    return true;
}

bool SteadyPlot::describeGrid(std::vector<double> &numbers) const
{
    const QCPLayer *grids = m_gridLines ? m_gridLines->layer() : nullptr;
    if (axisRectCount() != 1 || !grids || !grids->visible())
        return false;
    const QCPAxisRect *rect = axisRect();
    const QRect r = rect->rect();
    numbers.insert(numbers.end(), {double(viewport().width()), double(viewport().height()), devicePixelRatioF(),
                                   double(antialiasedElements()), double(notAntialiasedElements()), double(r.x()),
                                   double(r.y()), double(r.width()), double(r.height())});
    const auto pen = [&numbers](const QPen &p) { describePen(p, numbers); };
    for (const QCPLayerable *child : grids->children()) {
        if (child == m_gridLines)
            continue;
        const auto *grid = qobject_cast<const QCPGrid *>(child);
        const auto *axis = grid ? qobject_cast<const QCPAxis *>(grid->parentLayerable()) : nullptr;
        if (!axis || axis->axisRect() != rect)
            return false; // something else draws on the grid layer
        // Shown as QCPLayer::draw shows it with the axes' layer visible (the margin-keeping paints hide that
        // layer and draw the grids through the stand-in, the same lines).
        const bool shown = grid->visible() && axis->visible();
        numbers.insert(numbers.end(), {double(reinterpret_cast<quintptr>(grid)), double(shown)});
        if (!shown)
            continue;
        numbers.insert(numbers.end(), {axis->range().lower, axis->range().upper, double(axis->scaleType()),
                                       double(axis->rangeReversed()), double(grid->subGridVisible()),
                                       double(grid->antialiased()), double(grid->antialiasedSubGrid()),
                                       double(grid->antialiasedZeroLine())});
        pen(grid->pen());
        pen(grid->subGridPen());
        pen(grid->zeroLinePen());
        const QVector<double> &ticks = axis->tickVector();
        numbers.push_back(double(ticks.size()));
        numbers.insert(numbers.end(), ticks.begin(), ticks.end());
        const QVector<double> &sub = axis->*&AxisTicks::mSubTickVector;
        numbers.push_back(double(sub.size()));
        numbers.insert(numbers.end(), sub.begin(), sub.end());
    }
    return true;
}

bool SteadyPlot::gridPictureReady()
{
    // At a pixel ratio of 1 the lines cost less than blending a picture the size of the plot (0.58 against
    // 0.71 ms for the benchmark's X-graph step on a 2-core EPYC); at 2, four times the pixels, far more.
    if (devicePixelRatioF() <= 1) {
        m_gridPicture = {};
        return false;
    }
    std::vector<double> numbers;
    numbers.reserve(m_gridPicture.numbers.size());
    if (!describeGrid(numbers)) {
        m_gridPicture = {};
        return false;
    }
    if (numbers == m_gridPicture.numbers && !m_gridPicture.image.isNull())
        return true;
    const qreal ratio = devicePixelRatioF();
    QImage image(viewport().size() * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    {
        QCPPainter gridPainter(&image);
        for (QCPLayerable *child : m_gridLines->layer()->children()) {
            auto *grid = qobject_cast<QCPGrid *>(child);
            const auto *axis = grid ? qobject_cast<const QCPAxis *>(grid->parentLayerable()) : nullptr;
            if (grid && axis)
                drawGrid(&gridPainter, grid);
        }
    }
    m_gridPicture = {std::move(numbers), {}, std::move(image)};
    ++m_gridDraws;
    return true;
}

void SteadyPlot::drawGrid(QCPPainter *painter, QCPGrid *grid) const
{
    // As QCPLayer::draw draws a child, clipped to its clip rect one pixel up, where it is shown with the axes'
    // layer visible.
    const auto *axis = qobject_cast<const QCPAxis *>(grid->parentLayerable());
    if (!axis || !grid->visible() || !axis->visible())
        return;
    painter->save();
    painter->setClipRect((grid->*&LayerableDrawing::clipRect)().translated(0, -1));
    (grid->*&LayerableDrawing::applyDefaultAntialiasingHint)(painter);
    (grid->*&LayerableDrawing::draw)(painter);
    painter->restore();
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
        const qreal ratio = devicePixelRatioF();
        QImage image(viewport().size() * ratio, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(ratio);
        image.fill(Qt::transparent);
        {
            QCPPainter layerPainter(&image);
            (cached->*&LayerDrawing::draw)(&layerPainter);
        }
        m_picture = {std::move(numbers), std::move(paths), std::move(image)};
        ++m_cacheDraws;
    }
    drawLayers(painter, gridReady ? grids : nullptr, cached);
}

void SteadyPlot::drawLayers(QCPPainter *painter, QCPLayer *grids, QCPLayer *cached)
{
    drawBackground(painter);
    for (int i = 0; i < layerCount(); ++i) {
        QCPLayer *each = layer(i);
        if (each == cached) {
            painter->drawImage(QPointF(0, 0), m_picture.image);
        } else if (each == grids) {
            // The grids' pixels lie in the axis rect (one pixel up, as drawn): that part of the picture alone.
            const QRect part = axisRect()->rect().adjusted(0, -1, 0, 0) & QRect(QPoint(0, 0), viewport().size());
            painter->save();
            painter->setClipRect(part);
            painter->drawImage(QPointF(0, 0), m_gridPicture.image);
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
