// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace crossroof::widgets {

/// Clips the segment (x0,y0)-(x1,y1) to [xlo,xhi] x [ylo,yhi] (Liang-Barsky); false if nothing is left.
bool clipSegment(double &x0, double &y0, double &x1, double &y1, double xlo, double xhi, double ylo, double yhi);

/// What a plot draws of its data, in its pixels as laid out now (moved down by the DY given): the line segments
/// of its curves, clipped to their axis rects, the centres of its markers, each a disc of its radius, and the
/// areas of the plottables that are read as boxes (DataAreas).
struct DataShape
{
    QString name; ///< the curve's legend name, or "a curve" where it has none
    std::vector<QLineF> segments;
    std::vector<QPointF> marks;
    double markRadius = 0;
    std::vector<QRectF> areas;
};

/// A plottable whose data is boxes a reader reads one by one (a schedule's), which a legend or label must not
/// cover: their pixels as laid out now, within the axis rect.
class DataAreas
{
public:
    virtual ~DataAreas() = default;
    virtual std::vector<QRectF> dataAreas() const = 0;
};

/// The curves and markers of PLOT's graphs and parametric curves, the boxes of its DataAreas plottables (bars
/// and colour maps are areas too, but fill the plot behind what is read against them) and its straight lines
/// across the axis rect, moved down by DY.
std::vector<DataShape> dataShapes(QCustomPlot *plot, double dy = 0);

/// How dataShapes() names a straight line across the plot (a guide: a level's latency, the X-graph's δ), which a
/// legend may cover as a journal figure's does.
QString guideLineName();

/// Whether BOX (a label's glyphs) crosses a line of SHAPE or covers one of its markers or areas.
bool crosses(const QRectF &box, const DataShape &shape);

/// A label's glyphs as laid out now: its box without its padding, in PLOT's pixels.
QRectF glyphBox(const QCPItemText *label);

/// How a label may move to stay off the data: along the vertical line it names (up or down, on either side of
/// the line), along the horizontal line it names (left or right, above or below it and up to a label's height
/// further off), or anywhere around the point it names (the default).
enum class LabelFreedom { AroundPoint, AlongVerticalLine, AlongHorizontalLine };
void setLabelFreedom(QCPItemText *label, LabelFreedom freedom);
/// The straight line LABEL names (the X-graph's π on its dotted line): a figure that finds no clear place for
/// LABEL names the line in its legend instead, in the line's own pen, rather than leave it unnamed.
void setNamedLine(QCPItemText *label, QCPItemStraightLine *line);
/// The line LABEL names (setNamedLine()), or null.
QCPItemStraightLine *namedLine(const QCPItemText *label);
/// Where LABEL belongs, its position as it is now (in its position's coordinates): placeOffData() starts from
/// there each time, not from wherever an earlier placement for another size left it.
void setLabelHome(QCPItemText *label);

/// Moves LABEL, where its glyphs cross a curve or cover a marker of SHAPES, its box (with its padding) overlaps
/// one of OBSTACLES (other text, as drawn with their padding) or its glyphs leave the axis rect that clips it,
/// from where it belongs (setLabelHome()) to the nearest place its freedom allows that does none of these:
/// candidate places at steps of half its height (or a quarter of its width) scored by what they cross, the
/// nearest of the clear ones taken. Where no candidate is clear the label takes the least bad one, or with
/// HIDE_IF_NONE is hidden. A label around a point (AroundPoint) whose point is out of the axis rect (panned away)
/// goes just past the rect's edge on that side, with its point, where the clip hides it. Returns whether LABEL
/// moved or was hidden.
bool placeOffData(QCPItemText *label, const std::vector<DataShape> &shapes, const std::vector<QRectF> &obstacles,
                  bool hideIfNone = false);

/// LABELS of PLOT placed with placeOffData() against PLOT's curves and markers, every other text item it
/// shows and any legend inside its axis rect: those clear of the data where they belong first, so that they
/// stay and one on the data moves around them. Returns the labels that moved or were hidden, each with its place
/// before.
std::vector<std::pair<QCPItemText *, QPointF>> placeLabelsOffData(QCustomPlot *plot,
                                                                   std::vector<QCPItemText *> labels,
                                                                   bool hideIfNone = false);

} // namespace crossroof::widgets
