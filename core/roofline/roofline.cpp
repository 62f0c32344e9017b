// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/roofline.h"

#include "core/occupancy/compute_capability.h"
#include "core/xmodel/xmodel.h"

#include <cmath>

namespace crossroof::core {

std::optional<double> littleCeilingGbs(const XModelParams &p, double latencyCycles)
{
    if (!(latencyCycles > 0))
        return std::nullopt;
    // Bytes in flight per SM over the latency, in bytes per cycle per SM; times cycles per second and SMs.
    return p.n * p.m * p.workloadRequestBytes() / latencyCycles * p.clock_ghz * p.sm_count;
}

std::vector<PipeCeiling> pipeCeilings(const HardwareProfile &profile, const XModelParams &p)
{
    const ComputeCapability *cc = profile.kind == "gpu" && !profile.compute_capability.empty()
                                          ? findComputeCapability(profile.compute_capability)
                                          : nullptr;
    if (!cc)
        return {};
    // Lanes are thread-instructions per cycle per SM; gopsPerInstructionRate() takes warp-instructions.
    const double perLane = p.gopsPerInstructionRate() / p.warp_size;
    std::vector<PipeCeiling> pipes;
    if (cc->fp32_lanes_sm > 0)
        pipes.push_back({"FP32", cc->fp32_lanes_sm, cc->fp32_lanes_sm * perLane});
    const int fp64 = profile.fp64_lanes_sm.value_or(cc->fp64_lanes_sm);
    if (fp64 > 0)
        pipes.push_back({"FP64", fp64, fp64 * perLane});
    return pipes;
}

RooflineCeilings rooflineCeilings(const HardwareProfile &profile, const XModelParams &p)
{
    RooflineCeilings c;
    c.memory_gbs = p.R;
    c.compute_gops = p.M * p.gopsPerInstructionRate();
    if (p.issueRate() * p.n < p.M)
        c.issue_gops = p.issueRate() * p.n * p.gopsPerInstructionRate();
    c.pipes = pipeCeilings(profile, p);
    c.dram_latency_gbs = littleCeilingGbs(p, p.L);
    c.l2_latency_gbs = littleCeilingGbs(p, p.L_2);
    c.l1_latency_gbs = littleCeilingGbs(p, p.L_s);
    return c;
}

std::optional<RooflineKernel> rooflineKernel(const NcuKernel &kernel, double warpSize, const KernelRow *row)
{
    if (!kernel.instructions || !kernel.duration_ns || !kernel.dram_gbs || !(*kernel.duration_ns > 0)
        || !(*kernel.dram_gbs > 0) || !(*kernel.instructions > 0))
        return std::nullopt;
    RooflineKernel k;
    const double threadInstructions = *kernel.instructions * warpSize;
    k.gops = threadInstructions / *kernel.duration_ns;
    k.dram_intensity = k.gops / *kernel.dram_gbs;
    k.duration_ns = *kernel.duration_ns;
    if (const std::optional<double> sectors = kernel.sectors(); sectors && *sectors > 0) {
        const double l1Bytes = *sectors * 32;
        k.l1_intensity = threadInstructions / l1Bytes;
        if (kernel.l1_hit_rate && *kernel.l1_hit_rate < 1)
            k.l2_intensity = threadInstructions / (l1Bytes * (1 - *kernel.l1_hit_rate));
    }
    if (row && row->predicted_gops && row->predicted_gbs && *row->predicted_gops > 0 && *row->predicted_gbs > 0) {
        k.predicted_gops = row->predicted_gops;
        k.predicted_gbs = row->predicted_gbs;
        k.predicted_intensity = *row->predicted_gops / *row->predicted_gbs;
    }
    return k;
}

std::vector<RooflineKernel> rooflineKernels(const NcuReport &report, const std::vector<KernelRow> &rows,
                                            double warpSize)
{
    std::vector<RooflineKernel> out;
    for (std::size_t i = 0; i < report.kernels.size(); ++i) {
        if (auto k = rooflineKernel(report.kernels[i], warpSize, i < rows.size() ? &rows[i] : nullptr)) {
            k->kernel = i;
            out.push_back(*k);
        }
    }
    return out;
}

std::optional<RooflinePoint> rooflineOperatingPoint(const XModelParams &p)
{
    const Equilibrium op = XModel(p).solve().operatingPoint();
    // Intensity per DRAM byte, as the axis and the memory ceiling count it: cache hits move no DRAM bytes, so
    // the point sits at Z*warp_size/request_bytes / (1 - h) and never above the ceiling R*I.
    const double missShare = 1 - op.hit_rate.value_or(0);
    if (!(missShare > 1e-12))
        return std::nullopt;
    return RooflinePoint {p.Z * p.warp_size / p.request_bytes / missShare, op.cs_gops};
}

KernelCeilings ceilingsAt(const RooflineCeilings &c, const RooflineKernel &k)
{
    KernelCeilings at;
    at.memory_gops = c.memory_gbs * k.dram_intensity;
    at.compute_gops = c.compute_gops;
    at.issue_gops = c.issue_gops;
    for (const PipeCeiling &pipe : c.pipes)
        (pipe.precision == "FP32" ? at.fp32_gops : at.fp64_gops) = pipe.gops;
    const auto slope = [](const std::optional<double> &gbs, const std::optional<double> &intensity) {
        return gbs && intensity ? std::optional(*gbs * *intensity) : std::nullopt;
    };
    at.dram_latency_gops = slope(c.dram_latency_gbs, k.dram_intensity);
    at.l2_latency_gops = slope(c.l2_latency_gbs, k.l2_intensity);
    at.l1_latency_gops = slope(c.l1_latency_gbs, k.l1_intensity);
    return at;
}

} // namespace crossroof::core
