// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QString>

#include <functional>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;

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
/// place around its point, nearest first, whose box lies inside the axis rect, overlaps no mark, no name
/// placed before it and no other text PLOT shows, and crosses no curve or marker PLOT draws (dataShapes()); one
/// set off from its point gets a leader line. A name with no such place is left out
/// rather than drawn over another. The names are items anchored to their points, so a zoom or a pan carries
/// them along. The names it placed last on PLOT, where still there, go first. Returns how many were left out.
int placePointLabels(QCustomPlot *plot, const std::vector<PointLabel> &labels);

/// Names PLOT is to show (its view set them before the plot was laid out, or while it is hidden): a figure places
/// them (placePointLabelsForFigure()) until placePointLabels() places names on screen; the names placed last go.
void setPendingPointLabels(QCustomPlot *plot, const std::vector<PointLabel> &labels);

/// A figure's names: those placePointLabels() drew last on a plot, hidden, and the same names placed again for
/// the plot's present layout (the figure's size and text) in their place.
struct FigureLabels
{
    std::vector<QCPAbstractItem *> placed; ///< new items; the caller removes them when the figure is drawn
    std::vector<QCPAbstractItem *> hidden; ///< the screen's; the caller shows them again
};
/// Names placed for the screen sit at its pixel offsets: in a figure of another size and text they would
/// land on marks and on each other. Places PLOT's last names again in FONT at PLOT's present layout, as
/// placePointLabels() does, and where a figure's first three names (the selected and worst kernels first) have
/// no clear place near their points, at the clear place nearest to them anywhere in the plot, with a leader;
/// nothing where PLOT has no names. With EARLIER (what an earlier call placed for another layout of the
/// figure), its names are removed and placed again.
FigureLabels placePointLabelsForFigure(QCustomPlot *plot, const QFont &font, FigureLabels *earlier = nullptr);

/// Names sit at pixel offsets from their points, placed for one size of the plot: after each resize of PLOT
/// while NAMED() holds, REDRAW runs once, queued (a run of resize events draws once).
void placeAgainAfterResize(QCustomPlot *plot, std::function<bool()> named, std::function<void()> redraw);

} // namespace crossroof::widgets
