// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"

#include <algorithm>
#include <cmath>

namespace crossroof::widgets::figure {

constexpr double kPointsPerMm = 72.0 / 25.4;
// Figures are laid out on a canvas of logical units: text keeps its size in points while pens, markers,
// paddings and tick lengths, given in screen pixels, come out at options.line_pt points per pixel (half a
// point in a journal column, more on a slide), so that lines grow with the figure as its text does.
inline double unitsPerPoint(const FigureOptions &options)
{
    return 1.0 / options.line_pt;
}

/// The figure's page in canvas units.
inline double canvasWidth(const FigureOptions &options)
{
    return options.width_mm * kPointsPerMm * unitsPerPoint(options);
}
inline double canvasHeight(const FigureOptions &options)
{
    return options.height_mm * kPointsPerMm * unitsPerPoint(options);
}

/// The least size text may have in the figure, in points: options.min_font_pt (no more than font_pt), and
/// no less than three quarters of font_pt.
inline double smallestFontPt(const FigureOptions &options)
{
    return std::max(0.75 * options.font_pt, double(std::min(options.min_font_pt, options.font_pt)));
}

/// A font size of PT points on the canvas in whole canvas units (QFont pixel sizes), never below the
/// figure's smallest.
inline int canvasPixels(const FigureOptions &options, double pt)
{
    const double upp = unitsPerPoint(options);
    return std::max(int(std::lround(pt * upp)), int(std::ceil(smallestFontPt(options) * upp - 1e-9)));
}

} // namespace crossroof::widgets::figure
