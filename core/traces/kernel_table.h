// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/parameters.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// One profiled kernel next to the X-model's prediction for it.
struct KernelRow
{
    std::string id;
    std::string name;       ///< as in the file
    std::string short_name; ///< shortKernelName()
    std::string grid;
    std::string block;
    std::optional<double> warps_per_sm;
    std::optional<double> duration_ns;
    std::optional<double> dram_gbs;
    bool dram_gbs_derived = false; ///< from "DRAM Throughput" % times the profile's R, not measured bytes
    std::optional<double> Z;       ///< instructions / requests, when both were collected
    /// The X-model's MS throughput (GB/s) with n = the achieved warps per SM (rounded, at least 1), the
    /// kernel's Z where known and the parameters' Z and E otherwise.
    std::optional<double> predicted_gbs;
    std::optional<double> error; ///< (predicted - measured) / measured
    std::string skipped;         ///< why the kernel cannot be compared; empty when it can
};

/// The kernels of an ncu file compared with the X-model, and what the user must know about the comparison.
struct KernelTable
{
    std::vector<KernelRow> rows;
    std::vector<std::string> warnings; ///< device mismatch, derived bandwidths, the file's own warnings
};

/// Compares every kernel of REPORT with the X-model of PARAMS (a profile, with its compute capability
/// PROFILECC, "" when unknown, named PROFILENAME in the warnings). A kernel without achieved warps or DRAM
/// throughput, or with a problem in the file, is listed with the reason in KernelRow::skipped.
KernelTable compareKernels(const NcuReport &report, const XModelParams &params, std::string_view profileCc,
                           std::string_view profileName);

/// Where DEVICE (from a file) differs from a profile of SMCOUNT SMs and compute capability CC ("" when
/// unknown): one sentence, or none when they match or the file does not say.
std::optional<std::string> deviceMismatch(const NcuDevice &device, double smCount, std::string_view cc,
                                          std::string_view profileName);

/// The GPU profiles among PROFILES that fit DEVICE: the same SM count and, where both say, the same compute
/// capability; none when the file gives no SM count.
std::vector<const HardwareProfile *> matchingProfiles(const NcuDevice &device,
                                                      const std::vector<HardwareProfile> &profiles);

/// A profile for the device of an ncu file: BASE with the SM count, clock, warps per SM, compute capability
/// and peak DRAM bandwidth (R) the file gives, each with its source naming SOURCE; the rest (L, M, ...) stays
/// BASE's. Id "ncu-device", origin SOURCE.
HardwareProfile profileFromDevice(const NcuDevice &device, const HardwareProfile &base, const std::string &source);

} // namespace crossroof::core
