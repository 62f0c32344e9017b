// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The levels of the memory hierarchy as supplies of the X-model (MODEL.md 1.7): L1, L2 and DRAM, each with a
// byte-bandwidth ceiling and a latency, and the traffic a request makes at each.

#include "core/xmodel/parameters.h"

#include <array>
#include <optional>
#include <string_view>

namespace crossroof::core {

/// What bounds a kernel's throughput: a memory level, the memory system's request rate, the latency side of
/// the X-model (too few requests in flight), or a compute pipe.
enum class KernelLimit {
    L1,       ///< the L1/TEX sector bandwidth R_l1
    L2,       ///< the L2 byte bandwidth R_l2
    DRAM,     ///< the DRAM byte bandwidth R_dram
    Requests, ///< the memory system's request rate R (requests of request_bytes)
    Latency,  ///< neither side saturated, or the memory side below every ceiling: the warps in flight
    Issue,    ///< the compute side at M, the warp-instructions an SM issues per cycle
    Tensor,   ///< the tensor pipe (its busy cycles: TMA kernels, and LSU kernels whose export has them)
    Fma,      ///< the FMA pipe (FP32 and IMAD): FP32 lanes per SM / warp size warp-instructions per cycle
};

std::string_view kernelLimitName(KernelLimit limit); ///< "L1", "L2", "DRAM", "requests", "latency", ...

/// One memory level as the X-model sees it: what a request moves there and how fast the level serves it.
struct HierarchyLevel
{
    KernelLimit level = KernelLimit::DRAM;
    double bandwidth_gbs = 0;     ///< the level's byte ceiling (R_l1, R_l2, R_dram), 0 = none
    double latency_cycles = 0;    ///< its hit latency (L_s, L_2, L)
    double bytes_per_request = 0; ///< the traffic one request makes at this level
    /// The ceiling in requests per cycle per SM, bandwidth / (bytes x clock x SMs); infinite without one.
    double cap = 0;
};

/// L1, L2 and DRAM of PARAMS, in that order: ceilings, latencies and the bytes per request at each level
/// (B_req at the L1, B_l2 at the L2, B_dram at DRAM; MODEL.md 1.7).
std::array<HierarchyLevel, 3> memoryLevels(const XModelParams &params);

/// Bytes per request that reach the L2: l2_bytes, or else the request bytes that miss the shared cache
/// (h in fixed mode, none in the other modes).
double l2BytesPerRequest(const XModelParams &params);

/// DRAM bytes per request: dram_bytes, or else the request bytes that miss every cache level (fixed mode),
/// all of them in the other modes.
double dramBytesPerRequest(const XModelParams &params);

/// The tightest byte ceiling of the levels, requests per cycle per SM (infinite when no level has one), and
/// the level it belongs to. In two-level mode the L2's bandwidth is no ceiling: its hits queue at it instead
/// (MODEL.md 1.3).
struct LevelCap
{
    double cap = 0;
    std::optional<KernelLimit> level; ///< none without a ceiling
};
LevelCap tightestLevel(const XModelParams &params);

/// The supply of one level as its own X-model curve, requests per cycle per SM: the k*m requests in flight
/// served at the level's latency, at most its ceiling, f_l(k) = min(k*m / L_l, cap_l) (MODEL.md 1.7).
double levelSupply(const HierarchyLevel &level, double k, double m);

} // namespace crossroof::core
