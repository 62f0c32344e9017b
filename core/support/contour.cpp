// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/contour.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::core {

namespace {

/// Emits the segments of one cell at one level (marching squares, saddles resolved by the centre value).
void cellSegments(double x0, double x1, double y0, double y1, double v0, double v1, double v2, double v3,
                  double level, ContourLines &out)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    auto emit = [&](double ax, double ay, double bx_, double by_) {
        out.x.insert(out.x.end(), {ax, bx_, nan});
        out.y.insert(out.y.end(), {ay, by_, nan});
    };
    // Corners counter-clockwise from bottom left: v0 (x0,y0), v1 (x1,y0), v2 (x1,y1), v3 (x0,y1).
    const int code = (v0 > level ? 1 : 0) | (v1 > level ? 2 : 0) | (v2 > level ? 4 : 0) | (v3 > level ? 8 : 0);
    if (code == 0 || code == 15)
        return;
    auto t = [level](double a, double b) { return (level - a) / (b - a); };
    // Crossing points on the four edges: bottom, right, top, left.
    const double bx = x0 + (x1 - x0) * t(v0, v1), by = y0;
    const double rx = x1, ry = y0 + (y1 - y0) * t(v1, v2);
    const double tx = x0 + (x1 - x0) * t(v3, v2), ty = y1;
    const double lx = x0, ly = y0 + (y1 - y0) * t(v0, v3);
    switch (code) {
    case 1: case 14: emit(lx, ly, bx, by); break;
    case 2: case 13: emit(bx, by, rx, ry); break;
    case 3: case 12: emit(lx, ly, rx, ry); break;
    case 4: case 11: emit(rx, ry, tx, ty); break;
    case 6: case 9: emit(bx, by, tx, ty); break;
    case 7: case 8: emit(lx, ly, tx, ty); break;
    case 5: case 10: {
        const bool centreAbove = (v0 + v1 + v2 + v3) / 4 > level;
        if ((code == 5) == centreAbove) {
            emit(lx, ly, tx, ty);
            emit(bx, by, rx, ry);
        } else {
            emit(lx, ly, bx, by);
            emit(rx, ry, tx, ty);
        }
        break;
    }
    default:
        break;
    }
}

} // namespace

ContourLines contourLines(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                          double level)
{
    return contourLines(x, y, z, std::span<const double>(&level, 1));
}

ContourLines contourLines(std::span<const double> x, std::span<const double> y, std::span<const double> z,
                          std::span<const double> levels)
{
    ContourLines out;
    const std::size_t nx = x.size();
    const std::size_t ny = y.size();
    if (nx < 2 || ny < 2 || z.size() != nx * ny || levels.empty())
        return out;
    // The finite levels' span: a cell wholly below or above it (a plateau, most cells of a CPI surface) is
    // passed over without searching the levels.
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -lowest;
    for (double level : levels) {
        if (std::isfinite(level)) {
            lowest = std::min(lowest, level);
            highest = std::max(highest, level);
        }
    }
    for (std::size_t j = 0; j + 1 < ny; ++j) {
        for (std::size_t i = 0; i + 1 < nx; ++i) {
            const double v0 = z[j * nx + i];
            const double v1 = z[j * nx + i + 1];
            const double v2 = z[(j + 1) * nx + i + 1];
            const double v3 = z[(j + 1) * nx + i];
            const double lo = std::min({v0, v1, v2, v3});
            const double hi = std::max({v0, v1, v2, v3});
            if (hi <= lowest || lo > highest)
                continue;
            if (!std::isfinite(v0) || !std::isfinite(v1) || !std::isfinite(v2) || !std::isfinite(v3))
                continue;
            // Only levels in [lo, hi) cross this cell.
            for (auto it = std::lower_bound(levels.begin(), levels.end(), lo); it != levels.end() && *it < hi; ++it) {
                if (std::isfinite(*it))
                    cellSegments(x[i], x[i + 1], y[j], y[j + 1], v0, v1, v2, v3, *it, out);
            }
        }
    }
    return out;
}

std::vector<double> niceContourLevels(double lo, double hi)
{
    std::vector<double> levels;
    if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi))
        return levels;
    for (double v : {1.01, 1.1, 1.5}) {
        if (v > lo && v < hi)
            levels.push_back(v);
    }
    const double start = std::pow(10.0, std::floor(std::log10(std::max(lo, 1e-300))));
    for (double decade = start; decade <= hi && levels.size() < 64; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * decade;
            if (v > lo && v < hi && (levels.empty() || v > levels.back()))
                levels.push_back(v);
        }
    }
    return levels;
}

} // namespace crossroof::core
