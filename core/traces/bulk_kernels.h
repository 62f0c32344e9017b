// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Kernels that move their data with TMA, bulk copies or cp.async.bulk (MODEL.md 1.7): no LSU requests, so no
// request for the X-model to place; bounded by the bytes they move at the L2 and DRAM and by their pipes.

#include "core/traces/ncu_csv.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/parameters.h"

#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// Whether K made no global load requests through the LSU and no store requests (0 or not collected): its data
/// moved by TMA or bulk copies, if at all.
bool isBulkKernel(const NcuKernel &k);

/// A bulk kernel's prediction: the time is the longest of what each level and pipe needs for its work.
struct BulkPrediction
{
    double dram_gbs = 0;  ///< DRAM bytes / time
    double gops = 0;      ///< instructions x warp size / time
    double roofline_gbs = 0; ///< min(peak, DRAM bytes / the issue time): the roofline of the same inputs
    KernelLimit limit = KernelLimit::DRAM;
};

/// Predicts bulk kernel K on MACHINE: time = max(D / R_dram, B_l2 / R_l2, I / (M x clock x SMs),
/// T / (SMs x clock)) with D its DRAM bytes, B_l2 its L2 bytes, I its warp-instructions, T its tensor-pipe busy
/// cycles, R_l2 scaled with the SM clock it ran at (the profile's when the export lacks it). The metrics it lacks
/// go to MISSING (raw names) and give none.
std::optional<BulkPrediction> predictBulkKernel(const NcuKernel &k, const XModelParams &machine,
                                                std::vector<std::string> &missing);

} // namespace crossroof::core
