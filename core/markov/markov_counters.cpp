// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/markov_counters.h"

#include "core/markov/counter_rules.h"

#include "core/support/error.h"
#include "core/support/json_reader.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/markov/markov.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace crossroof::core {

CounterInputs CounterInputs::thesisExample()
{
    CounterInputs in;
    in.instructions = 50;
    in.suspend = {{"A", 20, 10}, {"B", 15, 17}, {"C", 30, 15}};
    in.stall = {{"X", 10, 3}, {"Y", 2, 5}, {"Z", 15, 10}, {"W", 25, 2}};
    return in;
}

namespace {

using detail::json;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uintmax_t kMaxCounterFileBytes = 16 << 20; // a counter file lists events, not samples

std::string eventName(std::string_view name, std::size_t index)
{
    return name.empty() ? "event " + std::to_string(index + 1) : "event '" + std::string(name) + "'";
}

void checkCount(double v, const std::string &what)
{
    if (!std::isfinite(v) || v < 0)
        throw InputError(what + " must be a finite number >= 0 (got " + formatNumber(v) + ")");
}

/// Why p > 1: EXTRA stall events against INSTRUCTIONS retired, as counts (their ratio may be beyond a double).
std::string tooManyExtra(double extra, double instructions)
{
    const double p = extra / instructions;
    return (std::isfinite(p) ? "p = " + formatNumber(p) + " exceeds 1" : std::string("p exceeds 1"))
           + ": more extra stall events (" + formatNumber(extra) + ") than instructions retired ("
           + formatNumber(instructions) + ")";
}

MarkovTopology shapeOf(std::span<const int> threadsPerGroup, double p, double q)
{
    MarkovTopology t;
    for (int n : threadsPerGroup)
        t.push_back({n, p, q});
    validate(t);
    return t;
}

} // namespace

std::string_view pecKindName(PecKind kind)
{
    switch (kind) {
    case PecKind::Lowest:
        return "lowest";
    case PecKind::Highest:
        return "highest";
    case PecKind::All:
        return "all";
    }
    return "all";
}

double PecVector::value(PecKind kind) const
{
    switch (kind) {
    case PecKind::Lowest:
        return lowest;
    case PecKind::Highest:
        return highest;
    case PecKind::All:
        return all;
    }
    return all;
}

std::string_view suspendDifferenceName(SuspendDifference d)
{
    return d == SuspendDifference::MultiMinusSingle ? "multi-single" : "single-multi";
}

std::string_view latencyWeightingName(LatencyWeighting w)
{
    return w == LatencyWeighting::StallCycles ? "cycles" : "occurrences";
}

CounterInputs readCounterFile(const std::string &path)
{
    const std::string label = path == "-" ? std::string("standard input") : path;
    const json doc = detail::parseJsonText(readTextFile(path, kMaxCounterFileBytes, "counter file"), label);
    const detail::JsonReader r(label);
    if (!doc.is_object())
        r.fail("", "must be an object with \"instructions\", \"suspend\" and \"stall\"");
    for (const auto &item : doc.items()) {
        const std::string &key = item.key();
        if (key != "instructions" && key != "suspend" && key != "stall" && key != "measured_cpi")
            r.fail(key, "is not a counter field (instructions, suspend, stall, measured_cpi)");
    }
    constexpr double kHuge = 1e300;
    CounterInputs c;
    c.instructions = r.number(doc, "instructions", "instructions", 0, kHuge, 0); // needed only for p
    const auto list = [&](const char *key) -> const json & {
        static const json empty = json::array();
        if (!doc.contains(key))
            return empty;
        if (!doc[key].is_array())
            r.fail(key, "must be an array of events");
        return doc[key];
    };
    const auto object = [](const detail::JsonReader &er, const json &e, std::initializer_list<const char *> keys) {
        if (!e.is_object())
            er.fail("", "must be an object");
        for (const auto &item : e.items()) {
            if (std::none_of(keys.begin(), keys.end(), [&](const char *k) { return item.key() == k; }))
                er.fail(item.key(), "is not an event field");
        }
    };
    const json &suspend = list("suspend");
    for (std::size_t i = 0; i < suspend.size(); ++i) {
        const detail::JsonReader er = r.nested("suspend[" + std::to_string(i) + "].");
        object(er, suspend[i], {"name", "multi", "single"});
        c.suspend.push_back({er.string(suspend[i], "name", "name", false),
                             er.number(suspend[i], "multi", "multi", 0, kHuge, std::nullopt),
                             er.number(suspend[i], "single", "single", 0, kHuge, std::nullopt)});
    }
    const json &stall = list("stall");
    for (std::size_t i = 0; i < stall.size(); ++i) {
        const detail::JsonReader er = r.nested("stall[" + std::to_string(i) + "].");
        object(er, stall[i], {"name", "count", "latency"});
        c.stall.push_back({er.string(stall[i], "name", "name", false),
                           er.number(stall[i], "count", "count", 0, kHuge, std::nullopt),
                           er.number(stall[i], "latency", "latency", 1, kHuge, std::nullopt)});
    }
    if (doc.contains("measured_cpi") && !doc["measured_cpi"].is_null())
        c.measured_cpi = r.number(doc, "measured_cpi", "measured_cpi", 1, 1e6, std::nullopt);
    return c;
}

PEstimate estimateP(std::span<const SuspendEvent> events, double instructions)
{
    return estimateP(events, instructions, SuspendDifference::MultiMinusSingle);
}

QEstimate estimateQ(std::span<const StallEvent> events)
{
    return estimateQ(events, LatencyWeighting::StallCycles);
}

PEstimate estimateP(std::span<const SuspendEvent> events, double instructions, SuspendDifference difference)
{
    if (!std::isfinite(instructions) || instructions <= 0)
        throw InputError("instructions retired must be a finite number > 0 (got " + formatNumber(instructions)
                         + ")");
    PEstimate r;
    double accepted = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto &e = events[i];
        const std::string name = eventName(e.name, i);
        checkCount(e.multi, name + ": multi-threaded count");
        checkCount(e.single, name + ": single-threaded count");
        const double extra = difference == SuspendDifference::MultiMinusSingle ? e.multi - e.single
                                                                                : e.single - e.multi;
        const double pec = extra / instructions; // Eq. 6, one term
        r.pec.push_back(pec);
        r.rejected.push_back(pec < 0); // Table 4.4, event B: fewer in the parallel run, no stall cause
        if (pec < 0)
            continue;
        accepted += extra;
        if (!std::isfinite(accepted))
            throw InputError(name + ": the extra stall events add up to more than a double holds (about 1.8e308)");
        if (!std::isfinite(pec))
            throw InputError(name + ": " + tooManyExtra(extra, instructions));
        if (!r.vector.lowest_event || pec < r.pec[*r.vector.lowest_event])
            r.vector.lowest_event = i;
        if (!r.vector.highest_event || pec > r.pec[*r.vector.highest_event])
            r.vector.highest_event = i;
    }
    r.vector.all = accepted / instructions;
    if (r.vector.all > 1)
        throw InputError(tooManyExtra(accepted, instructions));
    if (r.vector.lowest_event) {
        r.vector.lowest = r.pec[*r.vector.lowest_event];
        r.vector.highest = r.pec[*r.vector.highest_event];
    }
    return r;
}

QEstimate estimateQ(std::span<const StallEvent> events, LatencyWeighting weighting)
{
    QEstimate r;
    double totalCycles = 0;
    double occurrences = 0;
    double weighted = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto &e = events[i];
        const std::string name = eventName(e.name, i);
        checkCount(e.count, name + ": count");
        if (!std::isfinite(e.latency) || e.latency < 1) {
            throw InputError(name + ": latency must be a finite number of cycles >= 1 (got "
                             + formatNumber(e.latency) + ")");
        }
        const double cycles = e.count * e.latency;
        r.q.push_back(1 - 1 / e.latency); // Eq. 7
        r.cycles.push_back(cycles);
        totalCycles += cycles;
        occurrences += e.count;
        weighted += cycles * e.latency;
        if (!std::isfinite(weighted)) {
            // count x latency^2 (Eq. 8's numerator), summed over the events: the largest product involved.
            throw InputError(name + ": count " + formatNumber(e.count) + " x latency " + formatNumber(e.latency)
                             + " cycles, squared latency weighting: more than a double holds (about 1.8e308)");
        }
        if (cycles <= 0)
            continue; // contributes nothing: neither lowest nor highest
        if (!r.vector.lowest_event || cycles < r.cycles[*r.vector.lowest_event])
            r.vector.lowest_event = i;
        if (!r.vector.highest_event || cycles > r.cycles[*r.vector.highest_event])
            r.vector.highest_event = i;
    }
    if (!(totalCycles > 0) || !std::isfinite(weighted))
        throw InputError("q needs at least one stall event with a count > 0");
    // Eq. 8 with w_i = c_i / sum c, or Table 5.21's sum f m^2 / sum f.
    r.mean_latency = weighted / (weighting == LatencyWeighting::StallCycles ? totalCycles : occurrences);
    r.vector.all = 1 - 1 / r.mean_latency;
    r.vector.lowest = r.q[*r.vector.lowest_event];
    r.vector.highest = r.q[*r.vector.highest_event];
    return r;
}

std::array<StartingPair, 9> startingPairs(const PecVector &p, const PecVector &q)
{
    constexpr std::array<PecKind, 3> kinds{PecKind::Lowest, PecKind::Highest, PecKind::All};
    std::array<StartingPair, 9> pairs;
    std::size_t k = 0;
    for (PecKind pk : kinds) {
        for (PecKind qk : kinds)
            pairs[k++] = {pk, qk, p.value(pk), q.value(qk)};
    }
    return pairs;
}

std::string measuredCpiBelowOne(double measuredCpi)
{
    return "measured CPI " + formatNumber(measuredCpi)
           + " is below 1, which the Markov model cannot reach: its active thread retires one instruction per "
             "cycle (CPI = 1 / (1 - P_all) >= 1, a single-issue core), while a superscalar core retires several; "
             "no starting pair is chosen for it";
}

NearestPair nearestStartingPair(std::span<const StartingPair> pairs, std::span<const int> threadsPerGroup,
                                double measuredCpi, std::optional<long long> steps)
{
    if (!std::isfinite(measuredCpi))
        throw InputError("measured CPI must be a finite number >= 1 (got " + formatNumber(measuredCpi) + ")");
    if (measuredCpi < 1)
        throw InputError(measuredCpiBelowOne(measuredCpi));
    if (pairs.empty())
        throw InputError("no starting pairs to choose from");
    NearestPair r;
    r.error = kInf;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const MarkovResult m = solveMarkovExact(shapeOf(threadsPerGroup, pairs[i].p, pairs[i].q), steps);
        r.cpi.push_back(m.cpi);
        const double error = std::abs(m.cpi - measuredCpi);
        if (i == 0 || error < r.error) {
            r.index = i;
            r.error = error;
        }
    }
    return r;
}

std::vector<PQPoint> isoCpiCurve(std::span<const int> threadsPerGroup, double cpi,
                                 std::span<const double> qValues)
{
    const double n = double(threadCount(shapeOf(threadsPerGroup, 0, 0)));
    if (!std::isfinite(cpi) || cpi < 1)
        throw InputError("CPI must be a finite number >= 1 (got " + formatNumber(cpi) + ")");
    for (double q : qValues) {
        if (!(q >= 0 && q <= 1))
            throw InputError("q must be between 0 and 1 (got " + formatNumber(q) + ")");
    }
    std::vector<double> qs(qValues.begin(), qValues.end());
    std::sort(qs.begin(), qs.end());
    qs.erase(std::unique(qs.begin(), qs.end()), qs.end());

    std::vector<PQPoint> curve;
    if (cpi == 1) { // P_all = 0: only p = 0 reaches it
        for (double q : qs)
            curve.push_back({0, q});
        return curve;
    }
    // s^N = P_all = 1 - 1/CPI; 1 - s without cancellation.
    const double logS = std::log1p(-1 / cpi) / n;
    const double s = std::exp(logS);
    const double oneMinusS = -std::expm1(logS);
    const double qEnd = 2 - 1 / s; // p = 1 here; below it p would exceed 1
    for (double q : qs) {
        if (q == 1)
            continue; // CPI jumps there: 1 at p = 0, infinite for p > 0
        if (q < qEnd)
            continue;
        curve.push_back({std::min(1.0, s * (1 - q) / oneMinusS), q});
    }
    if (qEnd >= 0 && qEnd < 1 && (curve.empty() || curve.front().q > qEnd))
        curve.insert(curve.begin(), PQPoint{1, qEnd});
    return curve;
}

const std::vector<std::string> &defaultRecordingEvents()
{
    static const std::vector<std::string> events{"cycles", "instructions", "LLC-load-misses", "dTLB-load-misses",
                                                 "branch-misses"};
    return events;
}

RecordingCommands recordingCommands(std::span<const std::string> events, std::string_view program)
{
    std::string list;
    for (const std::string &e : events)
        list += (list.empty() ? "" : ",") + e;
    const bool plain = std::all_of(list.begin(), list.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_.:/=,-").find(c) != std::string_view::npos;
    });
    if (!plain) {
        std::string quoted = "'";
        for (char c : list)
            quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        list = quoted + "'";
    }
    const std::string perf = "perf stat -x, -e " + list;
    return {perf + " -o multi.csv " + std::string(program), perf + " -o single.csv taskset -c 0 " + std::string(program)};
}

} // namespace crossroof::core
