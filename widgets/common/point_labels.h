// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>
#include <vector>

class QCustomPlot;

namespace crossroof::widgets {

/// A name to draw beside a plotted point: the point in plot coordinates, the text, and the radius in pixels the
/// point's mark takes (no name is placed over it). Without a text it is a mark in the way of the names only.
struct PointLabel
{
    double x = 0;
    double y = 0;
    QString text;
    double markRadius = 5;
};

/// Names the points of PLOT (its first axis rect, laid out: replot once before): each name takes the first
/// place around its point, nearest first, whose box lies inside the axis rect and overlaps no mark and no name
/// placed before it; one set off from its point gets a leader line. A name with no such place is left out
/// rather than drawn over another. The names are items anchored to their points, so a zoom or a pan carries
/// them along. Returns how many were left out.
int placePointLabels(QCustomPlot *plot, const std::vector<PointLabel> &labels);

/// Names sit at pixel offsets from their points, placed for one size of the plot: after each resize of PLOT
/// while NAMED() holds, REDRAW runs once, queued (a run of resize events draws once).
void placeAgainAfterResize(QCustomPlot *plot, std::function<bool()> named, std::function<void()> redraw);

} // namespace crossroof::widgets
