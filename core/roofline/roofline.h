// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The instruction roofline (as Nsight Compute and Intel Advisor draw it): instruction throughput
// (thread-instructions per second, Gop/s) against intensity (thread-instructions per byte), with the ceilings
// of a machine and the kernels of an Nsight Compute export at their DRAM, L2 and L1 intensities (docs/MODEL.md,
// "The roofline"). The Roofline view draws it; `crossroof-cli roofline` writes it.

#include "core/profiles/hardware_profile.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/parameters.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// A floating-point pipe's ceiling: its lanes per SM (results per clock) times clock and SMs, in
/// thread-instructions per second like the other ceilings (one FMA instruction per lane and cycle).
struct PipeCeiling
{
    std::string precision; ///< "FP32" or "FP64"
    int lanes = 0;         ///< per SM
    double gops = 0;
};

/// The ceilings of a machine and a workload (the parameters' n, m and request bytes for Little's law).
struct RooflineCeilings
{
    double memory_gbs = 0;   ///< the memory ceiling's slope: R (GB/s), Gop/s = R x intensity
    double compute_gops = 0; ///< M x warp_size x clock x SMs
    /// (E n / L_c) x warp_size x clock x SMs, where E n / L_c < M: n warps, each issuing E instructions per L_c
    /// cycles, cannot fill the issue slots; else none.
    std::optional<double> issue_gops;
    std::vector<PipeCeiling> pipes; ///< FP32 and FP64 (pipeCeilings())
    /// Little's law at DRAM (latency L), L2 (L_2) and L1 (L_s): GB/s slopes (littleCeilingGbs()); none where the
    /// latency is not positive.
    std::optional<double> dram_latency_gbs;
    std::optional<double> l2_latency_gbs;
    std::optional<double> l1_latency_gbs;

    /// The intensity where the memory ceiling meets the compute ceiling: compute_gops / memory_gbs.
    double ridge() const { return compute_gops / memory_gbs; }
};

/// Little's law for PARAMS' n and m: n x m requests of the workload's request bytes in flight per SM, each
/// served in LATENCYCYCLES, move at most n m request_bytes x clock x SMs / LATENCYCYCLES GB/s; none when the
/// latency is not positive.
std::optional<double> littleCeilingGbs(const XModelParams &params, double latencyCycles);

/// The FP32 and FP64 pipe ceilings of PROFILE's compute capability (the profile's own FP64 rate where it gives
/// one) at PARAMS' clock and SM count; none for a CPU, an unknown compute capability or a rate the table does
/// not know. Tensor cores have none: one MMA instruction does hundreds of operations.
std::vector<PipeCeiling> pipeCeilings(const HardwareProfile &profile, const XModelParams &params);

/// Every ceiling of PARAMS (the machine and the workload's n, m, request bytes) and PROFILE (its compute
/// capability and FP64 rate).
RooflineCeilings rooflineCeilings(const HardwareProfile &profile, const XModelParams &params);

/// A kernel on the roofline.
struct RooflineKernel
{
    std::size_t kernel = 0; ///< index in the report
    double dram_intensity = 0; ///< thread-instructions per DRAM byte: gops / DRAM GB/s
    double gops = 0;           ///< attained: instructions x warp size / duration
    double duration_ns = 0;
    /// Thread-instructions per L1 byte (the global load and store sectors x 32 B), where the export has them.
    std::optional<double> l1_intensity;
    /// Per L2 byte: the L1 bytes that missed L1 (x (1 - L1 hit rate)), where the export also has that rate.
    std::optional<double> l2_intensity;
    /// The X-model's prediction for the kernel (its KernelRow: its own workload and clock): Gop/s, DRAM GB/s and
    /// the intensity per DRAM byte they give; none where the row has no positive prediction.
    std::optional<double> predicted_gops;
    std::optional<double> predicted_gbs;
    std::optional<double> predicted_intensity;
};

/// KERNEL on the roofline with the prediction of ROW (none: no prediction), or none when it lacks
/// instructions, a positive duration or a positive DRAM throughput.
std::optional<RooflineKernel> rooflineKernel(const NcuKernel &kernel, double warpSize, const KernelRow *row);

/// The kernels of REPORT that can be drawn, in report order, each with its prediction from ROWS (the kernel
/// table of the same report, row i for kernel i; empty: no predictions).
std::vector<RooflineKernel> rooflineKernels(const NcuReport &report, const std::vector<KernelRow> &rows,
                                            double warpSize);

/// The X-model's operating point for PARAMS on the roofline: intensity per DRAM byte (Z x warp_size /
/// request_bytes over the share of requests that miss the cache) and its CS Gop/s; none when every request
/// hits (no DRAM traffic, no finite intensity). Throws InputError for parameters the model refuses.
struct RooflinePoint
{
    double intensity = 0;
    double gops = 0;
};
std::optional<RooflinePoint> rooflineOperatingPoint(const XModelParams &params);

/// The ceilings at a kernel's intensities: what each allows it (Gop/s), none where the ceiling or the
/// intensity is missing. Slopes (memory and latency ceilings) at the level's intensity, flat ones as they are.
struct KernelCeilings
{
    double memory_gops = 0;
    double compute_gops = 0;
    std::optional<double> issue_gops;
    std::optional<double> fp32_gops;
    std::optional<double> fp64_gops;
    std::optional<double> dram_latency_gops;
    std::optional<double> l2_latency_gops;
    std::optional<double> l1_latency_gops;
};
KernelCeilings ceilingsAt(const RooflineCeilings &ceilings, const RooflineKernel &kernel);

} // namespace crossroof::core
