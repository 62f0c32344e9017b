// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One check of a measurement file's device against the profile, for every import (docs/NCU.md, "The device
// check"): Nsight Compute exports, gpu-benches' stream files and tidy CSV, crossroof-probe's output.

#include "core/profiles/hardware_profile.h"
#include "core/traces/ncu_csv.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What a file states about the GPU it was measured on; each part only where the file gives it.
struct DeviceFacts {
    std::string name; ///< "NVIDIA H200" (ncu, probe), "h100_pcie" (gpu-benches' file name)
    std::optional<double> sm_count;
    std::string cc; ///< compute capability "9.0"
    std::optional<double>
            clock_ghz; ///< the SM clock: the one the kernels ran at, else the device's boost clock
    std::optional<double> bandwidth_gbs; ///< peak DRAM bandwidth, GB/s (memory clock x bus width)

    /// "NVIDIA H200, 132 SMs, CC 9.0" with the parts the file has ("unknown device" when none).
    std::string describe() const;
};

/// The facts of an ncu file's (or a trace file's) device: name, SMs, CC, the boost clock, the peak bandwidth.
DeviceFacts deviceFacts(const NcuDevice &device);
/// The facts of an ncu export, with the median SM clock its kernels ran at
/// (sm__cycles_elapsed.avg.per_second, "SM Frequency") in place of the boost clock where they have one.
DeviceFacts deviceFacts(const NcuReport &report);

/// The GPU model a name gives: the first word with a digit once vendor and series words (NVIDIA, GeForce,
/// Tesla, Quadro, GTX, RTX) are dropped, in lower case, a profile name read up to its first comma: "NVIDIA
/// H200" -> "h200", "H100 SXM 80GB (Hopper)" -> "h100", "h100_pcie" -> "h100", "GeForce GTX 570 (Fermi),
/// single precision" -> "570". Empty when the name has none.
std::string gpuModel(std::string_view name);

/// The profile among PROFILES whose id a device name names, letters and digits compared without case:
/// "h100_pcie" (gpu-benches' file name) names h100-pcie, "a100_40" names a100-40, "V100" names v100. A name
/// such as ncu's "NVIDIA H100 80GB HBM3" names none (gpuModel() and the facts find its profiles).
const HardwareProfile *profileNamedBy(std::string_view deviceName,
                                      const std::vector<HardwareProfile> &profiles);

/// The GPU profiles among PROFILES that fit DEVICE: the same SM count and, where both say, the same compute
/// capability and a peak DRAM bandwidth the profile's could be (see checkDevice()); none when the file gives
/// no SM count.
std::vector<const HardwareProfile *> matchingProfiles(const DeviceFacts &device,
                                                      const std::vector<HardwareProfile> &profiles);

/// What a measurement file's device means for the current profile.
struct DeviceCheck {
    /// One sentence when the device is not the profile's machine: "file: NVIDIA H200; profile: H100 SXM 80GB
    /// (Hopper): another GPU (H200, not H100); peak DRAM bandwidth 4814 GB/s, the profile's 2964 GB/s", to which
    /// the caller adds what it means there. None when it fits or the file does not say.
    std::optional<std::string> mismatch;
    /// One sentence when the file's SM clock and the profile's are more than 10 % apart: "SM clock: file
    /// 1.50 GHz, profile 1.98 GHz (24 % lower)".
    std::optional<std::string> clock_gap;
    /// The profile among the candidates whose id the device name names (profileNamedBy()), if any.
    const HardwareProfile *named = nullptr;
    /// With a mismatch, the profiles to offer: the named one alone, else those of the device's GPU model that
    /// fit its facts, else those that fit them (matchingProfiles()); never the current one; empty without a
    /// mismatch.
    std::vector<const HardwareProfile *> matches;

    /// The mismatch, then the clock gap, those there are.
    std::vector<std::string> messages() const;
};

/// Checks DEVICE, as a measurement file gives it, against PROFILE (a GPU's; with the parameters in use in its
/// params), with CANDIDATES (the bundled profiles) to name and offer. The device is another GPU where the
/// GPU models of the names differ (gpuModel()), where the name names another candidate of another machine,
/// where the SM counts or compute capabilities differ, or where the file's peak DRAM bandwidth is below 0.95
/// or above 1.35 times the profile's (a sustained R_dram, or R, lies a little under the theoretical peak). A
/// CPU profile is not checked.
DeviceCheck checkDevice(const DeviceFacts &device, const HardwareProfile &profile,
                        const std::vector<HardwareProfile> &candidates);

} // namespace crossroof::core
