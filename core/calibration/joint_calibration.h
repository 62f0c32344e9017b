// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/calibration.h"
#include "core/calibration/kernel_family.h"
#include "core/calibration/level_bandwidths.h"
#include "core/calibration/measurement_files.h"
#include "core/calibration/parallel_reads.h"
#include "core/traces/kernel_table.h"
#include "core/xmodel/parameters.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The machine parameters a joint calibration can fit, in this order: calibrationKeys() and the DRAM byte
/// bandwidth R_dram and L2 latency L_2 that real kernels need.
std::vector<std::string> jointCalibrationKeys();

/// Parses a list of keys as parseFitList() does, allowing every key of jointCalibrationKeys().
std::vector<std::string> parseJointFitList(std::string_view text);

/// The kinds of measurement a joint calibration takes. Cache (gpu-cache) and L2Stream (gpu-l2-stream) set the
/// keys they measure and have no rows in the fit.
enum class SourceKind { Family, Stream, Latency, Kernels, Parallel, Cache, L2Stream };
/// "family", "stream", "latency", "kernels", "parallel", "cache", "l2-stream"
std::string_view sourceKindName(SourceKind kind);

/// Everything a joint calibration fits to; any may be absent, but not all.
struct CalibrationSources {
    std::optional<KernelFamily> family;
    std::optional<StreamCurve> stream;
    std::optional<LatencyMeasurements> latency;
    std::vector<KernelSet> kernels;
    std::optional<ParallelReads> parallel;
    /// gpu-cache and gpu-l2-stream outputs: the levels' bandwidths and capacities they measure are set, not
    /// fitted (the first source to measure a key sets it).
    std::vector<LevelMeasurements> levels;
    /// Weights by kind name or source (file name as in the source): a source's rows count WEIGHT times; 1
    /// where none is given. The source's own entry wins over its kind's.
    std::vector<std::pair<std::string, double>> weights;
};

/// One measured value of a source next to the X-model's prediction.
struct SourceRow {
    /// "n=4 Z=17 E=1", "48 warps", "L (ld.cg 1073741824 B)", a kernel's id and name,
    /// "dram 16 B x 8, 32 warps"
    std::string label;
    int line = 0;
    double measured = 0; ///< in the source's unit
    double predicted = 0;
    double error = 0; ///< (predicted - measured) / measured
    double accuracy = 0; ///< 1 - |error|, floored at 0
};

/// How well the fitted machine predicts one source.
struct SourceReport {
    SourceKind kind = SourceKind::Family;
    std::string source;
    /// "GB/s" (family, stream, parallel: memory throughput; kernels: DRAM) or "cycles" (latency)
    std::string unit;
    double weight = 1;
    std::vector<SourceRow> rows;
    std::vector<std::string> skipped; ///< kernels or parallel-read rows left out, with the reason
    double accuracy_mean = 0;
    double accuracy_median = 0;
    double accuracy_min = 0;
    double cost = 0; ///< weight times the mean of log(predicted / measured)^2 over the rows
    /// Rows the fit used: all of them, or kFitRowLimit of a larger family or kernel set (the report's rows
    /// and statistics are always over every row).
    std::size_t fit_rows = 0;
};

/// Which sources determine one fitted key: each source's share of the fit's information about it (its part
/// of sum r_i'^2, the squared weighted residuals' derivatives in log(key)), largest first.
struct KeyOrigin {
    std::string key;
    std::vector<std::pair<std::size_t, double>> shares; ///< (index in JointCalibration::sources, share 0..1)
    /// No source's prediction moves with the key at the fitted machine (R above R_dram, say): the
    /// measurements do not determine it. Of the values that predict the same, the one nearest the start
    /// value is kept; `from_value` is that value, and every value beyond it, away from the start, predicts
    /// the same (upward when `free_upward`).
    bool undetermined = false;
    bool free_upward = true;
    /// Undetermined within the fit's noise rather than exactly: moving the key by a factor of 2 either way
    /// changes the cost by less than one standard deviation's worth of it (cost / (values - keys)). The start
    /// value is kept where it predicts as well within that; else the value nearest it that does.
    bool within_noise = false;
    /// The key ended on a physical bound of the machine (physicalRange()): which, e.g. "the profile's DRAM
    /// peak R_dram = 933 GB/s"; empty otherwise.
    std::string bound;
};

/// A machine key set directly from a measurement rather than fitted.
struct KeySetting {
    std::string key;
    double value = 0;
    std::string source;
    std::string how; ///< e.g. "ld chase over 8192 B, line 3"
};

/// A joint calibration: the fitted machine and how it predicts every source.
/// Most rows of one family or kernel set that the fit predicts at each step. A larger source is fitted on
/// this many of its rows spread evenly over its range (sorted by n, Z and E, or by measured throughput for
/// kernels), so that a fit's time is bounded whatever the file's size; the report still predicts every row.
inline constexpr std::size_t kFitRowLimit = 2048;

struct JointCalibration {
    XModelParams params; ///< START, the direct settings, the fitted keys replaced
    std::vector<std::string> fitted;
    std::vector<std::string> at_bound; ///< fitted keys that ended on a bound: no source pins them
    int starts = 0;
    double cost = 0; ///< the objective: sum of the sources' costs
    std::vector<SourceReport> sources; ///< family, stream, latency, kernels, parallel (in this order)
    std::vector<KeyOrigin> origins; ///< one per fitted key
    std::vector<KeySetting> settings; ///< keys set directly by a measurement
    /// What the measurements that set keys do not give, or give twice ("R_dram also measured by ...").
    std::vector<std::string> notes;
    std::optional<FamilyPrediction> family; ///< predictFamily() of the family at PARAMS, when it is a source
};

/// Whether some kernel of SOURCES sends requests to the L2 (fewer DRAM bytes than the bytes that miss L1), so
/// that L_2 matters to its prediction.
bool hasL2Traffic(const CalibrationSources &sources);

/// The keys a joint calibration fits by default: R, L, M, L_c, and R_dram with kernels or parallel reads (unless
/// a footprint sweep measures it), L_2 with kernels that have L2 traffic or parallel reads with latency-bound l2
/// rows; none when the sources are footprint sweeps alone, which set what they measure.
std::vector<std::string> defaultJointKeys(const CalibrationSources &sources);

/// Fits FIT (a subset of jointCalibrationKeys()) to every source at once: least squares of
/// log(predicted / measured), each source's rows weighted by weight / rows so that every source counts
/// as one whatever its number of rows, within calibrationBounds(). A family row is predicted as
/// predictFamily() does, a stream row as f(k) at k = warps (one request in flight, the machine's request
/// size), a kernel as `crossroof-cli kernels` does (kernelParams()), a parallel-read row as f(k) at k = its
/// warps with m = loads_in_flight and req_bytes = 32 x bytes_per_thread (its dram rows without a cache, its
/// l2 rows as L2 hits, h_2 = 1; only the latency-bound l2 rows: the X-model has no L2 bandwidth, and the
/// others are listed as left out), and the latency file's DRAM and L2 chases as L and L_2 themselves where
/// those are fitted; where not, and always for L_s, the file sets them.
/// Throws InputError when there is no source, fewer rows than keys, a key twice or one that cannot be fitted,
/// or naming the file and line of a row the machine cannot run (n > max_warps, a value out of range).
JointCalibration calibrateJointly(const CalibrationSources &sources, const XModelParams &start,
                                  const std::vector<std::string> &fit);

} // namespace crossroof::core
