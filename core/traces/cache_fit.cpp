// SPDX-License-Identifier: GPL-3.0-or-later
// The cache fits of trace_fit.h: fixed, locality and two-level f(k) against one or several measured traces,
// within physical bounds, with held keys, standard errors and the warnings of a degenerate result.
#include "core/traces/trace_fit.h"

#include "core/support/error.h"
#include "core/support/least_squares.h"
#include "core/support/text.h"
#include "core/traces/trace_fit_detail.h"
#include "core/xmodel/xmodel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace crossroof::core {

namespace {

using detail::checkPoints;
using detail::coefficientOfDetermination;

/// A fitted X-model parameter: its key, where it lives in XModelParams, its range and, for a per-trace key,
/// the trace it belongs to.
struct Fitted
{
    const char *key;
    double XModelParams::*member;
    ParameterRange range;
    int trace = -1;
};

/// The least latency a fit gives a cache level: one cycle (MODEL.md 5, physical bounds).
constexpr double kLeastLatency = 1;

/// The least footprint of one warp: one request of the machine's size, in KiB.
double leastBeta(const XModelParams &p)
{
    return p.request_bytes > 0 ? std::max(1e-6, p.request_bytes / 1024) : 1e-6;
}

/// The most bandwidth a fitted R or R_dram may take: the machine's fastest level (R_l1) when it has one.
double mostBandwidth(const XModelParams &p)
{
    const ParameterInfo &r = *findParameter("R");
    return p.R_l1 > r.min ? std::min(p.R_l1, r.max) : r.max;
}

/// Keys, ranges and starting points of the two-level fit (MODEL.md 1.3): everything that shapes f except S_s
/// (only S_s/beta enters f, so beta carries the L1 collapse) and the device shape. S_2 is searched above S_s
/// (an L2 no larger than the L1 never serves a hit). Starts come from the data: the first slope gives L_s,
/// the largest k and throughput place the collapses and the plateau.
void twoLevelSetup(double kMax, double yMax, double perWarp, const XModelParams &machine,
                   std::vector<Fitted> &bounded, std::vector<std::vector<double>> &starts)
{
    if (!(machine.S_s > 0)) {
        throw InputError("cache fit: two-level mode needs a first-level cache, S_s > 0 (got "
                         + formatNumber(machine.S_s) + ")");
    }
    const ParameterInfo &ls = *findParameter("L_s");
    const ParameterInfo &l = *findParameter("L");
    const ParameterInfo &r = *findParameter("R");
    const XModelParams &p = machine;
    const double lsStart = std::clamp(p.gbsPerRequestRate() / perWarp, kLeastLatency, ls.max);
    const double s2Max = std::min(1e4 * p.S_s, findParameter("S_2")->max);
    const double s2Min = std::min(p.S_s, s2Max / 2);
    const double rMax = mostBandwidth(p);

    // L is fitted too, so L_s may take its whole range.
    bounded.front().range = {kLeastLatency, ls.max, true};
    // Memory is never faster than the machine's L2 (L from its L_2). L_2 is searched from 0.01 cycles: a floor
    // at the L1's latency leaves the search on worse minima (the H100 8 KiB curve: r^2 0.88 against 0.90 with
    // the same optimum feasible); an L_2 that ends below L_s is reported instead (addWarnings).
    bounded.push_back({"L_2", &XModelParams::L_2, {ls.min, ls.max, true}});
    bounded.push_back({"L", &XModelParams::L, {std::clamp(p.L_2, l.min, l.max / 2), l.max, true}});
    bounded.push_back({"R", &XModelParams::R, {r.min, rMax, true}});
    bounded.push_back({"R_dram", &XModelParams::R_dram, {r.min, rMax, true}});
    bounded.push_back({"R_l2", &XModelParams::R_l2, {r.min, rMax, true}});
    bounded.push_back({"beta", &XModelParams::beta, {leastBeta(p), 1e6, true}});
    bounded.push_back({"S_2", &XModelParams::S_2, {s2Min, s2Max, true}});
    bounded.push_back({"alpha", &XModelParams::alpha, {1, 100, false}});
    bounded.push_back({"alpha_2", &XModelParams::alpha_2, {1, 100, false}});
    starts.front() = {lsStart};
    starts.push_back({4 * lsStart});
    starts.push_back({std::max(p.L, 10 * lsStart)});
    starts.push_back({0.7 * yMax, std::max(p.R, 1.5 * yMax)}); // the queue past the L1 binding, or not
    starts.push_back({0.9 * yMax, 1.5 * yMax}); // the plateau in reach of the data, or out of it
    starts.push_back({0.8 * yMax, 3 * yMax});   // the L2's hits queueing within the data, or not
    // The L1 collapse at a third, half or two thirds of the largest k; the L2 one 1.5 to 4 times later.
    std::vector<double> betas;
    for (double f : {0.3, 0.5, 0.7})
        betas.push_back(std::clamp(p.S_s / (f * kMax), 1e-5, 1e5));
    starts.push_back(betas);
    starts.push_back({1.5 * p.S_s, 2.5 * p.S_s, 4 * p.S_s});
    starts.push_back({4, 16, 48});
    starts.push_back({4, 16, 48});
}

/// LIMIT points of (K, Y) spread evenly over them in order of k, appended to KOUT and YOUT; every point when
/// there are no more.
void spreadPoints(std::span<const double> k, std::span<const double> y, std::size_t limit, std::vector<double> &kOut,
                  std::vector<double> &yOut)
{
    const std::size_t n = k.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    if (n > limit) {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return k[a] < k[b]; });
        std::vector<std::size_t> picked(limit);
        for (std::size_t j = 0; j < limit; ++j)
            picked[j] = order[(2 * j + 1) * n / (2 * limit)];
        std::sort(picked.begin(), picked.end());
        order = std::move(picked);
    }
    for (std::size_t i : order) {
        kOut.push_back(k[i]);
        yOut.push_back(y[i]);
    }
}

/// Standard errors of THETA (inside RANGES) for residuals R over N points from the Jacobian at THETA:
/// sqrt(diag(s^2 (J^T J)^-1)), s^2 = SSE/(n - p), through the SVD of J with its columns scaled to unit norm;
/// infinity for a parameter that moves no residual or lies along a direction J does not see.
std::vector<double> standardErrors(const std::function<void(const Eigen::VectorXd &, Eigen::VectorXd &)> &r,
                                   Eigen::Index n, const Eigen::VectorXd &theta,
                                   const std::vector<ParameterRange> &ranges, double sse)
{
    const Eigen::Index p = theta.size();
    Eigen::MatrixXd jac(n, p);
    Eigen::VectorXd up(n), down(n);
    for (Eigen::Index j = 0; j < p; ++j) {
        const ParameterRange &range = ranges[std::size_t(j)];
        const double h = 1e-5 * std::max(std::abs(theta(j)), 1e-3 * (range.hi - range.lo));
        Eigen::VectorXd hi = theta, lo = theta;
        hi(j) = std::min(theta(j) + h, range.hi);
        lo(j) = std::max(theta(j) - h, range.lo);
        r(hi, up);
        r(lo, down);
        jac.col(j) = (up - down) / (hi(j) - lo(j));
    }
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> sigma(std::size_t(p), inf);
    if (!jac.allFinite())
        return sigma;
    Eigen::VectorXd norms = jac.colwise().norm().transpose();
    for (Eigen::Index j = 0; j < p; ++j) {
        if (norms(j) > 0)
            jac.col(j) /= norms(j);
    }
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(jac, Eigen::ComputeThinV);
    const Eigen::VectorXd &s = svd.singularValues();
    const Eigen::MatrixXd &v = svd.matrixV();
    const double s2 = sse / double(std::max<Eigen::Index>(1, n - p));
    const double floor = 1e-9 * (s.size() > 0 ? s(0) : 0);
    for (Eigen::Index j = 0; j < p; ++j) {
        if (!(norms(j) > 0))
            continue;
        double var = 0;
        bool seen = true;
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            if (s(i) > floor)
                var += v(j, i) * v(j, i) / (s(i) * s(i));
            else if (std::abs(v(j, i)) > 1e-3)
                seen = false;
        }
        if (seen)
            sigma[std::size_t(j)] = std::sqrt(s2 * var) / norms(j);
    }
    return sigma;
}

std::string modeName(CacheMode mode)
{
    return mode == CacheMode::Fixed ? "fixed" : mode == CacheMode::Locality ? "locality" : "two-level";
}

/// The sentences of CacheFit::warnings for FIT, made against MACHINE.
void addWarnings(CacheFit &fit, const XModelParams &machine, const std::vector<std::string> &hold)
{
    const auto held = [&hold](const char *key) { return std::find(hold.begin(), hold.end(), key) != hold.end(); };
    for (const FittedParameter &f : fit.parameters) {
        if (f.held)
            continue;
        const std::string name = f.trace >= 0 ? f.key + " of trace " + std::to_string(f.trace + 1) : f.key;
        if (f.at_bound) {
            fit.warnings.push_back(name + " = " + formatNumber(f.value) + " ended on a bound of its range ["
                                   + formatNumber(f.lo) + ", " + formatNumber(f.hi)
                                   + "]: the data push the model past what it can describe");
        } else if (!f.determined) {
            fit.warnings.push_back("the data do not determine " + name + " (" + formatNumber(f.value)
                                   + (std::isfinite(f.sigma) ? " +- " + formatNumber(f.sigma) : " +- any amount")
                                   + "): hold it at a measured value");
        }
    }
    const XModelParams &p = fit.params;
    // A fitted latency far from the profile's (a pointer chase measures it unloaded): where k counts every warp
    // on the SM, the fit's latency includes the work between requests (MODEL.md 5).
    for (const auto &entry : {std::pair {"L_s", &XModelParams::L_s}, std::pair {"L_2", &XModelParams::L_2}}) {
        const std::string key = entry.first;
        const auto member = entry.second;
        const double was = machine.*member;
        const double now = p.*member;
        const bool fitted = std::any_of(fit.parameters.begin(), fit.parameters.end(),
                                        [&](const FittedParameter &f) { return f.key == key && !f.held; });
        if (fitted && was > 0 && (now > 2 * was || now < was / 2)) {
            fit.warnings.push_back(std::string(key) + " = " + formatNumber(now) + " cycles is "
                                   + formatNumber(std::round(now / was * 10) / 10) + " times the profile's " + formatNumber(was)
                                   + ": if k counts every warp on the SM, the fitted latency includes the work "
                                     "between requests; hold " + key + " to keep the measured one");
        }
    }
    if (fit.mode != CacheMode::TwoLevel)
        return;
    if (p.L_2 < p.L_s) {
        fit.warnings.push_back("L_2 = " + formatNumber(p.L_2) + " cycles is below L_s = " + formatNumber(p.L_s)
                               + ": the L2 would answer faster than the L1");
    }
    if (p.L < p.L_2) {
        fit.warnings.push_back("L = " + formatNumber(p.L) + " cycles is below L_2 = " + formatNumber(p.L_2)
                               + ": memory would answer faster than the L2");
    }
    if (machine.R_dram > 0 && p.R_dram > machine.R_dram && !held("R_dram")) {
        fit.warnings.push_back("the plateau R_dram = " + formatNumber(p.R_dram)
                               + " GB/s is above the profile's DRAM peak " + formatNumber(machine.R_dram)
                               + " GB/s: the curve's top is served by the caches (the two-level f(k) caps every "
                                 "request); hold R_dram to keep the DRAM peak");
    }
}

} // namespace

std::vector<std::string> cacheFitKeys(CacheMode mode)
{
    switch (mode) {
    case CacheMode::None:
        return {};
    case CacheMode::Fixed:
        return {"L_s", "h"};
    case CacheMode::Locality:
        return {"L_s", "alpha", "beta"};
    case CacheMode::TwoLevel:
        return {"L_s", "L_2", "L", "R", "R_dram", "R_l2", "beta", "S_2", "alpha", "alpha_2"};
    }
    return {};
}

CacheFit fitCacheModel(std::span<const double> k, std::span<const double> gbs, const XModelParams &machine,
                       CacheMode mode, std::size_t pointLimit)
{
    const FitTrace trace {k, gbs, {}};
    CacheFitOptions options;
    options.point_limit = pointLimit;
    return fitCacheModel(std::span(&trace, 1), machine, mode, options);
}

CacheFit fitCacheModel(std::span<const FitTrace> traces, const XModelParams &machine, CacheMode mode,
                       const CacheFitOptions &options)
{
    if (traces.empty())
        throw InputError("cache fit: no trace to fit");
    double kMax = 1e-3, yMax = 0, perWarp = 0;
    for (std::size_t t = 0; t < traces.size(); ++t) {
        const std::string what = traces.size() > 1 ? "cache fit, trace " + std::to_string(t + 1)
                                                             + (traces[t].name.empty() ? "" : " (" + traces[t].name + ")")
                                                   : "cache fit";
        checkPoints(traces[t].k, traces[t].gbs, what.c_str());
        kMax = std::max(kMax, *std::max_element(traces[t].k.begin(), traces[t].k.end()));
        yMax = std::max(yMax, *std::max_element(traces[t].gbs.begin(), traces[t].gbs.end()));
        for (std::size_t i = 0; i < traces[t].k.size(); ++i) {
            if (traces[t].k[i] > 0)
                perWarp = std::max(perWarp, traces[t].gbs[i] / traces[t].k[i]);
        }
    }
    std::size_t pointLimit = options.point_limit;
    if (pointLimit == 0)
        pointLimit = mode == CacheMode::TwoLevel ? kTwoLevelFitPointLimit : kCacheFitPointLimit;
    if (pointLimit < 11) {
        throw InputError("cache fit: the point limit must be at least 11, one more than the most parameters a fit "
                         "has (got " + std::to_string(pointLimit) + ")");
    }
    validate(machine);
    const double lsMax = std::min(machine.L, findParameter("L_s")->max);
    const double lsMin = std::min(kLeastLatency, lsMax / 2);
    std::vector<Fitted> bounded {{"L_s", &XModelParams::L_s, {lsMin, lsMax, true}}};
    // Starting points, in parameter units; every combination is tried.
    std::vector<std::vector<double>> starts {{machine.L / 20, machine.L / 5, machine.L / 2}};
    switch (mode) {
    case CacheMode::None:
        throw InputError("cache fit: mode 'none' has no cache parameters to fit (use the roofline fit)");
    case CacheMode::Fixed:
        bounded.push_back({"h", &XModelParams::h, {0, 1, false}});
        starts.push_back({0.1, 0.4, 0.7, 0.9});
        break;
    case CacheMode::Locality: {
        if (!(machine.S_s > 0))
            throw InputError("cache fit: locality mode needs a shared cache, S_s > 0 (got "
                             + formatNumber(machine.S_s) + ")");
        bounded.push_back({"alpha", &XModelParams::alpha, {1, 100, false}});
        bounded.push_back({"beta", &XModelParams::beta, {leastBeta(machine), 1e6, true}});
        starts.push_back({1.5, 3, 6});
        std::vector<double> betas;
        for (double f : {0.02, 0.1, 0.5, 2.0})
            betas.push_back(std::clamp(machine.S_s / kMax / f, 1e-5, 1e5));
        starts.push_back(betas);
        break;
    }
    case CacheMode::TwoLevel:
        if (!(yMax > 0))
            throw InputError("cache fit: no positive throughput to fit");
        twoLevelSetup(kMax, yMax, perWarp, machine, bounded, starts);
        break;
    }

    // Held keys leave the fit at the machine's values.
    const std::vector<std::string> keys = cacheFitKeys(mode);
    for (const std::string &key : options.hold) {
        if (!findParameter(key)) {
            std::string list;
            for (const std::string &k : keys)
                list += (list.empty() ? "" : ", ") + k;
            throw InputError("cannot hold '" + key + "': it is no parameter (the " + modeName(mode) + " fit fits "
                             + list + ")");
        }
    }
    const auto isHeld = [&](const std::string &key) {
        return std::find(options.hold.begin(), options.hold.end(), key) != options.hold.end();
    };
    std::vector<Fitted> free;
    std::vector<std::vector<double>> freeStarts;
    for (std::size_t i = 0; i < bounded.size(); ++i) {
        if (!isHeld(bounded[i].key)) {
            free.push_back(bounded[i]);
            freeStarts.push_back(starts[i]);
        }
    }
    if (free.empty())
        throw InputError("cache fit: every key the " + modeName(mode) + " fit fits is held: nothing is left to fit");
    // Several traces: beta, the footprint of a warp, is each trace's own; the rest is the machine's.
    const std::size_t shared = free.size();
    const auto betaAt = std::find_if(free.begin(), free.end(), [](const Fitted &f) { return f.member == &XModelParams::beta; });
    const std::ptrdiff_t betaIndex = betaAt == free.end() ? -1 : betaAt - free.begin();
    if (betaIndex >= 0 && traces.size() > 1) {
        free[std::size_t(betaIndex)].trace = 0;
        for (std::size_t t = 1; t < traces.size(); ++t) {
            Fitted f = free[std::size_t(betaIndex)];
            f.trace = int(t);
            free.push_back(f);
        }
    }

    std::size_t totalPoints = 0;
    for (const FitTrace &t : traces)
        totalPoints += t.k.size();
    if (totalPoints < free.size() + 1) {
        throw InputError("cache fit: needs at least " + std::to_string(free.size() + 1) + " points for "
                         + std::to_string(free.size()) + " parameters (got " + std::to_string(totalPoints) + ")");
    }
    XModelParams base = machine;
    base.cache = mode;
    // The fit evaluates the analytic curve it names: a measured f(k) standing in for the supply (MACHINE's
    // measured_f) would be "the model" whatever the parameters, so every start would fit the measured curve.
    base.measured_f.reset();
    const auto paramsAt = [&](const Eigen::VectorXd &theta, int trace) {
        XModelParams p = base;
        for (std::size_t i = 0; i < free.size(); ++i) {
            if (free[i].trace < 0 || free[i].trace == trace)
                p.*(free[i].member) = theta(Eigen::Index(i));
        }
        return p;
    };
    // The points the fit iterates on, trace after trace, each trace's limited to the mode's limit.
    std::vector<double> fitK, fitY;
    std::vector<std::size_t> fitEnd; // one past each trace's last point in fitK
    for (const FitTrace &t : traces) {
        spreadPoints(t.k, t.gbs, pointLimit, fitK, fitY);
        fitEnd.push_back(fitK.size());
    }
    // Residuals of (KS, YS) whose traces end at ENDS.
    const auto residualsAt = [&](std::span<const double> ks, std::span<const double> ys,
                                 const std::vector<std::size_t> &ends, const Eigen::VectorXd &theta,
                                 Eigen::VectorXd &r) {
        std::size_t begin = 0;
        for (std::size_t t = 0; t < ends.size(); ++t) {
            const XModel model(paramsAt(theta, int(t)));
            for (std::size_t i = begin; i < ends[t]; ++i)
                r(Eigen::Index(i)) = model.toGbs(model.msSupply(ks[i])) - ys[i];
            begin = ends[t];
        }
    };
    LeastSquaresProblem problem;
    problem.residual_count = Eigen::Index(fitK.size());
    problem.residuals = [&](const Eigen::VectorXd &theta, Eigen::VectorXd &r) {
        residualsAt(fitK, fitY, fitEnd, theta, r);
    };
    for (const Fitted &f : free)
        problem.ranges.push_back(f.range);

    // Every combination of the starting values of the shared keys; the other traces' betas start where the
    // first trace's does, scaled by their largest k.
    std::vector<double> betaScale(traces.size(), 1.0);
    for (std::size_t t = 0; t < traces.size(); ++t)
        betaScale[t] = *std::max_element(traces[0].k.begin(), traces[0].k.end())
                       / std::max(*std::max_element(traces[t].k.begin(), traces[t].k.end()), 1e-3);
    std::vector<Eigen::VectorXd> points;
    std::vector<std::size_t> index(freeStarts.size(), 0);
    while (true) {
        Eigen::VectorXd theta(Eigen::Index(free.size()));
        for (std::size_t i = 0; i < shared; ++i)
            theta(Eigen::Index(i)) = freeStarts[i][index[i]];
        for (std::size_t i = shared; i < free.size(); ++i)
            theta(Eigen::Index(i)) = theta(betaIndex) * betaScale[std::size_t(free[i].trace)];
        points.push_back(theta);
        std::size_t d = 0;
        while (d < index.size() && ++index[d] == freeStarts[d].size())
            index[d++] = 0;
        if (d == index.size())
            break;
    }
    // A sharp capacity step (large alpha) makes the cost surface steep and narrow: give each start more room.
    LeastSquaresOptions lsOptions;
    if (mode == CacheMode::TwoLevel) {
        lsOptions.max_evaluations = 6000;
        // 648 starts: twenty iterations tell the promising ones (a tenth of the time; the H100 curves and the
        // recovery test end at the same cost as with every start run out).
        lsOptions.screen_iterations = 20;
        lsOptions.screen_keep = 12;
    }
    const LeastSquaresResult best = fitLeastSquares(problem, points, lsOptions);

    CacheFit fit;
    fit.mode = mode;
    fit.params = paramsAt(best.parameters, 0);
    fit.points = totalPoints;
    fit.fit_points = fitK.size();
    fit.iterations = best.iterations;
    fit.converged = best.converged;

    // Standard errors on the points fitted.
    Eigen::VectorXd fitR(problem.residual_count);
    problem.residuals(best.parameters, fitR);
    const std::vector<double> sigma
            = standardErrors(problem.residuals, problem.residual_count, best.parameters, problem.ranges, fitR.squaredNorm());
    for (const std::string &key : keys) {
        const auto *info = findParameter(key);
        FittedParameter f;
        f.key = key;
        f.value = machine.*(info->member);
        f.held = true;
        for (std::size_t i = 0; i < free.size(); ++i) {
            if (free[i].key == key && free[i].trace <= 0) {
                f = {key, best.parameters(Eigen::Index(i)), free[i].range.lo, free[i].range.hi, sigma[i], false,
                     bool(best.at_bound[i]), false, free[i].trace};
            }
        }
        if (f.held) {
            f.lo = f.hi = f.value;
        }
        fit.parameters.push_back(f);
    }
    for (std::size_t i = shared; i < free.size(); ++i) {
        fit.parameters.push_back({free[i].key, best.parameters(Eigen::Index(i)), free[i].range.lo, free[i].range.hi,
                                  sigma[i], false, bool(best.at_bound[i]), false, free[i].trace});
    }
    for (FittedParameter &f : fit.parameters) {
        f.determined = f.held || (std::isfinite(f.sigma) && f.sigma < std::abs(f.value));
        if (f.at_bound && f.trace <= 0)
            fit.at_bounds.push_back(f.key);
    }

    // Residuals and quality over every point of every trace.
    std::vector<double> allY;
    for (std::size_t t = 0; t < traces.size(); ++t) {
        const XModel model(paramsAt(best.parameters, int(t)));
        double sse = 0;
        for (std::size_t i = 0; i < traces[t].k.size(); ++i) {
            const double r = traces[t].gbs[i] - model.toGbs(model.msSupply(traces[t].k[i]));
            fit.residuals.push_back(r);
            sse += r * r;
            allY.push_back(traces[t].gbs[i]);
        }
        fit.sse += sse;
        fit.trace_r2.push_back(coefficientOfDetermination(traces[t].gbs, sse));
        fit.trace_beta.push_back(model.params().beta);
    }
    fit.rmse = std::sqrt(fit.sse / double(totalPoints));
    fit.r2 = coefficientOfDetermination(allY, fit.sse);
    if (!std::isfinite(fit.sse) || !std::isfinite(fit.r2))
        throw InputError("cache fit: the values span too wide a range to fit in double precision");
    addWarnings(fit, machine, options.hold);
    return fit;
}

} // namespace crossroof::core
