// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Threads per warp on every CUDA device in the table (max_threads_sm / max_warps_sm, checked on load).
inline constexpr int kWarpSize = 32;
/// The largest thread block any compute capability in the table accepts. Not a CSV column: it is 1024 for
/// every CC from 2.0 to 9.0 (CUDA programming guide, "Maximum number of threads per block").
inline constexpr int kMaxThreadsPerBlock = 1024;

/// The per-SM limits of one CUDA compute capability that decide how many thread blocks are resident at once
/// (MODEL.md 2.1). One row of core/occupancy/data/cc_limits.csv, embedded at build time; the numbers are public facts
/// from NVIDIA's CUDA programming guide, occupancy calculator and headers (core/occupancy/data/README.md).
struct ComputeCapability
{
    std::string name; ///< "X.Y"
    int max_warps_sm = 0;
    int max_threads_sm = 0;
    int max_blocks_sm = 0;
    int regs_per_sm = 0;
    int reg_alloc_unit = 0; ///< registers, allocated per warp
    int max_regs_thread = 0;
    int sub_partitions = 0;             ///< schedulers the register file is split over
    int smem_per_sm_bytes = 0;          ///< the largest shared-memory configuration
    std::vector<int> smem_carveouts_kb; ///< selectable shared-memory configurations, KiB, ascending
    int smem_alloc_unit = 0;            ///< bytes
    int reserved_smem_per_block = 0;    ///< bytes the driver reserves per block
    int max_smem_block_bytes = 0;
    int fp32_lanes_sm = 0;
    /// FP64 add, multiply and multiply-add results per clock per SM; 0 where the table does not know it. Some
    /// products run FP64 slower than their compute capability's rate (HardwareProfile::fp64_lanes_sm).
    int fp64_lanes_sm = 0;

    /// The selectable shared-memory configurations in bytes, ascending.
    std::vector<long long> smemConfigsBytes() const;
    /// True if `bytes` is one of the selectable configurations.
    bool isSmemConfig(long long bytes) const;
};

/// Every compute capability of the table, in the table's (ascending) order.
std::span<const ComputeCapability> computeCapabilities();
/// The row for "X.Y", or nullptr.
const ComputeCapability *findComputeCapability(std::string_view name);
/// The row for "X.Y"; throws InputError("unknown compute capability '4.2' (known: 2.0, 3.5, ...)").
const ComputeCapability &computeCapability(std::string_view name);

} // namespace crossroof::core
