// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>

#include <vector>

namespace crossroof::widgets {

/// A dynamic property set on a QCustomPlot while a figure of it is exported: views that draw thinned curves
/// draw every sample then (a figure may be printed far larger than the plot is on screen).
inline constexpr char kFullDetailProperty[] = "crossroofFullDetail";

/// A curve as it is drawn: keys and values, NaN values breaking it into pieces.
struct DrawnCurve
{
    QVector<double> keys;
    QVector<double> values;
};

/// Thins a densely sampled curve for drawing: keeps the fewest samples such that the polyline through them
/// passes within TOLERANCE pixels (vertically) of every dropped sample, so it draws the same pixels with far
/// fewer segments where the curve is straight and all of them where it bends. X_SCALE and Y_SCALE are pixels
/// per data unit. Kept always: the first and last sample of every piece, every sample where KEEP is true
/// (kinks, peaks, valleys), and each local extreme of the values. A NaN between pieces stays one NaN.
/// KEYS must be ascending; KEEP is empty or as long as KEYS.
DrawnCurve thinCurve(const QVector<double> &keys, const QVector<double> &values, double xScale, double yScale,
                     double tolerance, const std::vector<bool> &keep = {});

} // namespace crossroof::widgets
