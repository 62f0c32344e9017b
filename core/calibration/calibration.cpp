// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/calibration.h"

#include "core/calibration/joint_calibration.h"

#include "core/support/error.h"
#include "core/support/statistics.h"
#include "core/support/text.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace crossroof::core {

namespace {

constexpr std::array<std::string_view, 4> kKeys {"R", "L", "M", "L_c"};

XModelParams workloadOf(const XModelParams &machine, const FamilyRow &row)
{
    XModelParams p = machine;
    p.n = row.n;
    p.Z = row.Z;
    p.E = row.E;
    return p;
}

void checkRows(const KernelFamily &family, const XModelParams &machine)
{
    if (family.rows.empty())
        throw InputError(family.source + ": the kernel family has no rows");
    for (const FamilyRow &row : family.rows) {
        const std::string where = family.source + ":" + std::to_string(row.line) + ": ";
        if (row.n > machine.max_warps)
            throw InputError(where + "n = " + formatNumber(row.n)
                             + " warps is more than the machine's max_warps = "
                             + formatNumber(machine.max_warps));
        try {
            validate(workloadOf(machine, row));
        } catch (const InputError &e) {
            throw InputError(where + e.what());
        }
    }
}

} // namespace

std::vector<std::string> calibrationKeys()
{
    return {kKeys.begin(), kKeys.end()};
}

std::vector<std::string> parseFitList(std::string_view text)
{
    if (trimBlanks(text).empty())
        throw InputError("no parameters to fit: name some of R, L, M, L_c");
    std::vector<std::string> keys;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = std::min(text.find(',', begin), text.size());
        const std::string key(trimBlanks(text.substr(begin, comma - begin)));
        if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
            throw InputError("cannot fit '" + key + "': the parameters to fit are R, L, M and L_c");
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            throw InputError("parameter '" + key + "' is listed twice");
        keys.push_back(key);
        if (comma == text.size())
            return keys;
        begin = comma + 1;
    }
}

std::pair<double, double> calibrationBounds(std::string_view key)
{
    const std::vector<std::string> joint = jointCalibrationKeys();
    if (std::find(joint.begin(), joint.end(), key) == joint.end()) {
        throw InputError("cannot fit '" + std::string(key)
                         + "': the parameters to fit are R, L, M and L_c (jointly also R_dram and L_2)");
    }
    const ParameterInfo *info = findParameter(key);
    // R_dram and L_2 slide from 0 (none); a fit keeps them on: from 1 GB/s or 1 cycle. The others keep their
    // slider's range (M from 0.01: the double-precision profiles' M = 0.125 can be fitted).
    return {info->slider_min > 0 ? info->slider_min : 1.0, info->slider_max};
}

FamilyPrediction predictFamily(const KernelFamily &family, const XModelParams &machine)
{
    checkRows(family, machine);
    FamilyPrediction out;
    out.rows.reserve(family.rows.size());
    double sse = 0, mean = 0;
    // The operating point as solve() finds it, by the lean scan: f(k) does not depend on n, Z or E, so one
    // shape of it serves every row, and a family of 100,000 rows is predicted in a second.
    const SupplyShape shape(workloadOf(machine, family.rows.front()));
    for (const FamilyRow &row : family.rows) {
        const XModelParams p = workloadOf(machine, row);
        const XModel model(p);
        const double k = EquilibriumScan(model, shape).operatingK();
        RowPrediction pr;
        pr.row = row;
        pr.predicted_gbs = model.toGbs(model.msSupply(k));
        pr.predicted_gops = model.toGops(model.csThroughput(p.n - k));
        pr.measured_gops = row.gbs / p.gbsPerRequestRate() * row.Z * p.gopsPerInstructionRate();
        pr.error = (pr.predicted_gbs - row.gbs) / row.gbs;
        pr.accuracy = 1 - std::abs(pr.error);
        sse += (pr.predicted_gbs - row.gbs) * (pr.predicted_gbs - row.gbs);
        mean += row.gbs;
        out.rows.push_back(pr);
    }
    const double count = double(out.rows.size());
    mean /= count;
    double sst = 0;
    std::vector<double> accuracies;
    for (const RowPrediction &pr : out.rows) {
        sst += (pr.row.gbs - mean) * (pr.row.gbs - mean);
        accuracies.push_back(pr.accuracy);
    }
    std::sort(accuracies.begin(), accuracies.end()); // the mean below sums them smallest first
    out.accuracy_median = median(accuracies);
    out.accuracy_min = accuracies.front();
    for (double a : accuracies)
        out.accuracy_mean += a / count;
    out.rmse_gbs = std::sqrt(sse / count);
    out.r2 = sst > 0 ? 1 - sse / sst : (sse == 0 ? 1 : 0);
    return out;
}

CalibrationResult calibrate(const KernelFamily &family, const XModelParams &start,
                            const std::vector<std::string> &fit)
{
    if (fit.empty())
        throw InputError("no parameters to fit: name some of R, L, M, L_c");
    for (const std::string &key : fit) {
        if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
            throw InputError("cannot fit '" + key + "': the parameters to fit are R, L, M and L_c");
    }
    checkRows(family, start);
    if (family.rows.size() < fit.size())
        throw InputError(family.source + ": " + std::to_string(family.rows.size()) + " rows cannot fit "
                         + std::to_string(fit.size()) + " parameters; measure at least as many kernels");

    CalibrationSources sources;
    sources.family = family;
    JointCalibration joint;
    try {
        joint = calibrateJointly(sources, start, fit);
    } catch (const InputError &e) {
        if (std::string_view(e.what()).starts_with("the fit found no parameters"))
            throw InputError(family.source + ": the fit found no parameters that predict every row");
        throw;
    }
    CalibrationResult result;
    result.fitted = fit;
    result.starts = joint.starts;
    result.fit_rows = joint.sources.front().fit_rows;
    result.params = joint.params;
    result.at_bound = joint.at_bound;
    result.prediction = std::move(*joint.family);
    return result;
}

} // namespace crossroof::core
