// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/basin_shading.h"

#include "common/plot_style.h"

#include <cmath>

namespace crossroof::widgets {

void BasinShading::setBasinsOf(const core::XGraphResult &r, double n)
{
    QList<Basin> basins;
    if (r.stableCount() > 1) {
        const double opK = r.operatingPoint().k;
        double from = 0;
        auto add = [&](double to) {
            basins.append({from, to, from <= opK && opK <= to});
            from = to;
        };
        for (const auto &e : r.equilibria) {
            if (e.stability == core::Stability::Unstable || e.stability == core::Stability::Critical)
                add(e.k);
        }
        add(n);
    }
    setBasins(std::move(basins));
}

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

QColor BasinShading::fill(bool operating) const
{
    // Mixed with the background of the moment (a dark desktop, a figure drawn for print).
    return plot_style::tintOnPaper(mParentPlot,
                                   operating ? QColor(0x00, 0x9E, 0x73, 22) : QColor(0xD5, 0x5E, 0x00, 18));
}

void BasinShading::draw(QCPPainter *painter)
{
    if (m_basins.isEmpty())
        return;
    const QColor operating = fill(true);
    const QColor other = fill(false);
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
