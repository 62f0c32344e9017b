// SPDX-License-Identifier: GPL-3.0-or-later
// What a joint calibration may make of a key on one machine (docs/MODEL.md 7, physical results): the slider
// range narrowed by the machine's own levels, and the test that tells a key the measurements do not
// determine.
#pragma once

#include "core/xmodel/parameters.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The range a calibration allows a key on a machine, and why each end is where it is when the machine, not
/// the slider, put it there (empty where the slider's end holds).
struct KeyRange {
    double lo = 0;
    double hi = 0;
    std::string lo_why; ///< e.g. "the L2 latency L_2 = 284.8 cycles: memory never answers faster than the L2"
    std::string hi_why; ///< e.g. "the profile's DRAM peak R_dram = 933 GB/s"
};

/// calibrationBounds(KEY) narrowed by what MACHINE (the starting machine, its measured settings applied)
/// makes physical, for a fit of the keys FIT: R_dram never above the machine's DRAM peak (its R_dram where it
/// has one) nor the L2's or L1's bandwidth; R, the rate of the requests past the L1, never above the L2's
/// bandwidth R_l2 (else the L1's, R_l1); L never below L_2 and L_2 never above L where the other is held, and
/// L_2 never below L_s. A narrowed range that would be empty keeps the slider's. Throws InputError for a key
/// that cannot be fitted, as calibrationBounds() does.
KeyRange physicalRange(std::string_view key, const XModelParams &machine,
                       const std::vector<std::string> &fit);

/// Whether a key is determined by the measurements: moving it by a factor of 2 either way (within RANGE, in
/// log scale from VALUE) raises the cost by at least NOISE, one standard deviation's worth of the fit's cost
/// (cost / (values - keys)). COST_AT gives the objective with the key at a value and every other key as
/// fitted.
template<typename CostAt>
bool determinedWithin(double value, const KeyRange &range, double bestCost, double noise, CostAt &&costAt)
{
    for (double factor : {0.5, 2.0}) {
        const double moved = std::clamp(value * factor, range.lo, range.hi);
        if (moved != value && costAt(moved) - bestCost >= noise)
            return true;
    }
    return false;
}

} // namespace crossroof::core
