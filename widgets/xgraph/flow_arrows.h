// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QList>

namespace crossroof::widgets {

/// The X-graph's flow along k, dk/dt = -F(k): a row of short arrows near the bottom, each pointing the way the
/// warps move there. Drawn in one pass: as fourteen QCPItemLines with arrow ends they were a fifth of the
/// X-graph's drawing. On screen each head is stamped from an image rendered once (filling fourteen antialiased
/// triangles was still a twentieth of a drag step); a vector or scaled figure draws them as paths.
class FlowArrows : public QCPLayerable
{
public:
    struct Arrow
    {
        double k;      ///< centre, in warps
        int direction; ///< +1: k grows, -1: k shrinks
    };

    /// On PLOT's main layer, in its bottom and left axes.
    explicit FlowArrows(QCustomPlot *plot);

    /// Draws ARROWS centred at their k, each HALF_LENGTH warps either side, at height Y (GB/s).
    void setArrows(QList<Arrow> arrows, double halfLength, double y);
    const QList<Arrow> &arrows() const { return m_arrows; }
    /// The flow of MODEL, dk/dt = G(n−k) − f(k) = −F(k): fourteen arrows evenly over [0, n] (none where F is
    /// zero), at 3.5 % of TOP (GB/s).
    void setFlowOf(const core::XModel &model, double top);

protected:
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override;
    void draw(QCPPainter *painter) override;
    QRect clipRect() const override;

private:
    /// The head pointing the way of DIRECTION, antialiased, at DPR device pixels per pixel: its tip on its
    /// right (left) edge, its axis through the middle of its middle row.
    const QImage &headImage(int direction, qreal dpr);

    QList<Arrow> m_arrows;
    QImage m_heads[2]; ///< pointing left, right
    double m_halfLength = 0;
    double m_y = 0;
};

} // namespace crossroof::widgets
