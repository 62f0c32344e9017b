// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/coloured_surface.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <span>

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
    // The rows of the lower and upper half of the q values on both cores, straight into the surface.
    result.grid = grid;
    core::MarkovSurface &surface = result.surface;
    const std::vector<double> values = grid.values();
    const std::size_t n = values.size();
    const std::size_t mid = n / 2;
    const std::span<const double> all(values);
    surface.p = values;
    surface.q = values;
    surface.cpi.resize(n * n);
    surface.log10_cpi.resize(n * n);
    const std::span<double> cpi(surface.cpi);
    const std::span<double> logs(surface.log10_cpi);
    // (If the first half throws, the future's destructor waits for the second before the spans go.)
    auto upperJob = std::async(std::launch::async, [&] {
        return core::markovSurfaceCells(shape, all, all.subspan(mid), steps, cpi.subspan(mid * n),
                                        logs.subspan(mid * n));
    });
    const core::SurfaceCells lower = core::markovSurfaceCells(shape, all, all.first(mid), steps,
                                                              cpi.first(mid * n), logs.first(mid * n));
    const core::SurfaceCells upper = upperJob.get();
    surface.system_states = lower.system_states;
    // The first extreme in row-major order wins ties, as in one pass over the whole grid.
    const std::size_t maxAt = cpi[mid * n + upper.max] > cpi[lower.max] ? mid * n + upper.max : lower.max;
    const std::size_t minAt = cpi[mid * n + upper.min] < cpi[lower.min] ? mid * n + upper.min : lower.min;
    surface.max = surface.extremeAt(maxAt);
    surface.min = surface.extremeAt(minAt);

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
