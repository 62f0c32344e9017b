// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace crossroof::core {

/// The largest magnitude of a k or throughput value the fits take: least squares sums squares, and a value
/// beyond about 1.3e154 has no finite square (1.7e308 GB/s gave R = inf, r^2 = NaN); 1e150 leaves room for the
/// sum over a hundred million points.
inline constexpr double kMaxFitValue = 1e150;

/// Least-squares fit of the roofline MS curve y = min(s*k, R) to a measured trace (MODEL.md 1.3, cache
/// mode none: s = R/delta; CLI.md fit-trace). y is device GB/s, k warps per SM.
struct RooflineFit
{
    double R_gbs = 0; ///< plateau R
    double slope_gbs_per_warp = 0; ///< s
    double delta = 0; ///< R/s: the warps where the slope meets the plateau
    double rmse = 0; ///< root-mean-square residual, GB/s
    double r2 = 1; ///< coefficient of determination; 1 when every y is equal and fitted exactly
    double sse = 0; ///< sum of squared residuals
    std::size_t points = 0;
    std::size_t rising_points = 0; ///< points with k <= delta (on the slope)
    std::vector<double> residuals; ///< y - min(s*k, R) per point, in input order

    double predict(double k) const;
};

/// The global least-squares optimum over s > 0, R > 0. For a breakpoint delta strictly between two
/// consecutive distinct k the problem splits into a slope through the origin (points left of delta) and a
/// mean (points right of it); that solution counts where its own R/s falls inside the interval. Otherwise
/// the interval's optimum lies on its border, delta = a data k, where y = s*min(k, delta) is linear in s
/// alone. Every interval and every border is evaluated with prefix sums: O(n log n) for the sort, O(n)
/// after. Throws InputError on fewer than 2 points, different lengths, non-finite values or ones beyond
/// kMaxFitValue in magnitude, k < 0, all k equal, no positive throughput to fit, or values whose fit is not a
/// finite number all the same (a range too wide for a double).
RooflineFit fitRoofline(std::span<const double> k, std::span<const double> gbs);

/// Sum of squared residuals of y = min(s*k, R): for checks and brute-force comparisons.
double rooflineSquaredError(std::span<const double> k, std::span<const double> gbs, double slope, double R);

/// One measured trace of a cache fit: warps per SM K against device GB/s GBS, and a NAME for messages.
struct FitTrace
{
    std::span<const double> k;
    std::span<const double> gbs;
    std::string name;
};

/// What a cache fit may change and how far.
struct CacheFitOptions
{
    /// Replaces the mode's point limit (kCacheFitPointLimit, kTwoLevelFitPointLimit) per trace when not 0;
    /// at least 11.
    std::size_t point_limit = 0;
    /// Keys the fit keeps at MACHINE's values (e.g. R and L from the profile). A key the mode does not fit is
    /// held anyway; a key that is no parameter is refused, and so is holding every fitted key.
    std::vector<std::string> hold;
};

/// One key of a cache fit: its value, range and standard error.
struct FittedParameter
{
    std::string key;
    double value = 0;
    double lo = 0; ///< the range the fit searched (the physical bounds, MODEL.md 5)
    double hi = 0;
    /// Standard error from the Jacobian at the solution, sqrt(diag(s^2 (J^T J)^-1)) with
    /// s^2 = sse / (points - fitted); infinity where the data do not determine the key; 0 when held.
    double sigma = 0;
    bool held = false;       ///< kept at MACHINE's value (CacheFitOptions::hold)
    bool at_bound = false;   ///< ended on a bound of its range
    bool determined = true;  ///< sigma finite and below the value's magnitude
    int trace = -1;          ///< for a per-trace key (beta of a joint fit): the trace's index; -1 shared
};

/// Least-squares fit of the MS curve with a shared cache (MODEL.md 1.3, Eq. 1-5) to one trace or several
/// traces of one machine, given the machine: device shape, R and L (and S_s for locality mode) come from
/// MACHINE and stay fixed. A measured f(k) in MACHINE (measured_f) is left out: the fit, its residuals and
/// CacheFit::params are the analytic curve.
/// - CacheMode::Fixed fits L_s and h;
/// - CacheMode::Locality fits L_s, alpha and beta;
/// - CacheMode::TwoLevel fits L_s, L_2, L, R, R_dram (the plateau), beta, S_2, alpha and alpha_2: every key
///   that shapes the two-level f(k) but S_s (only S_s/beta enters f) and the device shape.
/// Physical bounds (MODEL.md 5): L_s and L_2 at least 1 cycle (L_s at most L in the one-level modes), L in
/// [1, 1e6], R and R_dram from the least bandwidth up to the machine's fastest level (R_l1 when set, else
/// 1e6 GB/s), beta at least one request per warp (request_bytes/1024 KiB) and at most 1e6 KiB, S_2 in
/// [S_s, 1e4 S_s], h in [0, 1], alpha and alpha_2 in [1, 100]; enforced by transforms (logistic, in log space
/// for the scales). The starting points come from the data (first slope, largest k and throughput), never
/// from a particular machine. Levenberg-Marquardt on numerical Jacobians from several starting points; the
/// best result is kept.
/// With several traces every fitted key is shared but beta, the footprint of one warp, which each trace has
/// its own (a curve at 16 KiB per warp has twice the beta of one at 8 KiB).
struct CacheFit
{
    CacheMode mode = CacheMode::Fixed;
    XModelParams params; ///< MACHINE with cache = mode, the fitted keys set (beta: the first trace's) and no measured_f
    double rmse = 0;     ///< GB/s, over every point of every trace
    double r2 = 1;
    double sse = 0;
    std::size_t points = 0;
    std::size_t fit_points = 0;         ///< the points the fit used: all, or the mode's limit of more per trace
    int iterations = 0;                 ///< of the best start
    bool converged = false;             ///< the best start met the convergence test (not the iteration cap)
    std::vector<std::string> at_bounds; ///< fitted keys that ended on a bound (the data push past the model)
    std::vector<double> residuals;      ///< y - f(k) in GB/s, in input order, trace after trace
    std::vector<FittedParameter> parameters; ///< the mode's keys in order (held ones too), per-trace betas last
    std::vector<double> trace_r2;       ///< r^2 of each trace on its own
    std::vector<double> trace_beta;     ///< beta of each trace (one value for one trace)
    /// What makes the result degenerate or unphysical, one sentence each: a key on a bound, a key the data do
    /// not determine, levels out of order (L_2 below L_s, L below L_2), a plateau above the DRAM peak.
    std::vector<std::string> warnings;
};

/// Most points a fixed or locality cache fit iterates on. A longer trace is fitted on this many of its points
/// spread evenly over it in order of k, so that the fit takes bounded time whatever the trace's length; the
/// residuals, rmse and r^2 are still over every point.
inline constexpr std::size_t kCacheFitPointLimit = 2048;
/// The same for the two-level fit, whose nine parameters and numeric f(k) cost about 0.1 s of CPU per point
/// (a 64-warp sweep at one warp per step is still fitted whole).
inline constexpr std::size_t kTwoLevelFitPointLimit = 64;

/// Throws InputError on bad points (as fitRoofline(), naming the trace when there are several), invalid
/// MACHINE parameters, mode None, S_s = 0 in locality and two-level modes, fewer points than fitted
/// parameters plus one, or a bad hold (see CacheFitOptions).
CacheFit fitCacheModel(std::span<const FitTrace> traces, const XModelParams &machine, CacheMode mode,
                       const CacheFitOptions &options = {});
/// One trace. POINTLIMIT as CacheFitOptions::point_limit.
CacheFit fitCacheModel(std::span<const double> k, std::span<const double> gbs, const XModelParams &machine,
                       CacheMode mode, std::size_t pointLimit = 0);

/// The keys MODE fits, in order (CacheFit::parameters).
std::vector<std::string> cacheFitKeys(CacheMode mode);

} // namespace crossroof::core
