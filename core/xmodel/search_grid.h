// SPDX-License-Identifier: GPL-3.0-or-later
// The k grids the X-model searches for roots and extrema and samples its curves on (internal to core/xmodel).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace crossroof::core::detail {

// Grid sizes for root and extremum search. Every kink and every extremum of f is a grid point as well, so
// on each grid interval f is smooth and, where f does not fall, F is monotone (G(n-k) never rises in k).
inline constexpr int kUniformPoints = 400;
inline constexpr int kGeometricPoints = 200;

/// Appends a uniform grid over [LO, HI] and a geometric one that resolves the structure close to k = 0.
inline void addGrid(std::vector<double> &ks, double lo, double hi)
{
    ks.reserve(ks.size() + kUniformPoints + kGeometricPoints + 1);
    for (int i = 0; i <= kUniformPoints; ++i)
        ks.push_back(lo + (hi - lo) * i / kUniformPoints);
    const double g0 = std::max(hi * 1e-6, 1e-9);
    if (g0 < hi) {
        const double ratio = std::log(hi / g0);
        for (int i = 0; i < kGeometricPoints; ++i)
            ks.push_back(g0 * std::exp(ratio * i / kGeometricPoints));
    }
}

/// Sorts KS, a few ascending runs one after another (grids, then kinks), by merging each run into the sorted
/// part before it: linear in the size per run, where a sort is not.
inline void mergeRuns(std::vector<double> &ks)
{
    auto sorted = std::is_sorted_until(ks.begin(), ks.end());
    while (sorted != ks.end()) {
        const auto run = std::is_sorted_until(sorted, ks.end());
        std::inplace_merge(ks.begin(), sorted, run);
        sorted = run;
    }
}

/// Sorts KS (see mergeRuns()) and drops points closer than SCALE * 1e-12 to the one before.
inline void sortUnique(std::vector<double> &ks, double scale)
{
    mergeRuns(ks);
    const double eps = scale * 1e-12;
    ks.erase(std::unique(ks.begin(), ks.end(), [eps](double a, double b) { return b - a <= eps; }), ks.end());
}

} // namespace crossroof::core::detail
