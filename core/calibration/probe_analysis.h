// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/calibration.h"
#include "core/calibration/joint_calibration.h"
#include "core/calibration/kernel_family.h"
#include "core/calibration/parallel_reads.h"
#include "core/profiles/hardware_profile.h"
#include "core/traces/device_check.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// What crossroof-probe measured on one GPU: the files device.csv, latency.csv, stream.csv, family.csv and,
/// where the probe wrote one, parallel.csv of its output directory (README.md, "Measure your own GPU").
struct ProbeMeasurements {
    std::filesystem::path directory;
    // device.csv: one "key,value" per line (cudaGetDeviceProperties)
    std::string device_name;
    std::string compute_capability; ///< "X.Y"
    double sm_count = 0;
    double clock_ghz = 0;
    double max_warps = 0; ///< max_threads_sm / 32
    double l1_smem_kib = 0; ///< shared memory per SM, KiB
    std::optional<double> l2_bytes; ///< the device's L2, where device.csv has l2_bytes
    /// Peak DRAM bandwidth, GB/s: 2 x mem_clock_khz x bus_width_bits / 8, where device.csv has both
    std::optional<double> peak_dram_gbs;
    // latency.csv: pointer chases (cycles per dependent load) and the dependent-FMA chain
    double dram_latency = 0; ///< ld.cg chase over the largest footprint, cycles
    double l2_latency = 0; ///< ld.cg chase over the smallest footprint, cycles
    double l1_latency = 0; ///< ld chase over the smallest footprint, cycles
    std::optional<double> dependent_issue; ///< "fma" rows: cycles between two dependent FMAs, when measured
    // stream.csv: one request in flight per warp
    double stream_peak_gbs = 0; ///< the highest read_gbs
    double stream_peak_warps = 0; ///< warps_per_sm where it was reached
    KernelFamily family;
    // parallel.csv: reads of 4 to 16 bytes per thread with 1 to 8 loads in flight per warp (absent from the
    // directories of older probes)
    std::optional<ParallelReads> parallel;
    std::optional<ParallelAnalysis> parallel_analysis;
};

/// Reads a probe directory; parallel.csv is read (with device.csv's L2 size to check its footprints) and
/// analysed where there is one. Throws InputError naming the file and line of anything missing or malformed.
ProbeMeasurements readProbe(const std::filesystem::path &directory);

/// What device.csv says of the GPU, for checkDevice(): name, SMs, compute capability, clock, peak bandwidth.
DeviceFacts deviceFacts(const ProbeMeasurements &probe);

/// The profile the measurements give before any fit: the device's shape, L from the DRAM chase, L_s from the
/// L1 chase, S_s the shared memory per SM, L_c the measured dependent-issue latency (or 4 cycles),
/// M = FP32 lanes / 32 of the compute capability (or 4), R = the stream peak, each with its source; with
/// parallel reads also R_dram = their highest DRAM read throughput and L_2 = the latency their latency-bound
/// l2 rows imply. The workload is the family's last row. ID names the profile.
HardwareProfile probeStartingProfile(const ProbeMeasurements &probe, const std::string &id);

/// START with the calibration's fitted values, its sources updated: the fitted keys leave their old entries
/// and gain one naming FAMILY_NAME, the rows, the accuracy and the tool. ID and NAME replace START's.
HardwareProfile calibratedProfile(const HardwareProfile &start, const CalibrationResult &calibration,
                                  const std::string &familyName, const std::string &id,
                                  const std::string &name);

/// START with a joint calibration's values, its sources updated: the fitted and directly set keys leave their
/// old entries; the fitted keys gain one entry naming every source (file, rows, weight, accuracy) and which
/// of them determines each key, and every directly set key one naming its file and line. ID and NAME replace
/// START's; TOOL names what made the fit ("crossroof-cli calibrate", the GUI's dialog).
HardwareProfile jointCalibratedProfile(const HardwareProfile &start, const JointCalibration &calibration,
                                       const std::string &id, const std::string &name,
                                       const std::string &tool = "crossroof-cli calibrate");

/// Writes PROFILE as JSON to PATH atomically (core::writeFileAtomically(): a uniquely named temporary file
/// beside it, renamed over PATH; a symbolic link, FIFO, device node or directory at PATH is refused).
/// Throws InputError "PATH: cannot write the profile: WHY" or the profile's own when it would not load.
void saveProfileFile(const std::filesystem::path &path, const HardwareProfile &profile);

/// A profile id made from TEXT (a file name or device name): lower-case letters, digits, '-', '_' and '.'.
std::string profileIdFrom(const std::string &text);

} // namespace crossroof::core
