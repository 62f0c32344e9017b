// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// nvprof's CSV (the profiler before Nsight Compute, and the only one of Kepler and Maxwell GPUs) read as the
// kernels of an NcuReport, so that every user of an ncu export reads it alike:
// - `nvprof --csv --metrics M,...`: `"Device","Kernel","Invocations","Metric Name","Metric Description","Min",
//   "Max","Avg"`, one row per kernel and metric, the average over the invocations taken; values may carry
//   their unit ("120.5GB/s", "87.50%");
// - `nvprof --csv --print-gpu-trace`: one row per launch ("Start","Duration",...,"Device",...,"Name"), a row
//   of units under the header; memory copies and sets are left out;
// - both put together (`cat metrics.csv trace.csv`): each kernel's metrics with its mean duration over its
//   launches in the trace.
// Metrics read: achieved_occupancy (x the device's warp slots: 48 on Fermi, 32 on Turing, 64 on the others,
// by its name), inst_executed (else inst_issued), gld_/gst_transactions (32-byte sectors) and gld_/gst_requests
// (else transactions / gld_/gst_transactions_per_request), dram_read_/write_throughput (else
// dram_read_/write_transactions x 32 B over the duration), global_hit_rate / l1_cache_global_hit_rate and
// l2_tex_hit_rate / l2_l1_read_hit_rate. The device is the "Device" column's name ("Tesla K20c (0)").

#include "core/traces/ncu_csv.h"

#include <string>
#include <string_view>

namespace crossroof::core::detail {

/// Whether TEXT (a file's beginning) is nvprof CSV: its metrics or GPU-trace header.
bool looksLikeNvprof(std::string_view text);

/// Parses nvprof CSV as described above. Throws InputError "SOURCE:LINE:COLUMN: problem" on a bad value of a
/// metric it reads, "SOURCE: ..." when there is no kernel.
NcuReport parseNvprof(std::string_view text, const std::string &source);

} // namespace crossroof::core::detail
