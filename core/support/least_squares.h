// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bounded nonlinear least squares: Eigen's Levenberg-Marquardt from several starting points. The one way core
// fits a model's parameters to measurements.

#include <Eigen/Core>

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace crossroof::core {

/// Where one fitted parameter may go: [lo, hi], searched through a logistic transform (in log space when
/// LOG, for scale parameters spanning decades; lo must then be > 0).
struct ParameterRange
{
    double lo = 0;
    double hi = 1;
    bool log = false;
};

/// The residuals r(theta) for parameters THETA (each inside its range), written to R (already sized).
using ResidualFunction = std::function<void(const Eigen::VectorXd &theta, Eigen::VectorXd &r)>;
/// dr/dtheta at THETA, written to J (residuals x parameters, already sized).
using JacobianFunction = std::function<void(const Eigen::VectorXd &theta, Eigen::MatrixXd &j)>;

/// Minimise sum r_i(theta)^2 over theta inside RANGES.
struct LeastSquaresProblem
{
    Eigen::Index residual_count = 0;
    ResidualFunction residuals;
    /// Optional; central differences in the transformed parameters when empty.
    JacobianFunction jacobian;
    std::vector<ParameterRange> ranges;
};

struct LeastSquaresOptions
{
    /// Relative tolerance on the cost's decrease and on the step (Eigen's ftol and xtol).
    double tolerance = 1e-10;
    /// Residual evaluations per start before giving up (Jacobian evaluations not counted).
    int max_evaluations = 2000;
    /// Screening of many starts: when there are more than SCREEN_KEEP starts and SCREEN_ITERATIONS > 0,
    /// every start first takes up to that many iterations; only the SCREEN_KEEP lowest costs then go on to
    /// convergence (a start that converged while screened stays a candidate). 0 runs every start to the end.
    int screen_iterations = 0;
    std::size_t screen_keep = 16;
};

struct LeastSquaresResult
{
    Eigen::VectorXd parameters;  ///< theta at the best start's end, inside the ranges
    double cost = 0;             ///< sum of squared residuals there
    int iterations = 0;          ///< Levenberg-Marquardt iterations of the best start
    bool converged = false;      ///< the best start met a convergence test (not the evaluation limit)
    std::size_t start = 0;       ///< index of the best start
    std::vector<bool> at_bound;  ///< per parameter: ended on (within 1e-6 of the range of) a bound
};

/// Runs Levenberg-Marquardt from each of STARTS (clamped into the ranges) and keeps the lowest cost (after
/// screening, when OPTIONS ask for it). Starts where a residual is not finite are skipped. Throws InputError
/// "least squares: ..." for a malformed
/// problem (no parameters or residuals, an empty or non-finite range, a start of the wrong size or not
/// finite, no starts) and when no start has finite residuals (non-finite data).
LeastSquaresResult fitLeastSquares(const LeastSquaresProblem &problem,
                                   std::span<const Eigen::VectorXd> starts,
                                   const LeastSquaresOptions &options = {});

} // namespace crossroof::core
