// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The memory levels against the footprint a sweep touches, as a machine's parameters describe them: what a
// pointer chase (gpu-benches' gpu-latency) and a repeated read of one data set per SM (gpu-cache, gpu-l2-cache)
// should measure at each footprint, so that the measured curves can be laid over the model's levels.

#include "core/xmodel/memory_levels.h"
#include "core/xmodel/parameters.h"

#include <limits>
#include <vector>

namespace crossroof::core {

/// One level over a range of footprints: from_kb < footprint <= to_kb (to_kb infinite for DRAM).
struct FootprintStep
{
    KernelLimit level = KernelLimit::DRAM; ///< L1, L2 or DRAM
    double from_kb = 0;
    double to_kb = std::numeric_limits<double>::infinity();
    double value = 0; ///< cycles (latencyByFootprint) or GB/s (bandwidthByFootprint)
};

/// The L1's capacity in kB (1000 bytes, as gpu-benches prints footprints): S_s KiB.
double l1CapacityKb(const XModelParams &params);
/// The L2's capacity in kB: S_2 KiB per SM times the SMs (0 without an L2, S_2 = 0).
double l2CapacityKb(const XModelParams &params);

/// The latency of a dependent load against the footprint of the chain it walks, in cycles: L_s while the chain
/// fits the L1 (S_s), L_2 while it fits the L2 (where the parameters have one: L_2 > 0 and S_2 > 0), then L.
/// Steps in order of footprint.
std::vector<FootprintStep> latencyByFootprint(const XModelParams &params);

/// The bandwidth of every SM reading one data set over and over, against the data set, in GB/s: R_l1 while it
/// fits the L1, R_l2 while it fits the L2, then the DRAM's R_dram (R where R_dram is 0). A level without a
/// ceiling (R_l1 or R_l2 of 0) serves at the next one's: its step is left out.
std::vector<FootprintStep> bandwidthByFootprint(const XModelParams &params);

/// The value of STEPS at FOOTPRINT_KB (the first step whose range holds it; 0 for no steps).
double valueAtFootprint(const std::vector<FootprintStep> &steps, double footprint_kb);

} // namespace crossroof::core
