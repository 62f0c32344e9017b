// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>

class QCPGraph;
class QCustomPlot;

namespace crossroof::widgets {

/// The points others draw on the X-graph (trace overlays, kernels: against the bottom and left axes), which
/// its ranges keep in view.
struct MeasuredExtent {
    bool any = false;
    double kMin = 0, kMax = 0, vMin = 0, vMax = 0;
    double marginPx = 0; ///< half the largest marker, with its pen
    int kernelsBeyond = 0; ///< kernel points at k > n
    int pointsBeyond = 0; ///< trace points at k > n
};

/// The extent of the finite points of PLOT's visible graphs on its bottom and left axes but OWN (the view's
/// own curves and marks), and how many lie beyond k = N.
MeasuredExtent measuredExtent(QCustomPlot *plot, const QList<QCPGraph *> &own, double n);

} // namespace crossroof::widgets
