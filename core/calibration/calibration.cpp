// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/calibration.h"

#include "core/support/error.h"
#include "core/support/least_squares.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

namespace crossroof::core {

namespace {

constexpr std::array<std::string_view, 4> kKeys{"R", "L", "M", "L_c"};

/// The I-th point of the Halton sequence in DIMENSIONS dimensions (bases 2, 3, 5, 7): spread starting points.
std::vector<double> haltonPoint(int index, std::size_t dimensions)
{
    constexpr std::array<int, 4> kBases{2, 3, 5, 7};
    std::vector<double> point(dimensions);
    for (std::size_t d = 0; d < dimensions; ++d) {
        double f = 1, value = 0;
        for (int i = index; i > 0; i /= kBases[d]) {
            f /= kBases[d];
            value += f * (i % kBases[d]);
        }
        point[d] = value;
    }
    return point;
}

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
            throw InputError(where + "n = " + formatNumber(row.n) + " warps is more than the machine's max_warps = "
                             + formatNumber(machine.max_warps));
        try {
            validate(workloadOf(machine, row));
        } catch (const InputError &e) {
            throw InputError(where + e.what());
        }
    }
}

double predictedGbs(const XModelParams &machine, const FamilyRow &row)
{
    return XModel(workloadOf(machine, row)).solve().operatingPoint().ms_gbs;
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
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
        throw InputError("cannot fit '" + std::string(key) + "': the parameters to fit are R, L, M and L_c");
    const ParameterInfo *info = findParameter(key);
    return {info->slider_min, info->slider_max};
}

FamilyPrediction predictFamily(const KernelFamily &family, const XModelParams &machine)
{
    checkRows(family, machine);
    FamilyPrediction out;
    out.rows.reserve(family.rows.size());
    double sse = 0, mean = 0;
    for (const FamilyRow &row : family.rows) {
        const XModelParams p = workloadOf(machine, row);
        const Equilibrium eq = XModel(p).solve().operatingPoint();
        RowPrediction pr;
        pr.row = row;
        pr.predicted_gbs = eq.ms_gbs;
        pr.predicted_gops = eq.cs_gops;
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
    std::sort(accuracies.begin(), accuracies.end());
    const std::size_t mid = accuracies.size() / 2;
    out.accuracy_median = accuracies.size() % 2 ? accuracies[mid] : (accuracies[mid - 1] + accuracies[mid]) / 2;
    out.accuracy_min = accuracies.front();
    for (double a : accuracies)
        out.accuracy_mean += a / count;
    out.rmse_gbs = std::sqrt(sse / count);
    out.r2 = sst > 0 ? 1 - sse / sst : (sse == 0 ? 1 : 0);
    return out;
}

CalibrationResult calibrate(const KernelFamily &family, const XModelParams &start, const std::vector<std::string> &fit)
{
    if (fit.empty())
        throw InputError("no parameters to fit: name some of R, L, M, L_c");
    checkRows(family, start);
    if (family.rows.size() < fit.size())
        throw InputError(family.source + ": " + std::to_string(family.rows.size()) + " rows cannot fit "
                         + std::to_string(fit.size()) + " parameters; measure at least as many kernels");

    const Eigen::Index dims = Eigen::Index(fit.size());
    std::vector<double XModelParams::*> members;
    Eigen::VectorXd lower(dims), upper(dims), initial(dims);
    for (Eigen::Index i = 0; i < dims; ++i) {
        if (std::count(fit.begin(), fit.end(), fit[std::size_t(i)]) > 1)
            throw InputError("parameter '" + fit[std::size_t(i)] + "' is listed twice");
        std::tie(lower(i), upper(i)) = calibrationBounds(fit[std::size_t(i)]);
        const ParameterInfo *info = findParameter(fit[std::size_t(i)]);
        members.push_back(info->member);
        initial(i) = std::clamp(start.*(info->member), lower(i), upper(i));
    }
    const auto machineAt = [&](const Eigen::VectorXd &values) {
        XModelParams p = start;
        for (Eigen::Index i = 0; i < dims; ++i)
            p.*(members[std::size_t(i)]) = values(i);
        return p;
    };
    const auto residuals = [&](const Eigen::VectorXd &values, Eigen::VectorXd &r) {
        const XModelParams machine = machineAt(values);
        for (std::size_t j = 0; j < family.rows.size(); ++j)
            r(Eigen::Index(j)) = std::log(predictedGbs(machine, family.rows[j]) / family.rows[j].gbs);
    };

    // The given values first, then points spread over the box (in log scale).
    std::vector<Eigen::VectorXd> starts{initial};
    constexpr int kSpreadStarts = 8;
    for (int s = 1; s <= kSpreadStarts; ++s) {
        const std::vector<double> h = haltonPoint(s, std::size_t(dims));
        Eigen::VectorXd point(dims);
        for (Eigen::Index i = 0; i < dims; ++i)
            point(i) = lower(i) * std::pow(upper(i) / lower(i), 0.1 + 0.8 * h[std::size_t(i)]);
        starts.push_back(point);
    }
    LeastSquaresProblem problem;
    problem.residual_count = Eigen::Index(family.rows.size());
    problem.residuals = residuals;
    for (Eigen::Index i = 0; i < dims; ++i)
        problem.ranges.push_back({lower(i), upper(i), true});
    LeastSquaresOptions options;
    options.max_evaluations = 400;
    LeastSquaresResult best;
    try {
        best = fitLeastSquares(problem, starts, options);
    } catch (const InputError &) {
        throw InputError(family.source + ": the fit found no parameters that predict every row");
    }

    CalibrationResult result;
    result.fitted = fit;
    result.starts = int(starts.size());
    result.params = machineAt(best.parameters);
    for (Eigen::Index i = 0; i < dims; ++i) {
        const double v = best.parameters(i);
        if (std::log(v / lower(i)) < 1e-4 || std::log(upper(i) / v) < 1e-4)
            result.at_bound.push_back(fit[std::size_t(i)]);
    }
    result.prediction = predictFamily(family, result.params);
    return result;
}

} // namespace crossroof::core
