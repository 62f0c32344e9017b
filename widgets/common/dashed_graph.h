// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace crossroof::widgets {

/// A QCPGraph whose dashed line is drawn on screen as its dashes, each a short solid polyline with the pen's
/// caps and joins, where Qt's dasher would stroke the whole dashed outline and rasterize it in one fill: at a
/// device pixel ratio of 2 the dasher's fill of an unstable stretch of f was over a quarter of an X-graph drag
/// step. The dashes are cut where Qt's dasher cuts them (the pen's dash pattern and offset, in pen widths,
/// restarting at each piece of the line), so the pixels are the same. Solid, cosmetic and thin pens, and
/// figures (vector output), are drawn by QCustomPlot as before.
class DashedGraph : public QCPGraph
{
public:
    using QCPGraph::QCPGraph;

protected:
    void drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const override;
};

} // namespace crossroof::widgets
