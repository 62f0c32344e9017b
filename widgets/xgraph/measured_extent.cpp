// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/measured_extent.h"

#include "common/measured_graph.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

MeasuredExtent measuredExtent(QCustomPlot *plot, const QList<QCPGraph *> &own, double n)
{
    MeasuredExtent e;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        if (own.contains(g) || !g->visible() || g->keyAxis() != plot->xAxis || g->valueAxis() != plot->yAxis)
            continue;
        const MeasuredKind kind = measuredKind(g);
        bool drawn = false;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (!std::isfinite(it->key) || !std::isfinite(it->value))
                continue;
            drawn = true;
            if (!e.any) {
                e.any = true;
                e.kMin = e.kMax = it->key;
                e.vMin = e.vMax = it->value;
            }
            e.kMin = std::min(e.kMin, it->key);
            e.kMax = std::max(e.kMax, it->key);
            e.vMin = std::min(e.vMin, it->value);
            e.vMax = std::max(e.vMax, it->value);
            if (it->key > n) {
                e.kernelsBeyond += kind == MeasuredKind::KernelPoints ? 1 : 0;
                e.pointsBeyond += kind == MeasuredKind::TracePoints ? 1 : 0;
            }
        }
        if (!drawn)
            continue;
        const QCPScatterStyle &style = g->scatterStyle();
        if (!style.isNone())
            e.marginPx = std::max(e.marginPx, style.size() / 2 + style.pen().widthF() + 1);
        if (g->lineStyle() != QCPGraph::lsNone && g->pen().style() != Qt::NoPen)
            e.marginPx = std::max(e.marginPx, g->pen().widthF() / 2 + 1);
    }
    return e;
}

} // namespace crossroof::widgets
