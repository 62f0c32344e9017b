// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A measured roofline (gpu-benches' gpu-roofline: GF/s against Fl/B) in the instruction roofline's units.

#include "core/traces/trace_set.h"

#include <string>
#include <vector>

namespace crossroof::core {

/// gpu-roofline's kernel does fused multiply-adds: two flops per thread-instruction.
inline constexpr double kFlopsPerFmaInstruction = 2;

/// A gpu-roofline trace on the instruction roofline: thread-instructions per DRAM byte against Gop/s.
struct MeasuredRoofline
{
    std::string name;
    std::vector<double> intensity; ///< op/B: the file's Fl/B over kFlopsPerFmaInstruction
    std::vector<double> gops;      ///< Gop/s: the file's GF/s over kFlopsPerFmaInstruction
    double peak_gops = 0;          ///< the best rate
    double peak_gbs = 0;           ///< the best bandwidth, GF/s over Fl/B of a row (the same in both units)
    double ridge = 0;              ///< peak_gops / peak_gbs, op/B; 0 when no row has a bandwidth
};

/// TRACE, a PerformanceVsIntensity trace (x Fl/B, y GF/s), in the instruction roofline's units; its ridge is
/// its best rate over its best bandwidth, as gpu-benches states it. Rows without a positive intensity and rate
/// are left out. Throws InputError naming the trace for a trace of another kind or without such a row.
MeasuredRoofline measuredRoofline(const MeasuredTrace &trace);

} // namespace crossroof::core
