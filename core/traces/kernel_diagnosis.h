// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A diagnosis per profiled kernel (MODEL.md 1.7): the level or pipe that bounds it, and the changes the X-model
// ranks best for it, each with the speed-up it predicts.

#include "core/traces/kernel_table.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/xmodel.h"

#include <vector>

namespace crossroof::core {

/// What bounds MODEL's operating point OP: the compute side at M ("issue"); the memory side at its tightest
/// ceiling (the L1, L2 or DRAM bandwidth, or the request rate R); where neither side is at a ceiling, the
/// requests in flight ("latency").
KernelLimit kernelLimit(const XModel &model, const Equilibrium &op);

/// The changes to a kernel of workload W the model can weigh, each predicted with MACHINE at W's counters:
/// accesses vectorized to 16 bytes (when a request moves 64 to 256 bytes), coalesced accesses (when it moves more
/// than 512), the occupancy up to max_warps (with the registers a thread has there), twice the loads in flight
/// per warp, twice the independent instructions per warp (E), half the DRAM bytes per request (reuse). The gain
/// is kernel time before / after - 1, the time being the kernel's instructions over the predicted instruction
/// rate at the operating point (so a change that saves instructions or bytes counts them). OP is the kernel's
/// operating point as it is. Every change with a gain of 0.5 % or more, best first.
std::vector<KernelChange> rankedChanges(const XModelParams &machine, const KernelWorkload &w,
                                        const Equilibrium &op);

/// The first two of rankedChanges().
std::vector<KernelChange> bestChanges(const XModelParams &machine, const KernelWorkload &w, const Equilibrium &op);

} // namespace crossroof::core
