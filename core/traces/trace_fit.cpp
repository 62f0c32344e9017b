// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_fit.h"
#include "core/traces/trace_fit_detail.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace crossroof::core {

namespace detail {

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

} // namespace detail

using detail::checkPoints;
using detail::coefficientOfDetermination;

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

} // namespace crossroof::core
