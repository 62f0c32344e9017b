// SPDX-License-Identifier: GPL-3.0-or-later
#include "bandwidth_curve.h"

#include "error.h"
#include "text.h"
#include "perf_stat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
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
    // Prefix sums keep the rounding of each mean independent of the trace length.
    std::vector<double> prefix(bytes.size() + 1, 0.0);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        prefix[i + 1] = prefix[i] + bytes[i];
    std::vector<double> out(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const std::size_t from = i + 1 >= window ? i + 1 - window : 0;
        out[i] = window == 1 ? bytes[i] : (prefix[i + 1] - prefix[from]) / double(i + 1 - from);
    }
    return out;
}

/// Value of KEY=NUMBER inside a perf event name ("imc/event=0x04,umask=0x0f/"), hex with 0x.
std::optional<unsigned> eventField(std::string_view name, std::string_view key)
{
    std::size_t at = 0;
    while ((at = name.find(key, at)) != std::string_view::npos) {
        const bool boundary = at == 0 || name[at - 1] == '/' || name[at - 1] == ',';
        at += key.size();
        if (!boundary || at >= name.size() || name[at] != '=')
            continue;
        std::string_view v = name.substr(at + 1);
        v = v.substr(0, v.find_first_of(",/"));
        int base = 10;
        if (v.starts_with("0x") || v.starts_with("0X")) {
            v.remove_prefix(2);
            base = 16;
        }
        unsigned value = 0;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value, base);
        if (ec == std::errc() && ptr == v.data() + v.size() && !v.empty())
            return value;
        return std::nullopt;
    }
    return std::nullopt;
}

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

bool isCasEvent(std::string_view name, bool read)
{
    if (contains(name, read ? "cas_count_read" : "cas_count_write")
        || contains(name, read ? "cas_count.rd" : "cas_count.wr"))
        return true;
    if (!contains(name, "imc"))
        return false;
    const auto event = eventField(name, "event");
    const auto umask = eventField(name, "umask");
    if (!event || *event != 0x04 || !umask)
        return false;
    return read ? (*umask == 0x0f || *umask == 0x03) : (*umask == 0x30 || *umask == 0x0c);
}

} // namespace

std::vector<double> smoothDemand(std::span<const double> bytes, std::size_t window)
{
    return smooth(bytes, window, "bandwidth curve: ");
}

double slowdownUnderLimit(std::span<const double> demand, double limit)
{
    checkLimit(limit, "bandwidth curve: ");
    if (demand.empty())
        return 1;
    double units = 0;
    for (double d : demand)
        units += std::max(1.0, d / limit); // a unit with demand d takes max(1, d/B) units under the limit
    return units / double(demand.size());
}

BandwidthCurve bandwidthCurve(std::span<const double> bytes, std::size_t window, double limit)
{
    checkLimit(limit, "bandwidth curve: ");
    BandwidthCurve c;
    c.sorted = smoothDemand(bytes, window);
    std::sort(c.sorted.begin(), c.sorted.end(), std::greater<>());
    c.units = c.sorted.size();
    c.limit = limit;
    for (double b : bytes)
        c.total_bytes += b;
    for (double d : c.sorted) {
        c.area += d;
        c.units_over_limit += d > limit ? 1 : 0;
    }
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
        double ratio = demand[0][i] / connections[0].limit;
        for (std::size_t c = 1; c < connections.size(); ++c) {
            const double r = demand[c][i] / connections[c].limit;
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
    }
    d.slowdown = total / double(units);
    return d;
}

std::vector<double> MemoryDemand::gbs() const
{
    std::vector<double> out(bytes.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = seconds[i] > 0 ? bytes[i] / seconds[i] / 1e9 : 0.0;
    return out;
}

MemoryDemand memoryDemandFromPerfStat(const PerfStat &stat, double bytesPerCas)
{
    if (!stat.interval_mode || stat.times.empty()) {
        throw InputError(stat.source
                         + ": not interval output; a demand trace needs perf stat -I (one line per "
                           "interval)");
    }
    if (!std::isfinite(bytesPerCas) || bytesPerCas <= 0)
        throw InputError("memory demand: bytes per CAS must be a finite number > 0 (got " + formatNumber(bytesPerCas)
                         + ")");
    MemoryDemand m;
    m.times = stat.times;
    m.seconds.resize(m.times.size());
    for (std::size_t i = 0; i < m.times.size(); ++i)
        m.seconds[i] = m.times[i] - (i ? m.times[i - 1] : 0.0);
    m.read_bytes.assign(m.times.size(), 0.0);
    m.write_bytes.assign(m.times.size(), 0.0);
    for (const PerfStatEvent &e : stat.events) {
        for (const bool read : {true, false}) {
            if (!isCasEvent(e.name, read))
                continue;
            (read ? m.read_events : m.write_events).push_back(e.name);
            auto &target = read ? m.read_bytes : m.write_bytes;
            for (std::size_t i = 0; i < target.size() && i < e.per_interval.size(); ++i)
                target[i] += e.per_interval[i] * bytesPerCas;
        }
    }
    if (m.read_events.empty() || m.write_events.empty()) {
        std::string list;
        for (const auto &e : stat.events)
            list += (list.empty() ? "" : ", ") + e.name;
        throw InputError(stat.source + ": no memory-controller CAS "
                         + (m.read_events.empty() ? "read" : "write") + " event (e.g. imc/event=0x04,umask="
                         + (m.read_events.empty() ? "0x0f" : "0x30") + "/); events: " + list);
    }
    m.bytes.resize(m.times.size());
    for (std::size_t i = 0; i < m.bytes.size(); ++i)
        m.bytes[i] = m.read_bytes[i] + m.write_bytes[i];
    return m;
}

} // namespace crossroof::core
