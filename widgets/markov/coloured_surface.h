// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov.h"

#include <optional>
#include <vector>

namespace crossroof::widgets {

/// The CPI surface over a (p, q) grid as the Markov view's colour map draws it: the surface, the log10 CPI
/// the map holds (NaN where the CPI is infinite), the range of the finite CPIs, and where each grid value
/// lies on the map's axes.
struct ColouredSurface
{
    core::MarkovGrid grid;
    core::MarkovSurface surface;
    /// The p values in axis coordinates: by index on the thesis grid (as in the thesis), by value on uniform
    /// grids and by logit on logit grids.
    std::vector<double> p_axis;
    std::vector<double> q_axis;
    /// log10 of surface.cpi with NaN where infinite; empty when no cell is (then surface.log10_cpi serves)
    std::vector<double> log_cpi;
    double cpi_low = 1; ///< finite range of surface.cpi
    double cpi_high = 1;

    /// What the colour map holds: log10 CPI, NaN where the CPI is infinite.
    const std::vector<double> &colourValues() const { return log_cpi.empty() ? surface.log10_cpi : log_cpi; }
    /// PROBABILITY in axis coordinates on a grid drawn by value or logit (logit(p) = ln(p / (1 − p))).
    double toAxis(double probability) const;
    /// Where PROBABILITY lies on the axis whose grid values are VALUES (on the thesis grid by index,
    /// interpolated between the values around it; elsewhere clamped to the grid's range).
    double axisOf(double probability, const std::vector<double> &values) const;
    /// The index of the grid point on AXIS (axis coordinates) nearest U.
    static int nearestIndex(const std::vector<double> &axis, double u);
};

/// The surface of the topology SHAPE (threads per cache group) on GRID (the same values on both axes), at
/// steady state or after STEPS steps from all-active, into RESULT, whose buffers are reused (a redraw allocates nothing once they are large
/// enough). Throws core::InputError where core::MarkovGrid::values() or core::markovSurfaceCells() do; RESULT
/// is then partly written.
void computeColouredSurface(const core::MarkovGrid &grid, const std::vector<int> &shape,
                            std::optional<long long> steps, ColouredSurface &result);

} // namespace crossroof::widgets
