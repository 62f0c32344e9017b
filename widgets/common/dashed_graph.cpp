// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/dashed_graph.h"

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// Draws the polyline POINTS (no NaN) dashed by PATTERN (lengths in plot pixels, on and off in turn) from
/// OFFSET into it, each dash as one solid polyline with the painter's pen.
void drawDashes(QCPPainter *painter, const QPointF *points, int count, const QList<qreal> &pattern, qreal offset)
{
    qreal total = 0;
    for (qreal length : pattern)
        total += length;
    int index = 0;
    qreal left = pattern[0];
    if (total > 0 && offset > 0) {
        offset = std::fmod(offset, total);
        while (offset >= left) {
            offset -= left;
            index = (index + 1) % int(pattern.size());
            left = pattern[index];
        }
        left -= offset;
    }
    QVector<QPointF> dash;
    dash.reserve(count);
    if (index % 2 == 0)
        dash.append(points[0]);
    for (int i = 1; i < count; ++i) {
        const QPointF a = points[i - 1];
        const QPointF b = points[i];
        const qreal length = QLineF(a, b).length();
        qreal along = 0;
        while (length - along > left) {
            along += left;
            const QPointF cut = a + (b - a) * (along / length);
            if (index % 2 == 0) {
                dash.append(cut);
                painter->drawPolyline(dash.constData(), int(dash.size()));
                dash.clear();
            } else {
                dash = {cut};
            }
            index = (index + 1) % int(pattern.size());
            left = pattern[index];
        }
        left -= length - along;
        if (index % 2 == 0)
            dash.append(b);
    }
    if (index % 2 == 0 && dash.size() > 1)
        painter->drawPolyline(dash.constData(), int(dash.size()));
}

} // namespace

void DashedGraph::drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const
{
    const QPen pen = painter->pen();
    if (pen.style() == Qt::SolidLine || pen.style() == Qt::NoPen || pen.isCosmetic() || pen.widthF() <= 1
        || pen.color().alpha() == 0 || painter->modes().testFlag(QCPPainter::pmVectorized)
        || painter->modes().testFlag(QCPPainter::pmNoCaching)) {
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    QList<qreal> pattern = pen.dashPattern();
    if (pattern.size() < 2 || pattern.size() % 2 != 0) {
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    for (qreal &length : pattern)
        length = std::max(length * pen.widthF(), 0.01); // a dot of no length is a cap's square, as Qt's dasher has it
    applyDefaultAntialiasingHint(painter);
    QPen solid = pen;
    solid.setStyle(Qt::SolidLine);
    painter->setPen(solid);
    // Each piece between NaNs is a subpath of its own, its pattern started anew, as QCustomPlot draws it.
    const auto isNan = [](const QPointF &p) { return std::isnan(p.x()) || std::isnan(p.y()); };
    for (qsizetype i = 0; i < lines.size();) {
        while (i < lines.size() && isNan(lines[i]))
            ++i;
        qsizetype end = i;
        while (end < lines.size() && !isNan(lines[end]))
            ++end;
        if (end - i > 1)
            drawDashes(painter, lines.constData() + i, int(end - i), pattern, pen.dashOffset() * pen.widthF());
        i = end;
    }
    painter->setPen(pen);
}

} // namespace crossroof::widgets
