// SPDX-License-Identifier: GPL-3.0-or-later
// SteadyPlot's pictures: what the cached layer and the grid depend on, so that their pictures are drawn again
// only when that changes, and the grid drawn into its picture.
#include "common/steady_plot.h"

#include "common/qcp_access.h"
#include "common/steady_plot_stand_ins.h"

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

using namespace qcp_access;

namespace {

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

void SteadyPlot::clearPicture(Picture &picture, const QRect &area)
{
    // A new image of a plot's size at a pixel ratio of 2 is megabytes that the system maps and clears afresh, page
    // by page: on the benchmark's virtual machine that cost more than drawing into it.
    const qreal ratio = devicePixelRatioF();
    const QSize pixels = area.size() * ratio;
    if (picture.image.size() != pixels || picture.image.devicePixelRatio() != ratio) {
        picture.image = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        picture.image.setDevicePixelRatio(ratio);
        ++m_picturesAllocated;
    }
    picture.image.fill(Qt::transparent);
    picture.area = area;
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
    // The grids' pixels lie in the axis rect, one pixel up as drawn: the picture is that part alone.
    clearPicture(m_gridPicture, axisRect()->rect().adjusted(0, -1, 0, 0) & QRect(QPoint(0, 0), viewport().size()));
    {
        QCPPainter gridPainter(&m_gridPicture.image);
        gridPainter.translate(-m_gridPicture.area.topLeft());
        for (QCPLayerable *child : m_gridLines->layer()->children()) {
            auto *grid = qobject_cast<QCPGrid *>(child);
            const auto *axis = grid ? qobject_cast<const QCPAxis *>(grid->parentLayerable()) : nullptr;
            if (grid && axis)
                drawGrid(&gridPainter, grid);
        }
    }
    m_gridPicture.numbers = std::move(numbers);
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

} // namespace crossroof::widgets
