// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QList>

namespace crossroof::widgets {

/// The X-graph's basins of attraction: a band of k over the whole height of the axis rect for each stable state,
/// the operating point's green, the others orange, opaque on the plot's background (a translucent fill of these
/// large areas was a third of the X-graph's drawing). Drawn in one pass, as pixel-aligned rectangles.
class BasinShading : public QCPLayerable
{
public:
    struct Basin
    {
        double from; ///< k where it starts, in warps
        double to;   ///< k where it ends
        bool operating; ///< holds the operating point
    };

    /// On PLOT's LAYER, in its bottom axis.
    BasinShading(QCustomPlot *plot, QCPLayer *layer);

    void setBasins(QList<Basin> basins) { m_basins = std::move(basins); }
    /// The basins of RESULT over k in [0, N]: between the unstable (or critical) roots, one per stable state,
    /// only when there is more than one (so a reader sees which state each starting k runs to); none
    /// otherwise.
    void setBasinsOf(const core::XGraphResult &result, double n);
    /// The colour a basin is shaded in on its plot as drawn now (on the plot's paper, grey in a greyscale
    /// figure): OPERATING the operating point's, else another stable state's. Its legend entries use it too.
    QColor fill(bool operating) const;
    const QList<Basin> &basins() const { return m_basins; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;
    QRect clipRect() const override;

private:
    QList<Basin> m_basins;
};

} // namespace crossroof::widgets
