// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/stamped_graph.h"

#include "common/plot_style.h"

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// The pen QCPScatterStyle::applyTo gives a symbol: its own, or the graph's when it has none.
QPen symbolPen(const QCPScatterStyle &style, const QPen &graphPen)
{
    return style.isPenDefined() ? style.pen() : graphPen;
}

/// Half the side of a square image that holds the whole symbol, its pen and a phase's shift.
int halfSide(const QCPScatterStyle &style, const QPen &pen)
{
    if (style.shape() == QCPScatterStyle::ssCustom) {
        // QCustomPlot scales a path and its pen by size / 6; a mitred corner reaches miterLimit half-widths out.
        const QRectF box = style.customPath().boundingRect();
        const double extent = std::max({std::abs(box.left()), std::abs(box.right()), std::abs(box.top()),
                                        std::abs(box.bottom())});
        const double reach = style.size() / 6.0 * (extent + pen.widthF() * std::max(1.0, pen.miterLimit()));
        return int(std::ceil(reach + 1)) + 2;
    }
    return int(std::ceil(style.size() / 2.0 + std::max(1.0, pen.widthF()))) + 2;
}

} // namespace

StampedGraph::StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPGraph(keyAxis, valueAxis)
{
}

QRect StampedGraph::clipRect() const
{
    const QRect rect = QCPGraph::clipRect();
    if (!m_wholeMarks || mScatterStyle.isNone())
        return rect;
    const int reach = int(std::ceil(mScatterStyle.size() / 2 + mScatterStyle.pen().widthF())) + 1;
    return rect.adjusted(-reach, -reach, reach, reach);
}

bool StampedGraph::stamps(const QCPPainter *painter, const QCPScatterStyle &style) const
{
    switch (style.shape()) {
    case QCPScatterStyle::ssNone:
    case QCPScatterStyle::ssDot: // a single pixel
    case QCPScatterStyle::ssPixmap:
        return false;
    default:
        break;
    }
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    return painter->antialiasing() && plot_style::drawsPixelsAsTheyAre(painter) && dpr == std::round(dpr);
}

const QImage &StampedGraph::symbol(const QCPScatterStyle &style, qreal dpr, int phaseX, int phaseY) const
{
    const QPen pen = symbolPen(style, mPen);
    const bool brushed = style.brush().style() != Qt::NoBrush;
    const SymbolKey key{int(style.shape()),
                        style.size(),
                        pen.color().rgba(),
                        pen.widthF(),
                        int(pen.style()) | int(pen.capStyle()) << 8 | int(pen.joinStyle()) << 16,
                        brushed ? style.brush().color().rgba() : 0u,
                        int(style.brush().style()),
                        dpr,
                        style.shape() == QCPScatterStyle::ssCustom ? style.customPath() : QPainterPath()};
    auto symbols = std::find_if(m_symbols.begin(), m_symbols.end(), [&](const Symbols &s) { return s.key == key; });
    if (symbols == m_symbols.end()) {
        if (m_symbols.size() >= 4)
            m_symbols.erase(m_symbols.begin()); // styles a view no longer uses
        symbols = m_symbols.insert(m_symbols.end(), Symbols{key, {}});
    }
    QImage &image = symbols->images[std::size_t(phaseX * kPhases + phaseY)];
    if (!image.isNull())
        return image;
    const int half = halfSide(style, pen);
    image = QImage(QSize(2 * half, 2 * half) * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    {
        QCPPainter painter(&image);
        painter.setAntialiasing(true); // which also shifts QCPPainter's drawing by half a pixel: taken back
        style.applyTo(&painter, mPen);
        const QPointF own(painter.transform().dx(), painter.transform().dy());
        // The phase is in device pixels.
        style.drawShape(&painter, half + phaseX / (kPhases * dpr) - own.x(), half + phaseY / (kPhases * dpr) - own.y());
    }
    ++m_rendered;
    return image;
}

void StampedGraph::stamp(QCPPainter *painter, const QCPScatterStyle &style, const QVector<QPointF> &points) const
{
    const qreal dpr = painter->device()->devicePixelRatioF();
    const int half = halfSide(style, symbolPen(style, mPen));
    // Whole device pixels and the nearest quarter of one; the painter only translates (drawsPixelsAsTheyAre).
    const QPointF shift(painter->transform().dx(), painter->transform().dy());
    painter->save();
    painter->resetTransform();
    for (const QPointF &point : points) {
        if (!std::isfinite(point.x()) || !std::isfinite(point.y()))
            continue;
        const QPointF device = (point + shift) * dpr;
        const double x = std::round(device.x() * kPhases) / kPhases;
        const double y = std::round(device.y() * kPhases) / kPhases;
        // Far outside the device nothing shows: QCustomPlot clips its marks to the axis rect anyway.
        if (std::abs(x) > 1e6 || std::abs(y) > 1e6)
            continue;
        const double wholeX = std::floor(x), wholeY = std::floor(y);
        const int phaseX = int((x - wholeX) * kPhases), phaseY = int((y - wholeY) * kPhases);
        const QImage &image = symbol(style, dpr, phaseX, phaseY);
        painter->drawImage(QPointF((wholeX - half * dpr) / dpr, (wholeY - half * dpr) / dpr), image);
        ++m_stamped;
    }
    painter->restore();
}

void StampedGraph::drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                                   const QCPScatterStyle &style) const
{
    applyScattersAntialiasingHint(painter);
    if (!stamps(painter, style)) {
        QCPGraph::drawScatterPlot(painter, scatters, style);
        return;
    }
    stamp(painter, style, scatters);
}

void StampedGraph::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    // A marks-only graph's icon is its symbol in the middle of the rectangle; anything else as QCPGraph has it.
    if (brush().style() != Qt::NoBrush || lineStyle() != lsNone || scatterStyle().isNone()) {
        QCPGraph::drawLegendIcon(painter, rect);
        return;
    }
    applyScattersAntialiasingHint(painter);
    if (!stamps(painter, scatterStyle())) {
        QCPGraph::drawLegendIcon(painter, rect);
        return;
    }
    stamp(painter, scatterStyle(), {rect.center()});
}

} // namespace crossroof::widgets
