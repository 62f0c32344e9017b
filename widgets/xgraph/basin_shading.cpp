// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/basin_shading.h"

#include "common/plot_style.h"

#include <cmath>

namespace crossroof::widgets {

BasinShading::BasinShading(QCustomPlot *plot, QCPLayer *layer)
    : QCPLayerable(plot)
{
    setLayer(layer);
}

void BasinShading::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    painter->setAntialiasing(false);
}

QRect BasinShading::clipRect() const
{
    return mParentPlot->axisRect()->rect();
}

void BasinShading::draw(QCPPainter *painter)
{
    if (m_basins.isEmpty())
        return;
    // Mixed with the background of the moment (a dark desktop, a figure drawn for print).
    const QColor operating = plot_style::tintOnPaper(mParentPlot, QColor(0x00, 0x9E, 0x73, 22));
    const QColor other = plot_style::tintOnPaper(mParentPlot, QColor(0xD5, 0x5E, 0x00, 18));
    const QRect area = clipRect();
    const QCPAxis *x = mParentPlot->xAxis;
    painter->setPen(Qt::NoPen);
    for (const Basin &b : std::as_const(m_basins)) {
        const double left = std::round(std::min(x->coordToPixel(b.from), x->coordToPixel(b.to)));
        const double right = std::round(std::max(x->coordToPixel(b.from), x->coordToPixel(b.to)));
        painter->fillRect(QRectF(left, area.top(), right - left, area.height()), b.operating ? operating : other);
    }
}

} // namespace crossroof::widgets
