// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>
#include <vector>

namespace crossroof::core {

/// Iso-lines of a function sampled on a rectilinear grid, as line segments ready to draw: consecutive
/// pairs of points, each pair followed by a NaN point so that a polyline through the list shows only the
/// segments.
struct ContourLines
{
    std::vector<double> x;
    std::vector<double> y;
};

/// Marching squares over z (row-major: z[j * x.size() + i] at x[i], y[j]) at `level`, with linear
/// interpolation along cell edges. Cells with a non-finite corner are skipped; saddle cells are resolved
/// by the cell's centre value. x and y must be increasing.
ContourLines contourLines(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                          double level);

/// The same for several increasing levels in one pass over the grid (each cell visits only the levels
/// between its lowest and highest corner), all in one list.
ContourLines contourLines(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                          std::span<const double> levels);

/// Round contour levels (1, 2, 5 times powers of ten, and 1.1, 1.5 near 1) strictly inside (lo, hi).
std::vector<double> niceContourLevels(double lo, double hi);

} // namespace crossroof::core
