// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/coloured_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

double ColouredSurface::toAxis(double probability) const
{
    return grid.kind == core::MarkovGridKind::Logit ? std::log(probability / (1 - probability)) : probability;
}

double ColouredSurface::axisOf(double probability, const std::vector<double> &values) const
{
    if (grid.kind != core::MarkovGridKind::Thesis)
        return toAxis(std::clamp(probability, values.front(), values.back()));
    // By index: interpolate between the grid values around it.
    const auto above = std::lower_bound(values.begin(), values.end(), probability);
    if (above == values.begin())
        return 0;
    if (above == values.end())
        return double(values.size() - 1);
    const auto i = std::size_t(above - values.begin());
    return double(i - 1) + (probability - values[i - 1]) / (values[i] - values[i - 1]);
}

int ColouredSurface::nearestIndex(const std::vector<double> &axis, double u)
{
    int best = 0;
    for (std::size_t i = 1; i < axis.size(); ++i) {
        if (std::abs(axis[i] - u) < std::abs(axis[std::size_t(best)] - u))
            best = int(i);
    }
    return best;
}

void computeColouredSurface(const core::MarkovGrid &grid, const std::vector<int> &shape,
                            std::optional<long long> steps, ColouredSurface &result)
{
    // On this thread alone: split over two cores the redraw was faster on an idle machine (3.4 against 3.8 ms),
    // but whenever another program kept a core busy it waited on the helper thread (p99 7.6 against 4.5 ms).
    result.grid = grid;
    core::MarkovSurface &surface = result.surface;
    const std::vector<double> values = grid.values();
    const std::size_t n = values.size();
    surface.p = values;
    surface.q = values;
    surface.cpi.resize(n * n);
    surface.log10_cpi.resize(n * n);
    const core::SurfaceCells cells
            = core::markovSurfaceCells(shape, values, values, steps, surface.cpi, surface.log10_cpi);
    surface.system_states = cells.system_states;
    surface.max = surface.extremeAt(cells.max);
    surface.min = surface.extremeAt(cells.min);

    // Axis coordinates: the thesis grid is drawn by index (as in the thesis), the others by value or logit.
    const bool byIndex = grid.kind == core::MarkovGridKind::Thesis;
    result.p_axis.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        result.p_axis[i] = byIndex ? double(i) : result.toAxis(values[i]);
    result.q_axis = result.p_axis;

    // What the colour map holds: log10 CPI, NaN where the CPI is infinite (absorbing); the finite range.
    result.cpi_low = surface.min.cpi;
    result.cpi_high = surface.max.cpi;
    if (!surface.max.infinite) {
        result.log_cpi.clear(); // none infinite: the map takes surface.log10_cpi as it is
        return;
    }
    result.log_cpi = surface.log10_cpi;
    result.cpi_high = result.cpi_low;
    for (std::size_t k = 0; k < result.log_cpi.size(); ++k) {
        if (std::isfinite(surface.cpi[k]))
            result.cpi_high = std::max(result.cpi_high, surface.cpi[k]);
        else
            result.log_cpi[k] = std::numeric_limits<double>::quiet_NaN();
    }
}

} // namespace crossroof::widgets
