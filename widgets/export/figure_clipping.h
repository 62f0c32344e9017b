// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

class QCustomPlot;

namespace crossroof::widgets::figure {

/// Replaces the data of PLOT's graphs and curves by the data clipped to their axis rectangles (Qt's SVG
/// generator ignores clip paths), pieces of a line separated by NaN points; what puts each back goes to
/// RESTORE.
void clipToAxisRects(QCustomPlot *plot, std::vector<std::function<void()>> &restore);

} // namespace crossroof::widgets::figure
