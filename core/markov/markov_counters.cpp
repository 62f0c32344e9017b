// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/markov_counters.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/markov/markov.h"

#include <algorithm>
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

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string eventName(std::string_view name, std::size_t index)
{
    return name.empty() ? "event " + std::to_string(index + 1) : "event '" + std::string(name) + "'";
}

void checkCount(double v, const std::string &what)
{
    if (!std::isfinite(v) || v < 0)
        throw InputError(what + " must be a finite number >= 0 (got " + formatNumber(v) + ")");
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

PEstimate estimateP(std::span<const SuspendEvent> events, double instructions)
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
        const double pec = (e.multi - e.single) / instructions; // Eq. 6, one term
        r.pec.push_back(pec);
        r.rejected.push_back(pec < 0); // Table 4.4, event B: fewer in the parallel run, no stall cause
        if (pec < 0)
            continue;
        accepted += e.multi - e.single;
        if (!r.vector.lowest_event || pec < r.pec[*r.vector.lowest_event])
            r.vector.lowest_event = i;
        if (!r.vector.highest_event || pec > r.pec[*r.vector.highest_event])
            r.vector.highest_event = i;
    }
    r.vector.all = accepted / instructions;
    if (r.vector.all > 1) {
        throw InputError("p = " + formatNumber(r.vector.all)
                         + " exceeds 1: more extra stall events than instructions retired");
    }
    if (r.vector.lowest_event) {
        r.vector.lowest = r.pec[*r.vector.lowest_event];
        r.vector.highest = r.pec[*r.vector.highest_event];
    }
    return r;
}

QEstimate estimateQ(std::span<const StallEvent> events)
{
    QEstimate r;
    double totalCycles = 0;
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
        weighted += cycles * e.latency;
        if (cycles <= 0)
            continue; // contributes nothing: neither lowest nor highest
        if (!r.vector.lowest_event || cycles < r.cycles[*r.vector.lowest_event])
            r.vector.lowest_event = i;
        if (!r.vector.highest_event || cycles > r.cycles[*r.vector.highest_event])
            r.vector.highest_event = i;
    }
    if (!(totalCycles > 0) || !std::isfinite(weighted))
        throw InputError("q needs at least one stall event with a count > 0");
    r.mean_latency = weighted / totalCycles; // Eq. 8, w_i = c_i / sum c
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

NearestPair nearestStartingPair(std::span<const StartingPair> pairs, std::span<const int> threadsPerGroup,
                                double measuredCpi, std::optional<long long> steps)
{
    if (!std::isfinite(measuredCpi) || measuredCpi < 1)
        throw InputError("measured CPI must be a finite number >= 1 (got " + formatNumber(measuredCpi) + ")");
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

} // namespace crossroof::core
