// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/cpu_topology.h"
#include "core/skeleton/core_model.h"
#include "core/xmodel/parameters.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Where one or more profile numbers come from (a paper table, a data file, a public spec).
struct ProfileSource
{
    std::vector<std::string> fields;
    std::string text;
};

/// One machine: the X-model parameters of a GPU at one precision or of a CPU, with a default workload and
/// the sources of every machine number (docs/PROFILES.md).
struct HardwareProfile
{
    std::string id;
    std::string name;
    std::string kind; ///< "gpu" or "cpu"
    std::string architecture;
    std::string compute_capability; ///< "X.Y", empty when not a CUDA device
    /// FP64 results per clock per SM where the device runs FP64 at another rate than its compute capability's
    /// data-centre parts (GeForce Fermi: 4 of 16); none: the compute capability's rate.
    std::optional<int> fp64_lanes_sm;
    std::string description;
    XModelParams params;
    /// A CPU's shared caches and thread-to-core mapping strategies (docs/PROFILES.md), for the Markov CPI
    /// model; none for GPUs.
    std::optional<CpuTopology> topology;
    /// A CPU core's pipelines, latencies and memory levels (docs/PROFILES.md), for code skeletons; optional.
    std::optional<CoreModel> core_model;
    std::vector<ProfileSource> sources;
    std::string origin; ///< the file it was read from, or "bundled"
    /// Read from the user's profile directory (see loadUserProfiles()), not bundled and not opened by hand.
    bool user = false;
};

/// The largest profile file accepted (a profile is a few KiB).
inline constexpr std::uintmax_t kMaxProfileBytes = 1 << 20;

/// Parses and validates a profile. `label` names the file in error messages.
/// Throws InputError("label: field 'parameters.L': must be ...").
HardwareProfile parseProfile(std::string_view json, const std::string &label);

/// Reads, parses and validates a profile file; errors name the file.
HardwareProfile loadProfileFile(const std::filesystem::path &path);

/// The profile as JSON text in the format parseProfile() reads (for "save as profile").
std::string profileToText(const HardwareProfile &profile);

} // namespace crossroof::core
