// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the exact solver, the literal chain and the surfaces share (not part of the API): the checks of their
// inputs and one thread's probability of being suspended.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace crossroof::core::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
/// Below this, 1 / (1 - e^x) rounds to 1: skip the work.
inline constexpr double kNegligibleLog = -40;

/// Refuses STEPS below 0 or beyond what (q - p)^t computes exactly.
void checkSteps(std::optional<long long> steps);
/// Refuses V outside [0, 1]; the message starts with WHAT.
void checkProbability(double v, const std::string &what);
/// p = 1, q = 0: every thread flips on every step, so the chain is periodic.
inline bool isPeriodic(double p, double q)
{
    return p == 1 && q == 0;
}

/// 1 - (q - p)^t without cancellation: 1 - lambda = p + (1 - q) and 1 - |lambda| = (1 - p) + q are exact
/// where it matters (lambda near +-1).
inline double oneMinusLambdaPower(double p, double q, long long t)
{
    const double lambda = q - p;
    const double td = double(t);
    if (lambda >= 0)
        return -std::expm1(td * std::log1p(-(p + (1 - q))));
    if (t % 2 == 1)
        return 1 + std::pow(-lambda, td);
    return -std::expm1(td * std::log1p(-((1 - p) + q)));
}

/// log of one thread's probability a of being suspended: a = s = p / (p + 1 - q) at steady state, and
/// a(t) = s (1 - (q - p)^t) after t steps from active. -infinity when a = 0. Taken through 1 - a where a is
/// near 1 and directly where a is small, so that neither end loses precision. Not for the periodic steady
/// state. Inline: the surfaces call it for every cell.
inline double logSuspended(double p, double q, std::optional<long long> steps)
{
    if (p == 0 || (steps && *steps == 0))
        return -kInf;
    if (steps && *steps == 1)
        return std::log(p); // a(1) = p
    const double denominator = p + (1 - q);
    const double s = p / denominator;
    double a = s;
    double b = (1 - q) / denominator; // 1 - s
    if (steps) {
        const double lambdaPower = std::pow(q - p, double(*steps));
        const double rest = std::abs(lambdaPower) < 0.5 ? 1 - lambdaPower : oneMinusLambdaPower(p, q, *steps);
        a = s * rest;
        b += s * lambdaPower; // 1 - a = (1 - s) + s (q - p)^t
    }
    if (a <= 0)
        return -kInf;
    return b < 0.5 ? std::log1p(-std::max(0.0, b)) : std::log(a);
}

} // namespace crossroof::core::detail
