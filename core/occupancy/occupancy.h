// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/occupancy/compute_capability.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// How the active blocks per SM, B_a, are computed (MODEL.md 2.1).
enum class OccupancyMode {
    Cuda, ///< what the hardware does: warp, register and shared-memory allocation granularity
    Paper ///< Eq. 4 of Ma et al.'s TMM paper as printed: plain quotients of threads, registers and bytes
};

std::string_view occupancyModeName(OccupancyMode mode); ///< "cuda", "paper"
std::optional<OccupancyMode> occupancyModeFromName(std::string_view name);

/// A resource that bounds the resident blocks. The JSON names are a public contract (CLI.md `by`).
enum class Limiter { Warps, Blocks, Registers, SharedMemory };
inline constexpr std::array<Limiter, 4> kLimiters{Limiter::Warps, Limiter::Blocks, Limiter::Registers,
                                                  Limiter::SharedMemory};

std::string_view limiterName(Limiter limiter); ///< "warps", "blocks", "registers", "shared_memory"

/// The limiters that attain B_a; a bit set so that sweeps stay cheap.
class LimiterSet
{
public:
    constexpr void insert(Limiter l) { m_bits = std::uint8_t(m_bits | bit(l)); }
    constexpr bool contains(Limiter l) const { return (m_bits & bit(l)) != 0; }
    constexpr bool empty() const { return m_bits == 0; }
    /// The members in the order of kLimiters.
    std::vector<Limiter> list() const;
    bool operator==(const LimiterSet &) const = default;

private:
    static constexpr std::uint8_t bit(Limiter l) { return std::uint8_t(1u << unsigned(l)); }
    std::uint8_t m_bits = 0;
};

/// Hard limits on the inputs (checked everywhere): a block has 1..1024 threads, a thread at most one
/// register file of registers, a block at most 1 GiB of shared memory.
inline constexpr int kMaxRegistersInput = 65536;
inline constexpr long long kMaxSharedMemoryInput = 1LL << 30;

/// One kernel launch configuration, the inputs of Eq. 4.
struct OccupancyInput
{
    int threads_per_block = 256;          ///< T_r, 1..1024
    int regs_per_thread = 32;             ///< R_T; 0 means registers impose no limit
    long long smem_per_block = 0;         ///< S_B, bytes; 0 means shared memory imposes no limit
    std::optional<long long> smem_config; ///< shared memory per SM C, bytes: one of the carveouts;
                                          ///< default the largest, smem_per_sm_bytes

    bool operator==(const OccupancyInput &) const = default;
};

/// Blocks per SM that each resource alone allows. Registers and shared memory have no limit (nullopt) when
/// the block uses none of them.
struct BlockLimits
{
    int warps = 0;  ///< CUDA: floor(max_warps_sm / w); paper: floor(T_maxMP / T_r)
    int blocks = 0; ///< max_blocks_sm (paper: floor(B_max / (P/Q)) with B_max = max_blocks_sm * P/Q)
    std::optional<int> registers;
    std::optional<int> shared_memory;

    std::optional<int> get(Limiter l) const;
};

struct OccupancyResult
{
    OccupancyMode mode = OccupancyMode::Cuda;
    int blocks = 0;          ///< B_a, active blocks per SM
    int warps_per_block = 0; ///< w = ceil(T_r / 32)
    /// Resident warps per SM, the X-model's n. CUDA: B_a * w. Paper: B_a * T_r / 32 (the paper counts
    /// threads, so a partial warp counts partially).
    double warps_per_sm = 0;
    /// CUDA: warps_per_sm / max_warps_sm. Paper: B_a * T_r / T_maxMP. Never above 1.
    double occupancy = 0;
    LimiterSet limiters; ///< every limit that attains B_a
    BlockLimits by;
    long long smem_config = 0; ///< the configuration C used, bytes
    /// Shared memory the B_a resident blocks take on one SM, bytes. CUDA: B_a x (S_B + the driver's reserve,
    /// rounded up to the allocation unit); paper: B_a x S_B. At most smem_config.
    long long smem_used = 0;
};

/// Throws InputError naming the first bad field ("threads per block: must be between 1 and 1024 (got 0)",
/// "shared-memory configuration: ...").
void validateOccupancyInput(const ComputeCapability &cc, const OccupancyInput &in);

/// Active blocks per SM, B_a, with the limit of every resource and the limiters (Eq. 4; MODEL.md 2.1).
/// Throws InputError on invalid input. A configuration that cannot run (too many registers per thread, a
/// register file or shared memory too small for one block) gives 0 blocks, not an error.
OccupancyResult activeBlocks(const ComputeCapability &cc, const OccupancyInput &in,
                             OccupancyMode mode = OccupancyMode::Cuda);

/// The input a sweep varies.
enum class SweepVariable { ThreadsPerBlock, RegistersPerThread, SharedMemoryPerBlock };

std::string_view sweepVariableName(SweepVariable v); ///< "threads", "registers", "shared_memory"

/// Inclusive range first, first + step, ... <= last.
struct SweepRange
{
    long long first = 0;
    long long last = 0;
    long long step = 1;
};

/// The most points one sweep computes.
inline constexpr long long kMaxSweepPoints = 1'000'000;

/// The usual range of a variable: threads 32..1024 step 32, registers 1..max_regs_thread step 1, shared
/// memory 0..max_smem_block_bytes in steps of smem_alloc_unit.
SweepRange defaultSweepRange(const ComputeCapability &cc, SweepVariable v);

/// Occupancy against one input, the others held at `base` (columns of equal length).
struct OccupancySweep
{
    SweepVariable variable = SweepVariable::ThreadsPerBlock;
    std::vector<long long> x;
    std::vector<int> blocks;
    std::vector<double> warps_per_sm;
    std::vector<double> occupancy;
    std::vector<LimiterSet> limiters;
};

/// Sweeps one variable over `range` (a few microseconds per hundred points). Throws InputError if the base
/// or an end of the range is invalid, or the range is empty or longer than kMaxSweepPoints.
OccupancySweep sweepOccupancy(const ComputeCapability &cc, const OccupancyInput &base, OccupancyMode mode,
                              SweepVariable variable, const SweepRange &range);
/// The same over defaultSweepRange().
OccupancySweep sweepOccupancy(const ComputeCapability &cc, const OccupancyInput &base, OccupancyMode mode,
                              SweepVariable variable);

} // namespace crossroof::core
