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

/// Least-squares fit of the MS curve with a shared cache (MODEL.md 1.3, Eq. 1-5) to a trace, given the
/// machine: device shape, R and L (and S_s for locality mode) come from MACHINE and stay fixed. A measured
/// f(k) in MACHINE (measured_f) is left out: the fit, its residuals and CacheFit::params are the analytic curve.
/// - CacheMode::Fixed fits L_s and h;
/// - CacheMode::Locality fits L_s, alpha and beta;
/// - CacheMode::TwoLevel fits L_s, L_2, L, R, R_dram (the plateau), beta, S_2, alpha and alpha_2: every key
///   that shapes the two-level f(k) but S_s (only S_s/beta enters f) and the device shape. L_s and L_2 in
///   [0.01, 1e5] cycles, L in [1, 1e6], R and R_dram in [1e-3, 1e6] GB/s, beta in [1e-6, 1e6] KiB, S_2 in
///   [S_s, 1e4 S_s], alpha and alpha_2 in [1, 100]; the starting points come from the data (first slope,
///   largest k and throughput), never from a particular machine.
/// Bounds: L_s in [0.01, L] (a cache no slower than memory), h in [0, 1], alpha in [1, 100], beta in
/// [1e-6, 1e6] KiB, enforced by transforms (logistic, in log space for L_s and beta). Levenberg-Marquardt on
/// numerical Jacobians from several starting points; the best result is kept.
struct CacheFit
{
    CacheMode mode = CacheMode::Fixed;
    XModelParams params; ///< MACHINE with cache = mode, the fitted keys set and no measured_f
    double rmse = 0;     ///< GB/s
    double r2 = 1;
    double sse = 0;
    std::size_t points = 0;
    std::size_t fit_points = 0;         ///< the points the fit used: all, or the mode's limit of more
    int iterations = 0;                 ///< of the best start
    bool converged = false;             ///< the best start met the convergence test (not the iteration cap)
    std::vector<std::string> at_bounds; ///< fitted keys that ended on a bound (the data push past the model)
    std::vector<double> residuals;      ///< y - f(k) in GB/s, in input order
};

/// Most points a fixed or locality cache fit iterates on. A longer trace is fitted on this many of its points
/// spread evenly over it in order of k, so that the fit takes bounded time whatever the trace's length; the
/// residuals, rmse and r^2 are still over every point.
inline constexpr std::size_t kCacheFitPointLimit = 2048;
/// The same for the two-level fit, whose nine parameters and numeric f(k) cost about 0.1 s of CPU per point
/// (a 64-warp sweep at one warp per step is still fitted whole).
inline constexpr std::size_t kTwoLevelFitPointLimit = 64;

/// Throws InputError on bad points (as fitRoofline()), invalid MACHINE parameters, mode None, S_s = 0 in
/// locality and two-level modes, or fewer points than fitted parameters plus one. POINTLIMIT replaces the
/// mode's limit (kCacheFitPointLimit, kTwoLevelFitPointLimit) when not 0; it must be at least 10.
CacheFit fitCacheModel(std::span<const double> k, std::span<const double> gbs, const XModelParams &machine,
                       CacheMode mode, std::size_t pointLimit = 0);

} // namespace crossroof::core
