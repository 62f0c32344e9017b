// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/kernel_family.h"
#include "core/xmodel/parameters.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The machine parameters a calibration can fit, in this order.
std::vector<std::string> calibrationKeys();

/// Parses a list such as "R,L,M,L_c" (any subset of calibrationKeys(), each once). Throws InputError naming
/// an unknown or repeated key, or an empty list.
std::vector<std::string> parseFitList(std::string_view text);

/// The X-model's prediction of one measured kernel.
struct RowPrediction
{
    FamilyRow row;
    double predicted_gbs = 0;  ///< memory throughput at the operating point, GB/s
    double measured_gops = 0;  ///< the measured instruction throughput, Z times the requests, Gop/s
    double predicted_gops = 0; ///< CS throughput at the operating point, Gop/s
    double error = 0;          ///< relative error (predicted - measured) / measured
    double accuracy = 0;       ///< the paper's metric 1 - |predicted - measured| / measured
};

/// How well one set of machine parameters predicts a family.
struct FamilyPrediction
{
    std::vector<RowPrediction> rows; ///< in the family's order
    double accuracy_mean = 0;
    double accuracy_median = 0;
    double accuracy_min = 0;
    double rmse_gbs = 0; ///< root mean square of predicted - measured memory throughput
    double r2 = 0;       ///< coefficient of determination of the measured GB/s (1 - SSE/SST)
};

/// Predicts every row of FAMILY with the machine of MACHINE: each row's n, Z and E replace the workload,
/// everything else (the cache settings included) is kept. The prediction is the operating point of the
/// X-graph, so predicted CS throughput = Z * predicted MS throughput, and the relative error is the same in
/// GB/s and in Gop/s. Throws InputError naming the file and line of a row with n > max_warps, or of an
/// empty family.
FamilyPrediction predictFamily(const KernelFamily &family, const XModelParams &machine);

/// The lower and upper bound a fit allows for KEY: the range of the parameter's slider (M from 0.01; from 1 for
/// R_dram and L_2, whose sliders start at 0 = none). Throws InputError for a key that is not one of jointCalibrationKeys().
std::pair<double, double> calibrationBounds(std::string_view key);

/// A calibration: the fitted machine and its predictions.
struct CalibrationResult
{
    XModelParams params;              ///< START with the fitted keys replaced
    std::vector<std::string> fitted;  ///< the keys that were fitted
    std::vector<std::string> at_bound; ///< fitted keys that ended at a bound: the family does not pin them
    int starts = 0;                   ///< starting points tried
    std::size_t fit_rows = 0;         ///< rows the fit used (all, or kFitRowLimit of a larger family)
    FamilyPrediction prediction;      ///< on the family that was fitted (every row)
};

/// Fits the machine parameters FIT (a subset of calibrationKeys(); the others keep START's values) so that
/// the X-model predicts FAMILY's measured throughput: least squares of log(predicted / measured) over the
/// rows, each parameter within calibrationBounds(), from START and 8 spread starting points (each run briefly,
/// the best then to convergence; calibrateJointly() with the family alone, so a family of more than
/// kFitRowLimit rows is fitted on that many of them). Throws InputError when FAMILY has fewer rows than FIT has parameters, when FIT names a key twice
/// or one that cannot be fitted, or naming the file and line of a row with n > max_warps or another value that
/// is out of range with START's machine.
CalibrationResult calibrate(const KernelFamily &family, const XModelParams &start,
                            const std::vector<std::string> &fit);

} // namespace crossroof::core
