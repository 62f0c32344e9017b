// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A measured footprint sweep (gpu-benches' gpu-latency, gpu-cache, gpu-l2-cache) against the model's memory
// levels: each level the measurement shows, its value, and what the parameters give at its footprints.

#include "core/traces/trace_set.h"
#include "core/xmodel/footprint_levels.h"

#include <string>
#include <vector>

namespace crossroof::core {

/// One level a sweep shows (a plateau of its curve) beside the model's value there.
struct MeasuredLevel
{
    /// The level that holds the plateau's footprints by the machine's capacities (S_s, S_2): L1 within the L1,
    /// whether or not the model knows the L1's bandwidth.
    KernelLimit level = KernelLimit::DRAM;
    /// The level whose value the model gives there: LEVEL's, or the next one's where LEVEL has no bandwidth in
    /// the parameters (an L1 plateau beside R_dram where R_l1 is unknown).
    KernelLimit model_level = KernelLimit::DRAM;
    double measured = 0;                   ///< the plateau's median: cycles or GB/s
    double from_kb = 0, to_kb = 0;         ///< the footprints the level holds, first and last
    double model = 0; ///< the model's value at the plateau's middle footprint (geometric mean of its ends)
    /// model / measured - 1: how far the parameters are off, signed (-0.2: the model 20 % lower).
    double offBy() const { return measured > 0 ? model / measured - 1 : 0; }
};

/// What a sweep shows against the model, or why nothing (a note naming the trace).
struct FootprintComparison
{
    std::vector<MeasuredLevel> levels;
    std::string note;
};

/// The levels of TRACE, a LatencyVsFootprint trace (the L1, L2 and DRAM plateaus of a pointer chase,
/// latencyPlateaus()) or a BandwidthVsFootprint trace (its bandwidth plateaus, bandwidthPlateaus()), each
/// beside the value latencyByFootprint() or bandwidthByFootprint() of PARAMS gives there. A trace of another
/// kind, or one that shows no level, gets a note instead of levels.
FootprintComparison compareFootprintTrace(const MeasuredTrace &trace, const XModelParams &params);

} // namespace crossroof::core
