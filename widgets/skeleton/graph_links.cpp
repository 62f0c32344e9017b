// SPDX-License-Identifier: GPL-3.0-or-later
#include "skeleton/graph_links.h"

#include <cmath>

namespace crossroof::widgets {

GraphLinks::GraphLinks(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setAntialiased(true);
}

void GraphLinks::setLinks(std::vector<Edge> edges, std::vector<const QCPItemText *> dots)
{
    m_edges = std::move(edges);
    m_dots = std::move(dots);
}

double GraphLinks::selectTest(const QPointF &, bool, QVariant *) const
{
    return -1; // not selectable
}

QCPRange GraphLinks::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = false; // the labels' places make the range (SkeletonView fits it)
    return {};
}

QCPRange GraphLinks::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = false;
    return {};
}

void GraphLinks::draw(QCPPainter *painter)
{
    applyDefaultAntialiasingHint(painter);
    const QCPLineEnding head(QCPLineEnding::esSpikeArrow, 6, 8);
    QPen solid = mPen;
    solid.setStyle(Qt::SolidLine);
    QPen dashed = mPen;
    dashed.setStyle(Qt::DashLine);
    for (const Edge &e : m_edges) {
        QPolygonF line;
        for (const QPointF &p : e.route) {
            const QPointF at = coordsToPixels(p.x(), p.y());
            if (std::isfinite(at.x()) && std::isfinite(at.y()))
                line << at;
        }
        if (line.size() < 2)
            continue;
        painter->setPen(e.dashed ? dashed : solid);
        painter->drawPolyline(line);
        const QPointF tip = line.last();
        const QPointF from = line[line.size() - 2];
        if (QLineF(from, tip).length() > 1) {
            painter->setPen(solid);
            painter->setBrush(solid.color());
            head.draw(painter, QCPVector2D(tip), QCPVector2D(tip - from));
            painter->setBrush(Qt::NoBrush);
        }
    }
    painter->setPen(mPen);
    painter->setBrush(mBrush);
    for (const QCPItemText *label : m_dots) {
        const QPointF at = label->position->pixelPosition();
        if (std::isfinite(at.x()) && std::isfinite(at.y()))
            painter->drawEllipse(at, 3.0, 3.0);
    }
}

void GraphLinks::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    painter->setPen(mPen);
    painter->drawLine(QLineF(rect.left(), rect.center().y(), rect.right(), rect.center().y()));
}

} // namespace crossroof::widgets
