// SPDX-License-Identifier: GPL-3.0-or-later
// The measurement files a joint calibration reads besides a kernel family: a stream curve, pointer-chase
// latencies and the kernels of an Nsight Compute export.
#pragma once

#include "core/traces/kernel_table.h"
#include "core/traces/trace_set.h"

#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// Which gpu-benches output PATH is, from its content (its first 64 KiB); none for anything else or a file
/// that cannot be opened (whose reader then says so).
std::optional<TraceFormat> benchFormat(const std::string &path);

/// One point of a stream curve: the device's read throughput with WARPS warps per SM, each with one request
/// in flight (f(k) at k = warps).
struct StreamRow {
    double warps = 0;
    double gbs = 0;
    int line = 0;
};

/// A stream curve: a CSV with the columns warps_per_sm and read_gbs (as crossroof-probe writes stream.csv), or
/// a gpu-benches gpu-stream output as it is (its "read" kernel).
struct StreamCurve {
    std::string source;
    std::vector<StreamRow> rows;
    std::size_t left_out = 0; ///< gpu-stream rows whose warps per SM is not a whole number >= 1
};

/// Reads a stream curve. A gpu-stream output (either generation, recognised by its content) gives the rows of
/// its "read" kernel (one load per thread) whose warps per SM is a whole number >= 1. Throws InputError naming
/// the file, line and column of a missing column, a cell that is not a number, warps_per_sm that is not a
/// whole number > 0 or read_gbs outside measuredGbsRange(), of a gpu-stream file without a "read" kernel, and
/// of a file without rows.
StreamCurve readStreamCurve(const std::string &path);

/// What a pointer-chase file (latency.csv: footprint_bytes, load, cycles_per_hop, or a gpu-benches
/// gpu-latency output) measures directly.
struct LatencyMeasurements {
    std::string source;
    double dram_cycles = 0; ///< ld.cg chase over the largest footprint: the DRAM latency L
    int dram_line = 0;
    std::optional<double> l2_cycles; ///< ld.cg chase over the smallest footprint: the L2 latency L_2
    int l2_line = 0;
    double l1_cycles = 0; ///< ld chase over the smallest footprint: the L1 latency L_s
    int l1_line = 0;
    std::optional<double> dependent_issue; ///< "fma" rows: cycles between two dependent FMAs
    int fma_line = 0;
    /// How each was measured, for the report.
    std::string dram_how = "ld.cg chase over the largest footprint (DRAM)";
    std::string l2_how = "ld.cg chase over the smallest footprint (L2 hits)";
    std::string l1_how = "ld chase over the smallest footprint (L1 hits)";
    /// The clock the cycles count at, where the file gives it (gpu-latency's clock column), MHz.
    std::optional<double> clock_mhz;
    int clock_line = 0;
};

/// Reads a pointer-chase file. Throws InputError naming the file and line of a value <= 0 or not a number,
/// and the file when it has no 'ld.cg' or no 'ld' rows. A gpu-latency output (recognised by its content) is
/// read as it is: its DRAM plateau gives L, its L2 plateau L_2 and its L1 plateau L_s (latencyPlateaus()),
/// in cycles of its clock, which it gives too.
LatencyMeasurements readLatencyFile(const std::string &path);

/// One profiled kernel as a joint calibration uses it: the counters the X-model reads and the measured DRAM
/// throughput.
struct KernelSample {
    std::string id;
    std::string name; ///< the short kernel name
    int line = 0; ///< the kernel's first line in the file
    KernelWorkload workload;
    double measured_gbs = 0; ///< DRAM GB/s the kernel reached
};

/// The kernels of one Nsight Compute export; those that cannot be used are listed with the reason.
struct KernelSet {
    std::string source;
    std::vector<KernelSample> kernels;
    std::vector<std::string> skipped; ///< "SOURCE:LINE: kernel ID (NAME): reason", one per kernel left out
};

/// Reads an ncu export (readNcuCsv()) and takes each kernel's workload as `crossroof-cli kernels` does
/// (kernelWorkload()); a kernel without a measured DRAM throughput, with a missing metric or unusable counts
/// is skipped with its reason. Throws InputError naming the file when no kernel can be used.
KernelSet readKernelSet(const std::string &path, double warpSize);

} // namespace crossroof::core
