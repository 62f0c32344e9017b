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
    // Prefix sums keep the rounding of each mean independent of the trace length; the raw total (the last
    // one) must stay a double, and so then does every mean.
    std::vector<double> prefix(bytes.size() + 1, 0.0);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        prefix[i + 1] = prefix[i] + bytes[i];
        if (!std::isfinite(prefix[i + 1]))
            throw InputError(what + "unit " + std::to_string(i + 1) + ": " + tooLarge("the bytes up to this unit"));
    }
    std::vector<double> out(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const std::size_t from = i + 1 >= window ? i + 1 - window : 0;
        out[i] = window == 1 ? bytes[i] : (prefix[i + 1] - prefix[from]) / double(i + 1 - from);
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
    // The smoothed total counts the first units more than once (smoothDemand()): it can pass a double where
    // the raw total did not.
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
