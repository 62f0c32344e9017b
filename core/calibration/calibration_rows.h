// SPDX-License-Identifier: GPL-3.0-or-later
// How a joint calibration predicts one measured row of each kind: the workload a family, stream or
// parallel-read row puts on the machine, and which parallel-read rows it can predict at all.
#pragma once

#include "core/calibration/joint_calibration.h"
#include "core/calibration/kernel_family.h"
#include "core/calibration/parallel_reads.h"
#include "core/xmodel/parameters.h"

#include <string>
#include <utility>
#include <vector>

namespace crossroof::core::detail {

/// MACHINE running a family row's workload (its n, Z and E; everything else kept).
XModelParams familyWorkload(const XModelParams &machine, const FamilyRow &row);
/// The machine running a stream kernel of WARPS warps: one request of the machine's size in flight each.
XModelParams streamWorkload(const XModelParams &machine, double warps);
/// f(k) at k = WARPS of that workload, GB/s.
double streamGbs(const XModelParams &machine, double warps);
/// The machine running a parallel-read row: m = loads_in_flight requests of 32 x bytes_per_thread bytes in
/// flight per warp; an l2 row's requests all hit the L2 (h_2 = 1).
XModelParams parallelWorkload(const XModelParams &machine, const ParallelRow &row);
double parallelGbs(const XModelParams &machine, const ParallelRow &row);

/// The rows of READS a fit predicts: every dram row; of the l2 rows only the latency-bound ones (the X-model
/// has no L2 bandwidth to predict the others with), and none where the machine has no L2 latency (L2_LATENCY
/// false). Returns them and the reasons for those left out. Throws InputError naming the file and line of a
/// row MACHINE cannot run, or the file when no row is left.
std::pair<std::vector<ParallelRow>, std::vector<std::string>>
selectParallelRows(const ParallelReads &reads, const XModelParams &machine, bool l2Latency);

/// A report row: MEASURED against PREDICTED, with the error and the accuracy.
SourceRow makeRow(std::string label, int line, double measured, double predicted);
/// Fills REPORT's accuracy statistics from its rows and its cost from LOGS, log(predicted / measured).
void summarise(SourceReport &report, const std::vector<double> &logs);

} // namespace crossroof::core::detail
