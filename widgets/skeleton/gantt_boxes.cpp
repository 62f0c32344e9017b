// SPDX-License-Identifier: GPL-3.0-or-later
#include "skeleton/gantt_boxes.h"

#include <algorithm>
#include <utility>

namespace crossroof::widgets {

GanttBoxes::GanttBoxes(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setPen(Qt::NoPen);
}

void GanttBoxes::setBoxes(std::vector<Box> issues, std::vector<Box> latencies)
{
    m_issues = std::move(issues);
    m_latencies = std::move(latencies);
}

double GanttBoxes::selectTest(const QPointF &, bool, QVariant *) const
{
    return -1; // boxes are not selectable
}

QCPRange GanttBoxes::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    QCPRange range;
    foundRange = false;
    for (const std::vector<Box> *boxes : {&m_issues, &m_latencies}) {
        for (const Box &b : *boxes) {
            range = foundRange ? QCPRange(std::min(range.lower, b.left), std::max(range.upper, b.right))
                               : QCPRange(b.left, b.right);
            foundRange = true;
        }
    }
    return range;
}

QCPRange GanttBoxes::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    QCPRange range;
    foundRange = false;
    for (const std::vector<Box> *boxes : {&m_issues, &m_latencies}) {
        for (const Box &b : *boxes) {
            range = foundRange ? QCPRange(std::min(range.lower, b.bottom), std::max(range.upper, b.top))
                               : QCPRange(b.bottom, b.top);
            foundRange = true;
        }
    }
    return range;
}

std::vector<QRectF> GanttBoxes::dataAreas() const
{
    std::vector<QRectF> areas;
    for (const std::vector<Box> *boxes : {&m_issues, &m_latencies}) {
        for (const Box &b : *boxes) {
            if (const QRectF r = pixels(b); !r.isEmpty())
                areas.push_back(r);
        }
    }
    return areas;
}

QRectF GanttBoxes::pixels(const Box &box) const
{
    const QPointF a = coordsToPixels(box.left, box.top);
    const QPointF b = coordsToPixels(box.right, box.bottom);
    return QRectF(a, b).normalized().intersected(clipRect());
}

void GanttBoxes::draw(QCPPainter *painter)
{
    painter->setPen(Qt::NoPen);
    QColor light = brush().color();
    light.setAlphaF(light.alphaF() * 50.0 / 255.0);
    const std::pair<const std::vector<Box> *, QBrush> layers[] = {{&m_issues, brush()},
                                                                  {&m_latencies, QBrush(light)}};
    for (const auto &layer : layers) {
        painter->setBrush(layer.second);
        for (const Box &b : *layer.first) {
            const QRectF r = pixels(b);
            if (!r.isEmpty())
                painter->drawRect(r);
        }
    }
}

void GanttBoxes::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    painter->setPen(Qt::NoPen);
    painter->setBrush(brush());
    painter->drawRect(rect.adjusted(0, rect.height() * 0.3, 0, -rect.height() * 0.3));
}

} // namespace crossroof::widgets
