// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/memory_levels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::core {

std::string_view kernelLimitName(KernelLimit limit)
{
    switch (limit) {
    case KernelLimit::L1:
        return "L1";
    case KernelLimit::L2:
        return "L2";
    case KernelLimit::DRAM:
        return "DRAM";
    case KernelLimit::Requests:
        return "requests";
    case KernelLimit::Latency:
        return "latency";
    case KernelLimit::Issue:
        return "issue";
    case KernelLimit::Tensor:
        return "tensor";
    case KernelLimit::Fma:
        return "FMA";
    }
    return "latency";
}

double dramBytesPerRequest(const XModelParams &p)
{
    if (p.dram_bytes > 0)
        return p.dram_bytes;
    // Without a measured value every request that misses the caches moves its bytes from DRAM; in locality mode
    // the miss share changes with k, and the cap counts every request (it can then only lower f where f is
    // already flat or falling, so f falls nowhere it did not).
    const double bytes = p.workloadRequestBytes();
    if (p.cache == CacheMode::Fixed)
        return bytes * (1 - p.h) * (1 - p.h_2);
    return bytes;
}

double l2BytesPerRequest(const XModelParams &p)
{
    if (p.l2_bytes > 0)
        return p.l2_bytes;
    const double bytes = p.workloadRequestBytes();
    return p.cache == CacheMode::Fixed ? bytes * (1 - p.h) : bytes;
}

std::array<HierarchyLevel, 3> memoryLevels(const XModelParams &p)
{
    std::array<HierarchyLevel, 3> levels{{
            {KernelLimit::L1, p.R_l1, p.L_s, p.workloadRequestBytes(), 0},
            {KernelLimit::L2, p.R_l2, p.L_2, l2BytesPerRequest(p), 0},
            {KernelLimit::DRAM, p.R_dram, p.L, dramBytesPerRequest(p), 0},
    }};
    for (HierarchyLevel &level : levels) {
        level.cap = std::numeric_limits<double>::infinity();
        if (level.bandwidth_gbs > 0 && level.bytes_per_request > 0)
            level.cap = level.bandwidth_gbs / (level.bytes_per_request * p.clock_ghz * p.sm_count);
    }
    return levels;
}

LevelCap tightestLevel(const XModelParams &p)
{
    LevelCap out{std::numeric_limits<double>::infinity(), std::nullopt};
    for (const HierarchyLevel &level : memoryLevels(p)) {
        // In two-level mode the L2's bandwidth is where its hits queue (MODEL.md 1.3), not a cap on every request.
        if (p.cache == CacheMode::TwoLevel && level.level == KernelLimit::L2)
            continue;
        if (level.cap < out.cap) {
            out.cap = level.cap;
            out.level = level.level;
        }
    }
    return out;
}

double levelSupply(const HierarchyLevel &level, double k, double m)
{
    if (!(k > 0))
        return 0;
    const double latency = std::max(level.latency_cycles, 1e-9);
    return std::min(k * m / latency, level.cap);
}

} // namespace crossroof::core
