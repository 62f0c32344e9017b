// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_fit.h"

#include "core/support/error.h"
#include "core/support/least_squares.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace crossroof::core {

namespace {

void checkPoints(std::span<const double> k, std::span<const double> y, const char *what)
{
    const std::string prefix = std::string(what) + ": ";
    if (k.size() != y.size()) {
        throw InputError(prefix + std::to_string(k.size()) + " k values but " + std::to_string(y.size())
                         + " throughput values");
    }
    if (k.size() < 2)
        throw InputError(prefix + "needs at least 2 points (got " + std::to_string(k.size()) + ")");
    for (std::size_t i = 0; i < k.size(); ++i) {
        const std::string where = prefix + "point " + std::to_string(i + 1) + ": ";
        if (!std::isfinite(k[i]) || k[i] < 0)
            throw InputError(where + "k must be a finite number >= 0 (got " + formatNumber(k[i]) + ")");
        if (!std::isfinite(y[i]))
            throw InputError(where + "the throughput must be a finite number (got " + formatNumber(y[i]) + ")");
        for (const auto &[name, v] : {std::pair {"k", k[i]}, std::pair {"the throughput", y[i]}}) {
            if (std::abs(v) > kMaxFitValue) {
                throw InputError(where + name + " " + formatNumber(v) + " is too large to fit (at most "
                                 + formatNumber(kMaxFitValue) + ": its square would overflow)");
            }
        }
    }
    const auto [lo, hi] = std::minmax_element(k.begin(), k.end());
    if (*hi - *lo <= 1e-12 * *hi)
        throw InputError(prefix + "every point has the same k = " + formatNumber(*lo)
                         + ", so slope and plateau are "
                           "not both determined");
}

double coefficientOfDetermination(std::span<const double> y, double sse)
{
    const double mean = std::accumulate(y.begin(), y.end(), 0.0) / double(y.size());
    double sst = 0;
    for (double v : y)
        sst += (v - mean) * (v - mean);
    if (sst > 0)
        return 1 - sse / sst;
    return sse <= 1e-24 * std::max(1.0, mean * mean) ? 1.0 : 0.0;
}

/// A fitted X-model parameter: its key, where it lives in XModelParams, and its range.
struct Fitted
{
    const char *key;
    double XModelParams::*member;
    ParameterRange range;
};

/// Keys, ranges and starting points of the two-level fit (MODEL.md 1.3): everything that shapes f except S_s
/// (only S_s/beta enters f, so beta carries the L1 collapse) and the device shape. S_2 is searched above S_s
/// (an L2 no larger than the L1 never serves a hit). Starts come from the data: the first slope gives L_s,
/// the largest k and throughput place the collapses and the plateau.
void twoLevelSetup(std::span<const double> k, std::span<const double> gbs, const XModelParams &machine,
                   std::vector<Fitted> &bounded, std::vector<std::vector<double>> &starts)
{
    if (!(machine.S_s > 0)) {
        throw InputError("cache fit: two-level mode needs a first-level cache, S_s > 0 (got "
                         + formatNumber(machine.S_s) + ")");
    }
    const ParameterInfo &ls = *findParameter("L_s");
    const ParameterInfo &l = *findParameter("L");
    const ParameterInfo &r = *findParameter("R");
    const double kMax = std::max(*std::max_element(k.begin(), k.end()), 1e-3);
    const double yMax = *std::max_element(gbs.begin(), gbs.end());
    if (!(yMax > 0))
        throw InputError("cache fit: no positive throughput to fit");
    // The steepest start of the curve: y = k/L_s requests per cycle while everything hits the L1.
    double perWarp = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k[i] > 0)
            perWarp = std::max(perWarp, gbs[i] / k[i]);
    }
    const XModelParams &p = machine;
    const double lsStart = std::clamp(p.gbsPerRequestRate() / perWarp, ls.min, ls.max);
    const double s2Max = std::min(1e4 * p.S_s, findParameter("S_2")->max);
    const double s2Min = std::min(p.S_s, s2Max / 2);

    bounded.push_back({"L_2", &XModelParams::L_2, {ls.min, ls.max, true}});
    bounded.push_back({"L", &XModelParams::L, {l.min, l.max, true}});
    bounded.push_back({"R", &XModelParams::R, {r.min, r.max, true}});
    bounded.push_back({"R_dram", &XModelParams::R_dram, {r.min, r.max, true}});
    bounded.push_back({"beta", &XModelParams::beta, {1e-6, 1e6, true}});
    bounded.push_back({"S_2", &XModelParams::S_2, {s2Min, s2Max, true}});
    bounded.push_back({"alpha", &XModelParams::alpha, {1, 100, false}});
    bounded.push_back({"alpha_2", &XModelParams::alpha_2, {1, 100, false}});
    // L is fitted too, so L_s may take its whole range.
    bounded.front().range = {ls.min, ls.max, true};
    starts.front() = {lsStart};
    starts.push_back({4 * lsStart});
    starts.push_back({std::max(p.L, 10 * lsStart)});
    starts.push_back({0.7 * yMax, std::max(p.R, 1.5 * yMax)}); // the queue past the L1 binding, or not
    starts.push_back({0.9 * yMax, 1.5 * yMax}); // the plateau in reach of the data, or out of it
    // The L1 collapse at a third, half or two thirds of the largest k; the L2 one 1.5 to 4 times later.
    std::vector<double> betas;
    for (double f : {0.3, 0.5, 0.7})
        betas.push_back(std::clamp(p.S_s / (f * kMax), 1e-5, 1e5));
    starts.push_back(betas);
    starts.push_back({1.5 * p.S_s, 2.5 * p.S_s, 4 * p.S_s});
    starts.push_back({4, 16, 48});
    starts.push_back({4, 16, 48});
}

/// LIMIT points of (K, Y) spread evenly over them in order of k; every point when there are no more.
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
    kOut.clear();
    yOut.clear();
    kOut.reserve(order.size());
    yOut.reserve(order.size());
    for (std::size_t i : order) {
        kOut.push_back(k[i]);
        yOut.push_back(y[i]);
    }
}

} // namespace

double RooflineFit::predict(double k) const
{
    return std::min(slope_gbs_per_warp * k, R_gbs);
}

double rooflineSquaredError(std::span<const double> k, std::span<const double> gbs, double slope, double R)
{
    double sse = 0;
    for (std::size_t i = 0; i < k.size() && i < gbs.size(); ++i) {
        const double r = gbs[i] - std::min(slope * k[i], R);
        sse += r * r;
    }
    return sse;
}

RooflineFit fitRoofline(std::span<const double> k, std::span<const double> gbs)
{
    checkPoints(k, gbs, "roofline fit");
    const std::size_t n = k.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return k[a] < k[b]; });

    // Prefix sums over the sorted points: sums of k^2, k*y, y, y^2 over the first j points.
    std::vector<double> sxx(n + 1, 0), sxy(n + 1, 0), sy(n + 1, 0), syy(n + 1, 0);
    for (std::size_t j = 0; j < n; ++j) {
        const double x = k[order[j]];
        const double y = gbs[order[j]];
        sxx[j + 1] = sxx[j] + x * x;
        sxy[j + 1] = sxy[j] + x * y;
        sy[j + 1] = sy[j] + y;
        syy[j + 1] = syy[j] + y * y;
    }

    double bestSse = std::numeric_limits<double>::infinity();
    double bestS = 0;
    double bestR = 0;
    const auto consider = [&](double sse, double s, double R) {
        if (s > 0 && R > 0 && sse < bestSse) {
            bestSse = sse;
            bestS = s;
            bestR = R;
        }
    };
    for (std::size_t j = 0; j < n;) {
        // Points [0, end) have k <= v; the rest have k > v.
        const double v = k[order[j]];
        std::size_t end = j + 1;
        while (end < n && k[order[end]] == v)
            ++end;
        const double nRight = double(n - end);
        const double syR = sy[n] - sy[end];
        const double syyR = syy[n] - syy[end];

        // Border: delta = v exactly, y = s * min(k, v), linear in s.
        const double a = sxy[end] + v * syR;
        const double b = sxx[end] + v * v * nRight;
        if (b > 0)
            consider(std::max(0.0, syy[n] - a * a / b), a / b, a / b * v);

        // Interior: v < delta < next k; a slope through the origin on the left, a mean on the right.
        if (end < n && sxx[end] > 0) {
            const double s = sxy[end] / sxx[end];
            const double R = syR / nRight;
            const double next = k[order[end]];
            if (s > 0 && s * v < R && R < s * next) {
                const double sse = std::max(0.0, syy[end] - sxy[end] * sxy[end] / sxx[end])
                                   + std::max(0.0, syyR - syR * syR / nRight);
                consider(sse, s, R);
            }
        }
        j = end;
    }
    if (!std::isfinite(bestSse)) {
        // No slope > 0 was found: there is no y > 0 at a k > 0, or there is and the slope y / k under- or
        // overflows a double (k = 1e-200 squares to 0; y = 1e-200 at k = 1e150 divides to 0).
        for (std::size_t i = 0; i < n; ++i) {
            if (k[i] > 0 && gbs[i] > 0)
                throw InputError("roofline fit: the values span too wide a range to fit in double precision (point "
                                 + std::to_string(i + 1) + ": k = " + formatNumber(k[i]) + ", y = "
                                 + formatNumber(gbs[i]) + ")");
        }
        throw InputError("roofline fit: no positive throughput to fit (every y <= 0 where k > 0)");
    }

    RooflineFit fit;
    fit.slope_gbs_per_warp = bestS;
    fit.R_gbs = bestR;
    fit.delta = bestR / bestS;
    fit.points = n;
    fit.residuals.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        fit.residuals[i] = gbs[i] - fit.predict(k[i]);
        fit.sse += fit.residuals[i] * fit.residuals[i];
        fit.rising_points += k[i] <= fit.delta ? 1 : 0;
    }
    fit.rmse = std::sqrt(fit.sse / double(n));
    fit.r2 = coefficientOfDetermination(gbs, fit.sse);
    // Values within kMaxFitValue can still span more than a double holds (k = 1e-300 next to 1e150).
    for (const double v : {fit.slope_gbs_per_warp, fit.R_gbs, fit.delta, fit.sse, fit.rmse, fit.r2}) {
        if (!std::isfinite(v))
            throw InputError("roofline fit: the values span too wide a range to fit in double precision");
    }
    return fit;
}

CacheFit fitCacheModel(std::span<const double> k, std::span<const double> gbs, const XModelParams &machine,
                       CacheMode mode, std::size_t pointLimit)
{
    checkPoints(k, gbs, "cache fit");
    if (pointLimit == 0)
        pointLimit = mode == CacheMode::TwoLevel ? kTwoLevelFitPointLimit : kCacheFitPointLimit;
    if (pointLimit < 10) {
        throw InputError("cache fit: the point limit must be at least 10, one more than the most parameters a fit "
                         "has (got " + std::to_string(pointLimit) + ")");
    }
    validate(machine);
    const double lsMax = std::min(machine.L, findParameter("L_s")->max);
    const double lsMin = std::min(findParameter("L_s")->min, lsMax / 2);
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
        bounded.push_back({"beta", &XModelParams::beta, {1e-6, 1e6, true}});
        starts.push_back({1.5, 3, 6});
        const double kMax = *std::max_element(k.begin(), k.end());
        std::vector<double> betas;
        for (double f : {0.02, 0.1, 0.5, 2.0})
            betas.push_back(std::clamp(machine.S_s / std::max(kMax, 1e-3) / f, 1e-5, 1e5));
        starts.push_back(betas);
        break;
    }
    case CacheMode::TwoLevel:
        twoLevelSetup(k, gbs, machine, bounded, starts);
        break;
    }
    if (k.size() < bounded.size() + 1) {
        throw InputError("cache fit: needs at least " + std::to_string(bounded.size() + 1) + " points for "
                         + std::to_string(bounded.size()) + " parameters (got " + std::to_string(k.size())
                         + ")");
    }
    XModelParams base = machine;
    base.cache = mode;
    // The fit evaluates the analytic curve it names: a measured f(k) standing in for the supply (MACHINE's
    // measured_f) would be "the model" whatever the parameters, so every start would fit the measured curve.
    base.measured_f.reset();
    const auto paramsAt = [&](const Eigen::VectorXd &theta) {
        XModelParams p = base;
        for (std::size_t i = 0; i < bounded.size(); ++i)
            p.*(bounded[i].member) = theta(Eigen::Index(i));
        return p;
    };
    std::vector<double> fitK;
    std::vector<double> fitY;
    spreadPoints(k, gbs, pointLimit, fitK, fitY);
    const auto residualsAt = [&](std::span<const double> ks, std::span<const double> ys, const Eigen::VectorXd &theta,
                                 Eigen::VectorXd &r) {
        const XModel model(paramsAt(theta));
        for (std::size_t i = 0; i < ks.size(); ++i)
            r(Eigen::Index(i)) = model.toGbs(model.msSupply(ks[i])) - ys[i];
    };
    LeastSquaresProblem problem;
    problem.residual_count = Eigen::Index(fitK.size());
    problem.residuals = [&](const Eigen::VectorXd &theta, Eigen::VectorXd &r) { residualsAt(fitK, fitY, theta, r); };
    for (const Fitted &f : bounded)
        problem.ranges.push_back(f.range);

    // Every combination of the starting values.
    std::vector<Eigen::VectorXd> points;
    std::vector<std::size_t> index(starts.size(), 0);
    while (true) {
        Eigen::VectorXd theta(Eigen::Index(bounded.size()));
        for (std::size_t i = 0; i < bounded.size(); ++i)
            theta(Eigen::Index(i)) = starts[i][index[i]];
        points.push_back(theta);
        std::size_t d = 0;
        while (d < index.size() && ++index[d] == starts[d].size())
            index[d++] = 0;
        if (d == index.size())
            break;
    }
    // A sharp capacity step (large alpha) makes the cost surface steep and narrow: give each start more room.
    LeastSquaresOptions options;
    if (mode == CacheMode::TwoLevel) {
        options.max_evaluations = 6000;
        // 324 starts: twenty iterations tell the promising ones (a tenth of the time; the H100 curves and the
        // recovery test end at the same cost as with every start run out).
        options.screen_iterations = 20;
        options.screen_keep = 12;
    }
    const LeastSquaresResult best = fitLeastSquares(problem, points, options);

    CacheFit fit;
    fit.mode = mode;
    fit.params = paramsAt(best.parameters);
    fit.points = k.size();
    fit.fit_points = fitK.size();
    fit.iterations = best.iterations;
    fit.converged = best.converged;
    for (std::size_t i = 0; i < bounded.size(); ++i) {
        if (best.at_bound[i])
            fit.at_bounds.push_back(bounded[i].key);
    }
    Eigen::VectorXd r(Eigen::Index(k.size()));
    residualsAt(k, gbs, best.parameters, r);
    fit.residuals.resize(k.size());
    for (std::size_t i = 0; i < k.size(); ++i)
        fit.residuals[i] = -r(Eigen::Index(i));
    fit.sse = r.squaredNorm();
    fit.rmse = std::sqrt(fit.sse / double(k.size()));
    fit.r2 = coefficientOfDetermination(gbs, fit.sse);
    if (!std::isfinite(fit.sse) || !std::isfinite(fit.r2))
        throw InputError("cache fit: the values span too wide a range to fit in double precision");
    return fit;
}

} // namespace crossroof::core
