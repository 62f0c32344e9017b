// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/bandwidth/bandwidth_curve.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

namespace crossroof::core {

namespace {

void checkWindow(std::size_t units, std::size_t window, const std::string &what)
{
    if (window < 1)
        throw InputError(what + "the smoothing window must be at least 1 unit");
    if (window > units) {
        throw InputError(what + "the smoothing window (" + std::to_string(window)
                         + " units) is longer than the trace (" + std::to_string(units) + " units)");
    }
}

/// "WHAT add up to more than a double holds (about 1.8e308)".
std::string tooLarge(const std::string &what)
{
    return what + " add up to more than a double holds (about 1.8e308)";
}

/// D / LIMIT, the units that unit I takes under the limit; throws when the ratio is beyond a double (a
/// limit of 1e-310 bytes per unit, say). Messages start with WHAT, or with the connection CONNECTION's name.
double demandRatio(double d, double limit, std::size_t i, std::string_view what,
                   const std::string *connection = nullptr)
{
    const double ratio = d / limit;
    if (!std::isfinite(ratio)) {
        const std::string where = connection ? "dominance: connection '" + *connection + "': " : std::string(what);
        throw InputError(where + "unit " + std::to_string(i + 1) + ": the demand " + formatNumber(d)
                         + " bytes is more than 1.8e308 times the limit " + formatNumber(limit)
                         + " bytes per unit (a limit this small means nothing)");
    }
    return ratio;
}

void checkLimit(double limit, const std::string &what)
{
    if (!std::isfinite(limit) || limit <= 0)
        throw InputError(what + "the limit must be a finite number > 0 bytes per unit (got " + formatNumber(limit)
                         + ")");
}

std::vector<double> smooth(std::span<const double> bytes, std::size_t window, const std::string &what)
{
    if (bytes.empty())
        throw InputError(what + "the trace is empty");
    checkWindow(bytes.size(), window, what);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (!std::isfinite(bytes[i]) || bytes[i] < 0) {
            throw InputError(what + "unit " + std::to_string(i + 1)
                             + ": bytes must be a finite number >= 0 (got " + formatNumber(bytes[i]) + ")");
        }
    }
    // The raw total must stay a double: every smoothed value is a weighted mean of raw values, and the
    // smoothed total equals the raw one.
    double total = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        total += bytes[i];
        if (!std::isfinite(total))
            throw InputError(what + "unit " + std::to_string(i + 1) + ": " + tooLarge("the bytes up to this unit"));
    }
    if (window == 1)
        return {bytes.begin(), bytes.end()};
    // A centred window of weight W: units i-h .. i+h, h = floor(W/2), each with weight 1/W, and for an even W
    // the two outer ones with 1/(2W). Beyond the trace it reads the trace mirrored about its ends (unit -1 is
    // unit 0, unit N is unit N-1). The weights are symmetric and the mirror is too, so every unit gives away
    // exactly its bytes (the smoothing matrix is doubly stochastic): the area is the bytes moved, a constant
    // trace stays constant, and a trace read backwards has the same curve (MODEL.md 4).
    const std::size_t n = bytes.size();
    const std::size_t h = window / 2; // <= n/2: the mirror is needed once at most
    const auto at = [&](std::ptrdiff_t j) {
        const auto size = std::ptrdiff_t(n);
        if (j < 0)
            j = -1 - j;
        else if (j >= size)
            j = 2 * size - 1 - j;
        return bytes[std::size_t(j)];
    };
    // e(j): the mirrored trace shifted by h and divided by W (so that no sum passes the raw total).
    const double w = double(window);
    const std::size_t extended = n + 2 * h;
    const auto e = [&](std::size_t j) { return j < extended ? at(std::ptrdiff_t(j) - std::ptrdiff_t(h)) / w : 0.0; };
    // Unit i is the sum of e over [i, i + K - 1], K = 2h + 1, found without subtractions (which would lose a
    // small demand next to a burst): in blocks of K, a window is a suffix of one block plus a prefix of the next
    // (van Herk, Gil and Werman).
    const std::size_t K = 2 * h + 1;
    std::vector<double> suffix(K), prefix(K);
    std::vector<double> out(n);
    for (std::size_t b0 = 0; b0 < n; b0 += K) {
        double sum = 0;
        for (std::size_t t = K; t-- > 0;)
            suffix[t] = sum += e(b0 + t);
        sum = 0;
        for (std::size_t t = 0; t + 1 < K; ++t)
            prefix[t] = sum += e(b0 + K + t);
        for (std::size_t t = 0; t < K && b0 + t < n; ++t) {
            const std::size_t i = b0 + t;
            double d = t == 0 ? suffix[0] : suffix[t] + prefix[t - 1];
            if (window % 2 == 0)
                d -= 0.5 * (e(i) + e(i + K - 1)); // the outer two units weigh half
            out[i] = std::max(0.0, d);
        }
    }
    return out;
}

} // namespace

std::vector<double> smoothDemand(std::span<const double> bytes, std::size_t window)
{
    return smooth(bytes, window, "bandwidth curve: ");
}

double slowdownUnderLimit(std::span<const double> demand, double limit)
{
    const std::string what = "bandwidth curve: ";
    checkLimit(limit, what);
    if (demand.empty())
        return 1;
    double units = 0;
    for (std::size_t i = 0; i < demand.size(); ++i) {
        // A unit with demand d takes max(1, d/B) units under the limit.
        units += std::max(1.0, demandRatio(demand[i], limit, i, what));
        if (!std::isfinite(units))
            throw InputError(what + tooLarge("the units that the demand takes under the limit"));
    }
    return units / double(demand.size());
}

BandwidthCurve bandwidthCurve(std::span<const double> bytes, std::size_t window, double limit)
{
    checkLimit(limit, "bandwidth curve: ");
    BandwidthCurve c;
    c.sorted = smoothDemand(bytes, window);
    for (std::size_t i = 0; i < c.sorted.size(); ++i) // in time order, so that a message names the unit
        demandRatio(c.sorted[i], limit, i, "bandwidth curve: ");
    std::sort(c.sorted.begin(), c.sorted.end(), std::greater<>());
    c.units = c.sorted.size();
    c.limit = limit;
    for (double b : bytes)
        c.total_bytes += b;
    for (double d : c.sorted) {
        c.area += d;
        c.units_over_limit += d > limit ? 1 : 0;
    }
    // The smoothed total is the raw one, which smoothDemand() checked, up to rounding.
    if (!std::isfinite(c.area))
        throw InputError("bandwidth curve: " + tooLarge("the smoothed bytes of all units"));
    c.peak = c.sorted.front();
    c.mean = c.area / double(c.units);
    c.slowdown = slowdownUnderLimit(c.sorted, limit);
    return c;
}

Dominance dominance(std::span<const Connection> connections, std::size_t window)
{
    if (connections.empty())
        throw InputError("dominance: no connections");
    const std::size_t units = connections.front().bytes.size();
    std::vector<std::vector<double>> demand;
    for (const Connection &c : connections) {
        const std::string what = "dominance: connection '" + c.name + "': ";
        if (c.bytes.size() != units) {
            throw InputError(what + std::to_string(c.bytes.size()) + " units, but '"
                             + connections.front().name + "' has " + std::to_string(units));
        }
        checkLimit(c.limit, what);
        demand.push_back(smooth(c.bytes, window, what));
    }
    Dominance d;
    d.dominant.assign(units, -1);
    d.ratio.assign(units, 0.0);
    d.units.assign(connections.size(), 0);
    d.extra_units.assign(connections.size(), 0.0);
    double total = 0;
    for (std::size_t i = 0; i < units; ++i) {
        int best = 0;
        double ratio = demandRatio(demand[0][i], connections[0].limit, i, {}, &connections[0].name);
        for (std::size_t c = 1; c < connections.size(); ++c) {
            const double r = demandRatio(demand[c][i], connections[c].limit, i, {}, &connections[c].name);
            if (r > ratio) {
                ratio = r;
                best = int(c);
            }
        }
        d.ratio[i] = ratio;
        if (ratio > 1) {
            d.dominant[i] = best;
            ++d.units[std::size_t(best)];
            d.extra_units[std::size_t(best)] += ratio - 1;
        } else {
            ++d.free_units;
        }
        total += std::max(1.0, ratio);
        if (!std::isfinite(total) || !std::isfinite(d.extra_units[std::size_t(best)]))
            throw InputError("dominance: unit " + std::to_string(i + 1) + ": " + tooLarge("the units under the limits"));
    }
    d.slowdown = total / double(units);
    return d;
}

} // namespace crossroof::core
