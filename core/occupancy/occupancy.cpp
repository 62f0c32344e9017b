// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/occupancy/occupancy.h"

#include "core/support/error.h"

#include <algorithm>

namespace crossroof::core {

namespace {

long long ceilDiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

long long roundUp(long long a, long long unit)
{
    return ceilDiv(a, unit) * unit;
}

int toLimit(long long blocks)
{
    return int(std::min<long long>(blocks, 1'000'000'000));
}

// MODEL.md 2.1, CUDA rule: allocation granularity of warps, registers and shared memory.
BlockLimits cudaLimits(const ComputeCapability &cc, long long tr, long long rt, long long sb, long long c)
{
    const long long w = ceilDiv(tr, kWarpSize);
    BlockLimits by;
    by.warps = toLimit(cc.max_warps_sm / w);
    by.blocks = cc.max_blocks_sm;
    if (rt > 0) {
        const long long ru = roundUp(rt * kWarpSize, cc.reg_alloc_unit); // registers per warp
        if (rt > cc.max_regs_thread || ru * roundUp(w, cc.sub_partitions) > cc.regs_per_sm
            || ru * w > cc.regs_per_sm) {
            by.registers = 0;
        } else {
            // Warps are placed on sub-partitions, each with its share of the register file.
            const long long warpsPerSubPartition = (cc.regs_per_sm / cc.sub_partitions) / ru;
            by.registers = toLimit(warpsPerSubPartition * cc.sub_partitions / w);
        }
    }
    if (sb > cc.max_smem_block_bytes) {
        by.shared_memory = 0;
    } else if (const long long size = roundUp(sb + cc.reserved_smem_per_block, cc.smem_alloc_unit);
               size > 0) {
        by.shared_memory = toLimit(c / size);
    }
    return by;
}

// Eq. 4 as printed: min(floor(Z/S_B), floor(R/(R_T*T_r)), floor(B_max/(P/Q)), floor(T_maxMP/T_r)). B_max is
// read as the device's limit, max_blocks_sm * P/Q, so its term is max_blocks_sm whatever P/Q is.
BlockLimits paperLimits(const ComputeCapability &cc, long long tr, long long rt, long long sb, long long c)
{
    BlockLimits by;
    by.warps = toLimit(cc.max_threads_sm / tr);
    by.blocks = cc.max_blocks_sm;
    if (rt > 0)
        by.registers = toLimit(cc.regs_per_sm / (rt * tr));
    if (sb > 0)
        by.shared_memory = toLimit(c / sb);
    return by;
}

OccupancyResult compute(const ComputeCapability &cc, long long tr, long long rt, long long sb, long long c,
                        OccupancyMode mode)
{
    OccupancyResult r;
    r.mode = mode;
    r.smem_config = c;
    r.by = mode == OccupancyMode::Cuda ? cudaLimits(cc, tr, rt, sb, c) : paperLimits(cc, tr, rt, sb, c);
    r.blocks = std::min(r.by.warps, r.by.blocks);
    if (r.by.registers)
        r.blocks = std::min(r.blocks, *r.by.registers);
    if (r.by.shared_memory)
        r.blocks = std::min(r.blocks, *r.by.shared_memory);
    for (Limiter l : kLimiters) {
        if (r.by.get(l) == r.blocks)
            r.limiters.insert(l);
    }
    r.warps_per_block = int(ceilDiv(tr, kWarpSize));
    const long long perBlock = mode == OccupancyMode::Paper ? sb
                               : sb > 0 || cc.reserved_smem_per_block > 0
                                   ? roundUp(sb + cc.reserved_smem_per_block, cc.smem_alloc_unit)
                                   : 0;
    r.smem_used = r.blocks * perBlock;
    if (mode == OccupancyMode::Cuda) {
        r.warps_per_sm = double(r.blocks) * r.warps_per_block;
        r.occupancy = r.warps_per_sm / cc.max_warps_sm;
    } else {
        r.warps_per_sm = double(r.blocks) * double(tr) / kWarpSize;
        r.occupancy = double(r.blocks) * double(tr) / cc.max_threads_sm;
    }
    return r;
}

std::string rangeError(std::string_view what, long long min, long long max, long long got,
                       std::string_view unit = {})
{
    return std::string(what) + ": must be between " + std::to_string(min) + " and " + std::to_string(max)
           + (unit.empty() ? "" : " ") + std::string(unit) + " (got " + std::to_string(got) + ")";
}

void checkThreads(long long v)
{
    if (v < 1 || v > kMaxThreadsPerBlock)
        throw InputError(rangeError("threads per block", 1, kMaxThreadsPerBlock, v));
}

void checkRegisters(long long v)
{
    if (v < 0 || v > kMaxRegistersInput)
        throw InputError(rangeError("registers per thread", 0, kMaxRegistersInput, v));
}

void checkSharedMemory(long long v)
{
    if (v < 0 || v > kMaxSharedMemoryInput)
        throw InputError(rangeError("shared memory per block", 0, kMaxSharedMemoryInput, v, "bytes"));
}

long long smemConfigOf(const ComputeCapability &cc, const OccupancyInput &in)
{
    return in.smem_config.value_or(cc.smem_per_sm_bytes);
}

} // namespace

std::string_view occupancyModeName(OccupancyMode mode)
{
    return mode == OccupancyMode::Paper ? "paper" : "cuda";
}

std::optional<OccupancyMode> occupancyModeFromName(std::string_view name)
{
    if (name == "cuda")
        return OccupancyMode::Cuda;
    if (name == "paper")
        return OccupancyMode::Paper;
    return std::nullopt;
}

std::string_view limiterName(Limiter limiter)
{
    switch (limiter) {
    case Limiter::Warps:
        return "warps";
    case Limiter::Blocks:
        return "blocks";
    case Limiter::Registers:
        return "registers";
    case Limiter::SharedMemory:
        return "shared_memory";
    }
    return "warps";
}

std::vector<Limiter> LimiterSet::list() const
{
    std::vector<Limiter> out;
    for (Limiter l : kLimiters) {
        if (contains(l))
            out.push_back(l);
    }
    return out;
}

std::optional<int> BlockLimits::get(Limiter l) const
{
    switch (l) {
    case Limiter::Warps:
        return warps;
    case Limiter::Blocks:
        return blocks;
    case Limiter::Registers:
        return registers;
    case Limiter::SharedMemory:
        return shared_memory;
    }
    return std::nullopt;
}

void validateOccupancyInput(const ComputeCapability &cc, const OccupancyInput &in)
{
    checkThreads(in.threads_per_block);
    checkRegisters(in.regs_per_thread);
    checkSharedMemory(in.smem_per_block);
    if (in.smem_config && !cc.isSmemConfig(*in.smem_config)) {
        std::string known;
        for (long long bytes : cc.smemConfigsBytes())
            known += (known.empty() ? "" : ", ") + std::to_string(bytes);
        throw InputError("shared-memory configuration: " + std::to_string(*in.smem_config)
                         + " bytes is not a configuration of CC " + cc.name + " (choose one of " + known
                         + " bytes)");
    }
}

OccupancyResult activeBlocks(const ComputeCapability &cc, const OccupancyInput &in, OccupancyMode mode)
{
    validateOccupancyInput(cc, in);
    return compute(cc, in.threads_per_block, in.regs_per_thread, in.smem_per_block, smemConfigOf(cc, in),
                   mode);
}

std::string_view sweepVariableName(SweepVariable v)
{
    switch (v) {
    case SweepVariable::ThreadsPerBlock:
        return "threads";
    case SweepVariable::RegistersPerThread:
        return "registers";
    case SweepVariable::SharedMemoryPerBlock:
        return "shared_memory";
    }
    return "threads";
}

SweepRange defaultSweepRange(const ComputeCapability &cc, SweepVariable v)
{
    switch (v) {
    case SweepVariable::ThreadsPerBlock:
        return {kWarpSize, kMaxThreadsPerBlock, kWarpSize};
    case SweepVariable::RegistersPerThread:
        return {1, cc.max_regs_thread, 1};
    case SweepVariable::SharedMemoryPerBlock:
        return {0, cc.max_smem_block_bytes, cc.smem_alloc_unit};
    }
    return {kWarpSize, kMaxThreadsPerBlock, kWarpSize};
}

OccupancySweep sweepOccupancy(const ComputeCapability &cc, const OccupancyInput &base, OccupancyMode mode,
                              SweepVariable variable, const SweepRange &range)
{
    validateOccupancyInput(cc, base);
    if (range.step < 1)
        throw InputError("sweep: step must be >= 1 (got " + std::to_string(range.step) + ")");
    if (range.last < range.first) {
        throw InputError("sweep: the range " + std::to_string(range.first) + ".." + std::to_string(range.last)
                         + " is empty");
    }
    const long long count = (range.last - range.first) / range.step + 1;
    if (count > kMaxSweepPoints) {
        throw InputError("sweep: " + std::to_string(count) + " points, at most "
                         + std::to_string(kMaxSweepPoints) + " allowed");
    }
    // Every point lies between the ends, so checking the ends checks them all.
    auto check = variable == SweepVariable::ThreadsPerBlock      ? checkThreads
                 : variable == SweepVariable::RegistersPerThread ? checkRegisters
                                                                 : checkSharedMemory;
    check(range.first);
    check(range.last);

    OccupancySweep s;
    s.variable = variable;
    s.x.reserve(std::size_t(count));
    s.blocks.reserve(std::size_t(count));
    s.warps_per_sm.reserve(std::size_t(count));
    s.occupancy.reserve(std::size_t(count));
    s.limiters.reserve(std::size_t(count));
    const long long c = smemConfigOf(cc, base);
    long long tr = base.threads_per_block;
    long long rt = base.regs_per_thread;
    long long sb = base.smem_per_block;
    long long &x = variable == SweepVariable::ThreadsPerBlock      ? tr
                   : variable == SweepVariable::RegistersPerThread ? rt
                                                                   : sb;
    for (long long i = 0; i < count; ++i) {
        x = range.first + i * range.step;
        const OccupancyResult r = compute(cc, tr, rt, sb, c, mode);
        s.x.push_back(x);
        s.blocks.push_back(r.blocks);
        s.warps_per_sm.push_back(r.warps_per_sm);
        s.occupancy.push_back(r.occupancy);
        s.limiters.push_back(r.limiters);
    }
    return s;
}

OccupancySweep sweepOccupancy(const ComputeCapability &cc, const OccupancyInput &base, OccupancyMode mode,
                              SweepVariable variable)
{
    return sweepOccupancy(cc, base, mode, variable, defaultSweepRange(cc, variable));
}

} // namespace crossroof::core
