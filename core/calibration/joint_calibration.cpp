// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/joint_calibration.h"

#include "core/calibration/calibration.h"
#include "core/calibration/calibration_rows.h"
#include "core/calibration/direct_settings.h"
#include "core/calibration/physical_bounds.h"
#include "core/support/error.h"
#include "core/support/statistics.h"
#include "core/support/least_squares.h"
#include "core/support/text.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/xmodel/xmodel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <tuple>

namespace crossroof::core {

namespace {

using detail::DirectMeasurement;
using detail::directMeasurements;
using detail::familyWorkload;
using detail::makeRow;
using detail::summarise;
using detail::parallelGbs;
using detail::parallelWorkload;
using detail::selectParallelRows;
using detail::streamGbs;
using detail::streamWorkload;

constexpr std::array<std::string_view, 6> kJointKeys {"R", "R_dram", "L", "M", "L_c", "L_2"};

/// The I-th point of the Halton sequence in DIMENSIONS dimensions (one prime base each): spread starts.
std::vector<double> haltonPoint(int index, std::size_t dimensions)
{
    constexpr std::array<int, 6> kBases {2, 3, 5, 7, 11, 13};
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

std::string at(const std::string &source, int line)
{
    return source + ":" + std::to_string(line) + ": ";
}

/// Runs FN (which builds a model) and names SOURCE:LINE in its error.
template<typename Fn>
void checkRow(const std::string &source, int line, Fn &&fn)
{
    try {
        fn();
    } catch (const InputError &e) {
        throw InputError(at(source, line) + e.what());
    }
}

/// A source's rows as the objective sees them.
struct Block {
    SourceKind kind;
    std::string source;
    double weight = 1;
    std::size_t rows = 0; ///< residuals in the fit: all the source's rows, or fit_rows' count
    std::size_t first = 0; ///< index of its first residual
    std::size_t set = 0; ///< kernels: the index in CalibrationSources::kernels
    std::vector<std::size_t> fit_rows; ///< family and kernels above kFitRowLimit: the rows the fit uses
};

/// Calls FN(i) for each row index of a block: its fit_rows, or 0..COUNT-1 when it has none.
template<typename Fn>
void forFitRows(const Block &b, std::size_t count, Fn &&fn)
{
    if (b.fit_rows.empty()) {
        for (std::size_t i = 0; i < count; ++i)
            fn(i);
    } else {
        for (std::size_t i : b.fit_rows)
            fn(i);
    }
}

/// kFitRowLimit indices of COUNT rows spread evenly over them in the order LESS sorts them (by workload), so
/// that the fit sees every part of the measured range; every row when there are no more than the limit.
template<typename Less>
std::vector<std::size_t> spreadRows(std::size_t count, Less &&less)
{
    if (count <= kFitRowLimit)
        return {};
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), less);
    std::vector<std::size_t> picked;
    picked.reserve(kFitRowLimit);
    for (std::size_t j = 0; j < kFitRowLimit; ++j)
        picked.push_back(order[(2 * j + 1) * count / (2 * kFitRowLimit)]);
    std::sort(picked.begin(), picked.end());
    return picked;
}

/// Predicts every row of every source for one machine, with the lean equilibrium scan (the fit's inner loop).
class Predictor
{
public:
    Predictor(const CalibrationSources &sources, std::vector<std::string> latencyKeys,
              std::vector<ParallelRow> parallelRows)
        : m_sources(sources)
        , m_latencyKeys(std::move(latencyKeys))
        , m_parallelRows(std::move(parallelRows))
    {
    }

    /// log(predicted / measured) of every row, in block order, times each block's scale.
    void residuals(const XModelParams &machine, const std::vector<Block> &blocks, Eigen::VectorXd &r) const
    {
        Eigen::Index i = 0;
        for (const Block &b : blocks) {
            const double scale = std::sqrt(b.weight / double(b.rows));
            const auto put = [&](double predicted, double measured) {
                r(i++) = scale * std::log(std::max(predicted, 1e-300) / measured);
            };
            switch (b.kind) {
            case SourceKind::Family: {
                // f(k) does not depend on n, Z or E: one shape serves every row.
                const std::vector<FamilyRow> &rows = m_sources.family->rows;
                const SupplyShape shape(familyWorkload(machine, rows.front()));
                forFitRows(b, rows.size(), [&](std::size_t j) {
                    const XModel model(familyWorkload(machine, rows[j]));
                    put(EquilibriumScan(model, shape).operatingGbs(), rows[j].gbs);
                });
                break;
            }
            case SourceKind::Stream:
                for (const StreamRow &row : m_sources.stream->rows)
                    put(streamGbs(machine, row.warps), row.gbs);
                break;
            case SourceKind::Latency:
                for (const DirectMeasurement &d : directMeasurements(*m_sources.latency)) {
                    if (std::find(m_latencyKeys.begin(), m_latencyKeys.end(), d.key) != m_latencyKeys.end())
                        put(machine.*(findParameter(d.key)->member), d.value);
                }
                break;
            case SourceKind::Kernels: {
                const std::vector<KernelSample> &kernels = m_sources.kernels[b.set].kernels;
                forFitRows(b, kernels.size(), [&](std::size_t j) {
                    const XModel model(kernelParams(machine, kernels[j].workload));
                    const SupplyShape shape(model.params());
                    put(model.dramGbs(EquilibriumScan(model, shape).operatingK()), kernels[j].measured_gbs);
                });
                break;
            }
            case SourceKind::Parallel:
                for (const ParallelRow &row : m_parallelRows)
                    put(parallelGbs(machine, row), row.gbs);
                break;
            case SourceKind::Cache: // footprint sweeps set keys: no block has their kind
            case SourceKind::L2Stream:
                break;
            }
        }
    }

private:
    const CalibrationSources &m_sources;
    std::vector<std::string> m_latencyKeys;
    std::vector<ParallelRow> m_parallelRows;
};

double weightOf(const CalibrationSources &sources, SourceKind kind, const std::string &source)
{
    const std::string file = std::filesystem::path(source).filename().string();
    double w = 1;
    bool own = false;
    for (const auto &[name, value] : sources.weights) {
        if (name == source || name == file) {
            w = value;
            own = true;
        } else if (!own && name == sourceKindName(kind)) {
            w = value;
        }
    }
    return w;
}

} // namespace

std::vector<std::string> jointCalibrationKeys()
{
    return {kJointKeys.begin(), kJointKeys.end()};
}

std::vector<std::string> parseJointFitList(std::string_view text)
{
    const std::string all = "R, R_dram, L, M, L_c and L_2";
    if (trimBlanks(text).empty())
        throw InputError("no parameters to fit: name some of " + all);
    std::vector<std::string> keys;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = std::min(text.find(',', begin), text.size());
        const std::string key(trimBlanks(text.substr(begin, comma - begin)));
        if (std::find(kJointKeys.begin(), kJointKeys.end(), key) == kJointKeys.end())
            throw InputError("cannot fit '" + key + "': the parameters to fit are " + all);
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            throw InputError("parameter '" + key + "' is listed twice");
        keys.push_back(key);
        if (comma == text.size())
            return keys;
        begin = comma + 1;
    }
}

std::string_view sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Family:
        return "family";
    case SourceKind::Stream:
        return "stream";
    case SourceKind::Latency:
        return "latency";
    case SourceKind::Kernels:
        return "kernels";
    case SourceKind::Parallel:
        return "parallel";
    case SourceKind::Cache:
        return "cache";
    case SourceKind::L2Stream:
        return "l2-stream";
    }
    return "family";
}

bool hasL2Traffic(const CalibrationSources &sources)
{
    // kernelParams() gives a kernel an L2 hit rate where the machine has an L2 latency.
    XModelParams withL2;
    withL2.L_2 = 1;
    for (const KernelSet &set : sources.kernels) {
        for (const KernelSample &k : set.kernels) {
            if (kernelParams(withL2, k.workload).h_2 > 1e-3)
                return true;
        }
    }
    return false;
}

std::vector<std::string> defaultJointKeys(const CalibrationSources &sources)
{
    // Footprint sweeps alone set what they measure and fit nothing.
    if (!sources.family && !sources.stream && !sources.latency && sources.kernels.empty() && !sources.parallel
        && !sources.levels.empty())
        return {};
    const bool dramMeasured = std::any_of(sources.levels.begin(), sources.levels.end(), [](const LevelMeasurements &m) {
        return std::any_of(m.settings.begin(), m.settings.end(), [](const LevelSetting &s) { return s.key == "R_dram"; });
    });
    std::vector<std::string> keys {"R"};
    if ((!sources.kernels.empty() || sources.parallel) && !dramMeasured)
        keys.emplace_back("R_dram");
    keys.insert(keys.end(), {"L", "M", "L_c"});
    const auto latencyBoundL2 = [&] {
        return sources.parallel
               && std::any_of(sources.parallel->rows.begin(), sources.parallel->rows.end(),
                              [&](const ParallelRow &row) {
                                  return row.level == ReadLevel::L2 && isLatencyBound(*sources.parallel, row);
                              });
    };
    if (hasL2Traffic(sources) || latencyBoundL2())
        keys.emplace_back("L_2");
    return keys;
}

JointCalibration calibrateJointly(const CalibrationSources &sources, const XModelParams &start,
                                  const std::vector<std::string> &fit)
{
    const bool rowSources = sources.family || sources.stream || sources.latency || !sources.kernels.empty()
                            || sources.parallel;
    if (fit.empty() && (rowSources || sources.levels.empty()))
        throw InputError("no parameters to fit: name some of R, R_dram, L, M, L_c and L_2");
    for (const std::string &key : fit) {
        if (std::count(fit.begin(), fit.end(), key) > 1)
            throw InputError("parameter '" + key + "' is listed twice");
        calibrationBounds(key); // throws for a key that cannot be fitted
    }
    if (!rowSources && sources.levels.empty())
        throw InputError("nothing to calibrate to: give a kernel family, a stream curve, a latency file, "
                         "kernels, parallel reads or a cache or l2-stream sweep");
    const auto fitted
            = [&](std::string_view key) { return std::find(fit.begin(), fit.end(), key) != fit.end(); };

    // The latency file: the keys it measures are rows of the objective where fitted, settings where not; the
    // footprint sweeps' levels are settings.
    JointCalibration result;
    XModelParams machine = start;
    const std::vector<std::string> latencyKeys = detail::applyDirectSettings(sources, fit, machine, result);
    if (fit.empty()) {
        result.params = machine;
        return result;
    }

    // Every row must run on the starting machine; the blocks of the objective, in order.
    std::vector<Block> blocks;
    std::size_t total = 0;
    const auto addBlock = [&](SourceKind kind, const std::string &source, std::size_t rows, std::size_t set,
                              std::vector<std::size_t> fitRows = {}) {
        const double w = weightOf(sources, kind, source);
        if (!(w >= 0) || !std::isfinite(w))
            throw InputError(source + ": the weight must be a number >= 0 (got " + formatNumber(w) + ")");
        if (!fitRows.empty())
            rows = fitRows.size();
        blocks.push_back({kind, source, w, rows, total, set, std::move(fitRows)});
        total += rows;
    };
    if (sources.family) {
        const KernelFamily &family = *sources.family;
        if (family.rows.empty())
            throw InputError(family.source + ": the kernel family has no rows");
        for (const FamilyRow &row : family.rows) {
            if (row.n > machine.max_warps)
                throw InputError(at(family.source, row.line) + "n = " + formatNumber(row.n)
                                 + " warps is more than the machine's max_warps = "
                                 + formatNumber(machine.max_warps));
            checkRow(family.source, row.line, [&] { validate(familyWorkload(machine, row)); });
        }
        const std::vector<FamilyRow> &rows = family.rows;
        addBlock(SourceKind::Family, family.source, rows.size(), 0,
                 spreadRows(rows.size(), [&](std::size_t a, std::size_t b) {
                     return std::tie(rows[a].n, rows[a].Z, rows[a].E) < std::tie(rows[b].n, rows[b].Z, rows[b].E);
                 }));
    }
    if (sources.stream) {
        for (const StreamRow &row : sources.stream->rows) {
            if (row.warps > machine.max_warps)
                throw InputError(
                        at(sources.stream->source, row.line) + "warps_per_sm = " + formatNumber(row.warps)
                        + " is more than the machine's max_warps = " + formatNumber(machine.max_warps));
            checkRow(sources.stream->source, row.line, [&] { validate(streamWorkload(machine, row.warps)); });
        }
        addBlock(SourceKind::Stream, sources.stream->source, sources.stream->rows.size(), 0);
    }
    if (sources.latency && !latencyKeys.empty())
        addBlock(SourceKind::Latency, sources.latency->source, latencyKeys.size(), 0);
    for (std::size_t s = 0; s < sources.kernels.size(); ++s) {
        const KernelSet &set = sources.kernels[s];
        for (const KernelSample &k : set.kernels)
            checkRow(set.source, k.line, [&] { validate(kernelParams(machine, k.workload)); });
        const std::vector<KernelSample> &kernels = set.kernels;
        addBlock(SourceKind::Kernels, set.source, kernels.size(), s,
                 spreadRows(kernels.size(), [&](std::size_t a, std::size_t b) {
                     return kernels[a].measured_gbs < kernels[b].measured_gbs;
                 }));
    }
    // Parallel reads: every dram row; of the l2 rows only the latency-bound ones (the X-model has no L2
    // bandwidth to predict the others with), and none where the machine has no L2 latency.
    std::vector<ParallelRow> parallelRows;
    std::vector<std::string> parallelSkipped;
    if (sources.parallel) {
        const ParallelReads &reads = *sources.parallel;
        std::tie(parallelRows, parallelSkipped) = selectParallelRows(reads, machine, machine.L_2 > 0 || fitted("L_2"));
        addBlock(SourceKind::Parallel, reads.source, parallelRows.size(), 0);
    }
    if (total < fit.size())
        throw InputError(std::to_string(total) + " measured values cannot fit " + std::to_string(fit.size())
                         + " parameters; measure more");

    const Eigen::Index dims = Eigen::Index(fit.size());
    std::vector<double XModelParams::*> members;
    Eigen::VectorXd lower(dims), upper(dims), initial(dims);
    std::vector<KeyRange> ranges;
    for (Eigen::Index i = 0; i < dims; ++i) {
        // The slider's range within what the machine makes physical (a DRAM no faster than its peak, ...).
        ranges.push_back(physicalRange(fit[std::size_t(i)], machine, fit));
        lower(i) = ranges.back().lo;
        upper(i) = ranges.back().hi;
        members.push_back(findParameter(fit[std::size_t(i)])->member);
        const double given = machine.*(members.back());
        // A key that is off (R_dram, L_2 = 0) starts in the middle of its range, in log scale.
        initial(i) = given > 0 ? std::clamp(given, lower(i), upper(i)) : std::sqrt(lower(i) * upper(i));
    }
    const auto machineAt = [&](const Eigen::VectorXd &values) {
        XModelParams p = machine;
        for (Eigen::Index i = 0; i < dims; ++i)
            p.*(members[std::size_t(i)]) = values(i);
        return p;
    };
    const Predictor predictor(sources, latencyKeys, parallelRows);
    LeastSquaresProblem problem;
    problem.residual_count = Eigen::Index(total);
    problem.residuals = [&](const Eigen::VectorXd &values, Eigen::VectorXd &r) {
        predictor.residuals(machineAt(values), blocks, r);
    };
    for (Eigen::Index i = 0; i < dims; ++i)
        problem.ranges.push_back({lower(i), upper(i), true});

    // The given values first, then points spread over the box (in log scale). Every start runs a short
    // while; the best of them runs to convergence.
    std::vector<Eigen::VectorXd> starts {initial};
    constexpr int kSpreadStarts = 8;
    for (int s = 1; s <= kSpreadStarts; ++s) {
        const std::vector<double> h = haltonPoint(s, std::size_t(dims));
        Eigen::VectorXd point(dims);
        for (Eigen::Index i = 0; i < dims; ++i)
            point(i) = lower(i) * std::pow(upper(i) / lower(i), 0.1 + 0.8 * h[std::size_t(i)]);
        starts.push_back(point);
    }
    LeastSquaresOptions scout;
    scout.max_evaluations = 40;
    LeastSquaresOptions polish;
    polish.max_evaluations = 400;
    LeastSquaresResult best;
    try {
        const LeastSquaresResult first = fitLeastSquares(problem, starts, scout);
        best = fitLeastSquares(problem, std::vector<Eigen::VectorXd> {first.parameters}, polish);
    } catch (const InputError &) {
        throw InputError("the fit found no parameters that predict every measured value");
    }

    result.fitted = fit;
    result.starts = int(starts.size());

    // A key that no prediction depends on at the fit (R, the request bandwidth, far above the byte bandwidth
    // R_dram that then limits every read), or whose move by a factor of 2 changes the cost by less than the
    // fit's noise, is not determined by the measurements; the fit leaves it wherever its starts wandered. Of
    // the values that predict the same (within the noise), keep the one nearest its start value.
    Eigen::VectorXd scratch = Eigen::VectorXd::Zero(Eigen::Index(total));
    const auto costAt = [&](const Eigen::VectorXd &values) {
        predictor.residuals(machineAt(values), blocks, scratch);
        return scratch.squaredNorm();
    };
    const double bestCost = costAt(best.parameters);
    // One standard deviation's worth of the cost: what a key's error bar lets it change.
    const double noise = bestCost / double(std::max<Eigen::Index>(1, Eigen::Index(total) - dims));
    double tolerance = 1e-9 * std::max(bestCost, 1e-12);
    const auto predictsTheSame = [&](const Eigen::VectorXd &values) {
        return std::abs(costAt(values) - bestCost) <= tolerance;
    };
    const auto keepNearestStart = [&](Eigen::Index i, KeyOrigin &origin) {
        origin.undetermined = true;
        origin.free_upward = best.parameters(i) >= initial(i);
        Eigen::VectorXd at = best.parameters;
        at(i) = initial(i);
        if (predictsTheSame(at)) {
            best.parameters(i) = initial(i);
            return;
        }
        // Bisect in log(key) between the start (predicts otherwise) and the fit (predicts the same).
        double differs = std::log(initial(i)), same = std::log(best.parameters(i));
        for (int step = 0; step < 60 && std::abs(same - differs) > 1e-7; ++step) {
            at(i) = std::exp(0.5 * (differs + same));
            (predictsTheSame(at) ? same : differs) = std::log(at(i));
        }
        best.parameters(i) = std::exp(same);
    };

    // Which source determines which key: each block's share of sum (d r_i / d log key)^2.
    Eigen::VectorXd up = Eigen::VectorXd::Zero(Eigen::Index(total));
    Eigen::VectorXd down = up;
    for (Eigen::Index i = 0; i < dims; ++i) {
        constexpr double kStep = 1e-4;
        Eigen::VectorXd hi = best.parameters, lo = best.parameters;
        hi(i) = std::min(upper(i), best.parameters(i) * std::exp(kStep));
        lo(i) = std::max(lower(i), best.parameters(i) * std::exp(-kStep));
        predictor.residuals(machineAt(hi), blocks, up);
        predictor.residuals(machineAt(lo), blocks, down);
        const Eigen::VectorXd d = (up - down) / std::log(hi(i) / lo(i));
        KeyOrigin origin;
        origin.key = fit[std::size_t(i)];
        double sum = 0;
        std::vector<double> parts;
        for (const Block &b : blocks) {
            parts.push_back(d.segment(Eigen::Index(b.first), Eigen::Index(b.rows)).squaredNorm());
            sum += parts.back();
        }
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            if (sum > 0 && parts[b] / sum >= 1e-3)
                origin.shares.emplace_back(b, parts[b] / sum);
        }
        std::sort(origin.shares.begin(), origin.shares.end(),
                  [](const auto &a, const auto &b) { return a.second > b.second; });
        if (origin.shares.empty()) {
            tolerance = 1e-9 * std::max(bestCost, 1e-12);
            keepNearestStart(i, origin);
        } else if (!determinedWithin(best.parameters(i), ranges[std::size_t(i)], bestCost, noise, [&](double v) {
                       Eigen::VectorXd at = best.parameters;
                       at(i) = v;
                       return costAt(at);
                   })) {
            tolerance = noise;
            keepNearestStart(i, origin);
            origin.within_noise = true;
        }
        result.origins.push_back(std::move(origin));
    }
    result.params = machineAt(best.parameters);
    for (Eigen::Index i = 0; i < dims; ++i) {
        const double v = best.parameters(i);
        const bool atLow = std::log(v / lower(i)) < 1e-4;
        const bool atHigh = std::log(upper(i) / v) < 1e-4;
        if (atLow || atHigh)
            result.at_bound.push_back(fit[std::size_t(i)]);
        const std::string &why = atHigh ? ranges[std::size_t(i)].hi_why : ranges[std::size_t(i)].lo_why;
        if ((atLow || atHigh) && !why.empty() && !result.origins[std::size_t(i)].undetermined) {
            result.origins[std::size_t(i)].bound = why;
            result.notes.push_back(fit[std::size_t(i)] + " = " + formatNumber(v) + " is held at " + why
                                   + "; the measurements would take it " + (atHigh ? "higher" : "lower"));
        }
    }
    if (result.params.L < result.params.L_2) {
        result.notes.push_back("L = " + formatNumber(result.params.L) + " cycles is below L_2 = "
                               + formatNumber(result.params.L_2) + ": memory would answer faster than the L2");
    }

    // The report, with the full solve() behind predictFamily() and `crossroof-cli kernels`.
    const XModelParams &p = result.params;
    for (const Block &b : blocks) {
        SourceReport report;
        report.kind = b.kind;
        report.source = b.source;
        report.weight = b.weight;
        report.fit_rows = b.rows;
        report.unit = b.kind == SourceKind::Latency ? "cycles" : "GB/s";
        switch (b.kind) {
        case SourceKind::Family:
            result.family = predictFamily(*sources.family, p);
            for (const RowPrediction &r : result.family->rows) {
                report.rows.push_back(makeRow("n=" + formatNumber(r.row.n) + " Z=" + formatNumber(r.row.Z)
                                                      + " E=" + formatNumber(r.row.E),
                                              r.row.line, r.row.gbs, r.predicted_gbs));
            }
            break;
        case SourceKind::Stream:
            for (const StreamRow &r : sources.stream->rows)
                report.rows.push_back(
                        makeRow(formatNumber(r.warps) + " warps", r.line, r.gbs, streamGbs(p, r.warps)));
            break;
        case SourceKind::Latency:
            for (const DirectMeasurement &d : directMeasurements(*sources.latency)) {
                if (std::find(latencyKeys.begin(), latencyKeys.end(), d.key) != latencyKeys.end())
                    report.rows.push_back(makeRow(d.key + ": " + d.how, d.line, d.value,
                                                  p.*(findParameter(d.key)->member)));
            }
            break;
        case SourceKind::Kernels: {
            const KernelSet &set = sources.kernels[b.set];
            for (const KernelSample &k : set.kernels) {
                const double predicted
                        = XModel(kernelParams(p, k.workload)).operatingPoint().dram_gbs;
                report.rows.push_back(makeRow(k.id + " " + k.name, k.line, k.measured_gbs, predicted));
            }
            report.skipped = set.skipped;
            break;
        }
        case SourceKind::Parallel:
            for (const ParallelRow &row : parallelRows)
                report.rows.push_back(makeRow(row.label(), row.line, row.gbs, parallelGbs(p, row)));
            report.skipped = parallelSkipped;
            break;
        case SourceKind::Cache: // footprint sweeps set keys: no block has their kind
        case SourceKind::L2Stream:
            break;
        }
        std::vector<double> logs;
        for (const SourceRow &r : report.rows)
            logs.push_back(std::log(std::max(r.predicted, 1e-300) / r.measured));
        summarise(report, logs);
        result.cost += report.cost;
        result.sources.push_back(std::move(report));
    }
    return result;
}

} // namespace crossroof::core
