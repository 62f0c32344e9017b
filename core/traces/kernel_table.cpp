// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/kernel_table.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

std::optional<std::string> deviceMismatch(const NcuDevice &device, double smCount, std::string_view cc,
                                          std::string_view profileName)
{
    const bool smDiffers = device.sm_count && *device.sm_count != smCount;
    const bool ccDiffers = !device.cc.empty() && !cc.empty() && device.cc != cc;
    if (!smDiffers && !ccDiffers)
        return std::nullopt;
    std::string profile = formatNumber(smCount) + " SMs";
    if (!cc.empty())
        profile += ", CC " + std::string(cc);
    return "the file's device (" + device.describe() + ") differs from profile '" + std::string(profileName)
           + "' (" + profile + "): the predictions are for the profile's machine";
}

KernelTable compareKernels(const NcuReport &report, const XModelParams &params, std::string_view profileCc,
                           std::string_view profileName)
{
    KernelTable table;
    if (const auto mismatch = deviceMismatch(report.device, params.sm_count, profileCc, profileName))
        table.warnings.push_back(*mismatch);
    std::size_t derived = 0, overMax = 0;
    double mostWarps = 0;
    for (const NcuKernel &k : report.kernels) {
        KernelRow row;
        row.id = k.id;
        row.name = k.name;
        row.short_name = k.short_name;
        row.grid = k.grid_size;
        row.block = k.block_size;
        row.warps_per_sm = k.warps_per_sm;
        row.duration_ns = k.duration_ns;
        row.dram_gbs = k.dram_gbs;
        if (!row.dram_gbs && k.dram_percent) {
            row.dram_gbs = *k.dram_percent / 100 * params.R;
            row.dram_gbs_derived = true;
            ++derived;
        }
        if (const auto z = k.intensity(); z && *z > 0)
            row.Z = z;
        if (!k.problem.empty())
            row.skipped = k.problem;
        else if (!row.warps_per_sm)
            row.skipped = "no achieved warps per SM (sm__warps_active.avg.per_cycle_active)";
        else if (!row.dram_gbs)
            row.skipped = "no DRAM throughput (dram__bytes.sum.per_second or DRAM Throughput)";
        if (row.skipped.empty()) {
            if (*row.warps_per_sm > params.max_warps) {
                ++overMax;
                mostWarps = std::max(mostWarps, *row.warps_per_sm);
            }
            XModelParams p = params;
            p.n = std::clamp(std::round(*row.warps_per_sm), 1.0, std::max(1.0, p.max_warps));
            if (row.Z)
                p.Z = *row.Z;
            try {
                const XModel model(p);
                row.predicted_gbs = model.solve().operatingPoint().ms_gbs;
                if (*row.dram_gbs > 0)
                    row.error = (*row.predicted_gbs - *row.dram_gbs) / *row.dram_gbs;
            } catch (const InputError &e) {
                row.skipped = std::string("no prediction: ") + e.what();
            }
        }
        table.rows.push_back(std::move(row));
    }
    if (overMax > 0) {
        table.warnings.push_back(std::to_string(overMax) + " kernel(s) ran more warps per SM (up to "
                                 + formatNumber(mostWarps) + ") than profile '" + std::string(profileName)
                                 + "' allows (max_warps " + formatNumber(params.max_warps)
                                 + "); they are predicted at max_warps");
    }
    if (derived > 0) {
        table.warnings.push_back("DRAM GB/s of " + std::to_string(derived)
                                 + " kernel(s) derived from 'DRAM Throughput' % times the profile's R = "
                                 + formatNumber(params.R) + " GB/s (the file has no DRAM bytes)");
    }
    table.warnings.insert(table.warnings.end(), report.warnings.begin(), report.warnings.end());
    return table;
}

std::vector<const HardwareProfile *> matchingProfiles(const NcuDevice &device,
                                                      const std::vector<HardwareProfile> &profiles)
{
    std::vector<const HardwareProfile *> out;
    if (!device.sm_count)
        return out;
    for (const HardwareProfile &p : profiles) {
        if (p.kind != "gpu" || p.params.sm_count != *device.sm_count)
            continue;
        if (!device.cc.empty() && !p.compute_capability.empty() && device.cc != p.compute_capability)
            continue;
        out.push_back(&p);
    }
    return out;
}

HardwareProfile profileFromDevice(const NcuDevice &device, const HardwareProfile &base, const std::string &source)
{
    HardwareProfile p = base;
    p.id = "ncu-device";
    p.name = device.name.empty() ? "Device of " + source : device.name;
    p.origin = source;
    p.description = "Made from the device attributes of the Nsight Compute export " + source + "; parameters "
                    "the file does not give are those of " + base.id + ".";
    p.sources.clear();
    std::vector<std::string> fields;
    const auto take = [&](const std::optional<double> &value, double XModelParams::*member, double scale,
                          const char *field) {
        if (value && *value > 0) {
            p.params.*member = *value * scale;
            fields.emplace_back(field);
        }
    };
    take(device.sm_count, &XModelParams::sm_count, 1, "sm_count");
    take(device.clock_khz, &XModelParams::clock_ghz, 1e-6, "clock_ghz");
    take(device.max_warps_per_sm, &XModelParams::max_warps, 1, "max_warps");
    take(device.peakDramGbs(), &XModelParams::R, 1, "R");
    if (!device.cc.empty())
        p.compute_capability = device.cc;
    if (!fields.empty()) {
        p.sources.push_back({fields, "Nsight Compute export " + source
                                             + ": # SMs / device__attribute_multiprocessor_count, clock_rate, "
                                               "max_warps_per_multiprocessor; R = 2 x memory_clock_rate x "
                                               "global_memory_bus_width / 8"});
    }
    std::vector<std::string> rest;
    for (const char *key : {"sm_count", "clock_ghz", "max_warps", "R"}) {
        if (std::find(fields.begin(), fields.end(), key) == fields.end())
            rest.emplace_back(key);
    }
    for (const char *key : {"warp_size", "request_bytes", "L", "M", "S_s", "L_s"})
        rest.emplace_back(key);
    p.sources.push_back({rest, "from profile " + base.id});
    return p;
}

} // namespace crossroof::core
