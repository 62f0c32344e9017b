// SPDX-License-Identifier: GPL-3.0-or-later
// The chain's model and its exact solver; the literal chain is in literal_chain.cpp, the surfaces in
// markov_surface.cpp.
#include "core/markov/markov.h"

#include "core/markov/literal_chain.h"

#include "core/markov/markov_math.h"
#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace crossroof::core {

using detail::checkProbability;
using detail::checkSteps;
using detail::isPeriodic;
using detail::kInf;
using detail::logSuspended;

namespace {

/// Steps beyond this are refused: (q - p)^t is exact for integer t up to 2^53, and no chain needs more.
constexpr long long kMaxSteps = 1'000'000'000'000LL;

/// Fills P_all, 1 - P_all and the CPI from log P_all.
void fillFromLog(double logPAll, MarkovResult &r)
{
    if (logPAll == -kInf) {
        r.p_all_suspended = 0;
        r.p_any_active = 1;
    } else {
        r.p_all_suspended = std::exp(logPAll);
        r.p_any_active = std::max(0.0, -std::expm1(logPAll));
    }
    r.cpi = r.p_any_active > 0 ? 1 / r.p_any_active : kInf;
    r.infinite = !std::isfinite(r.cpi);
    if (r.infinite)
        r.cpi = kInf;
}

} // namespace

namespace detail {

void checkSteps(std::optional<long long> steps)
{
    if (steps && (*steps < 0 || *steps > kMaxSteps)) {
        throw InputError("steps must be between 0 and " + formatNumber(double(kMaxSteps)) + " (got "
                         + std::to_string(*steps) + ")");
    }
}

void checkProbability(double v, const std::string &what)
{
    if (!(v >= 0 && v <= 1))
        throw InputError(what + " must be between 0 and 1 (got " + formatNumber(v) + ")");
}

} // namespace detail

MarkovTopology uniformTopology(int groups, int threadsPerGroup, double p, double q)
{
    return MarkovTopology(std::size_t(std::max(groups, 0)), CacheGroup{threadsPerGroup, p, q});
}

void validate(const MarkovTopology &topology)
{
    if (topology.empty())
        throw InputError("the topology needs at least one cache group");
    if (topology.size() > kMaxGroups) {
        throw InputError("at most " + std::to_string(kMaxGroups) + " cache groups (got "
                         + std::to_string(topology.size()) + ")");
    }
    for (std::size_t g = 0; g < topology.size(); ++g) {
        const auto &group = topology[g];
        const std::string name = "group " + std::to_string(g + 1);
        if (group.threads < 1 || group.threads > kMaxThreadsPerGroup) {
            throw InputError(name + ": threads must be between 1 and " + std::to_string(kMaxThreadsPerGroup)
                             + " (got " + std::to_string(group.threads) + ")");
        }
        checkProbability(group.p, name + ": p");
        checkProbability(group.q, name + ": q");
    }
}

double systemStateCount(const MarkovTopology &topology)
{
    double states = 1;
    for (const auto &g : topology)
        states *= double(g.threads) + 1;
    return states;
}

double systemStateCountLog10(std::span<const int> threadsPerGroup)
{
    // Compensated: a million terms of 6.0000004 keep the mantissa that systemStateCountText() prints.
    double sum = 0, lost = 0;
    for (int n : threadsPerGroup) {
        const double term = std::log10(double(n) + 1);
        const double next = sum + term;
        lost += std::abs(sum) >= std::abs(term) ? (sum - next) + term : (term - next) + sum;
        sum = next;
    }
    return sum + lost;
}

std::string systemStateCountText(std::span<const int> threadsPerGroup)
{
    double states = 1;
    for (int n : threadsPerGroup)
        states *= double(n) + 1;
    char text[64];
    if (std::isfinite(states)) {
        std::snprintf(text, sizeof text, "%.15g", states);
        return text;
    }
    const double log10 = systemStateCountLog10(threadsPerGroup);
    const double exponent = std::floor(log10);
    std::snprintf(text, sizeof text, "about %.6ge+%.0f", std::pow(10.0, log10 - exponent), exponent);
    return text;
}

long long threadCount(const MarkovTopology &topology)
{
    long long n = 0;
    for (const auto &g : topology)
        n += g.threads;
    return n;
}

std::string_view markovSolverName(MarkovSolver solver)
{
    return solver == MarkovSolver::Literal ? "literal" : "exact";
}

std::optional<MarkovSolver> markovSolverFromName(std::string_view name)
{
    if (name == "exact")
        return MarkovSolver::Exact;
    if (name == "literal")
        return MarkovSolver::Literal;
    return std::nullopt;
}

MarkovResult solveMarkovExact(const MarkovTopology &topology, std::optional<long long> steps)
{
    validate(topology);
    checkSteps(steps);
    double logPAll = 0;
    bool periodic = false;
    for (const auto &g : topology) {
        if (!steps && isPeriodic(g.p, g.q)) {
            periodic = true; // all such groups are in lockstep: they contribute one factor 1/2 together
            continue;
        }
        logPAll += g.threads * logSuspended(g.p, g.q, steps);
    }
    if (periodic)
        logPAll += std::log(0.5);
    MarkovResult r;
    r.solver = MarkovSolver::Exact;
    r.steps = steps;
    r.system_states = systemStateCount(topology);
    fillFromLog(logPAll, r);
    return r;
}

MarkovResult solveMarkov(const MarkovTopology &topology, MarkovSolver solver, std::optional<long long> steps)
{
    if (solver == MarkovSolver::Exact)
        return solveMarkovExact(topology, steps);
    checkSteps(steps);
    const LiteralMarkovChain chain(topology);
    return steps ? chain.transient(*steps) : chain.steadyState();
}

} // namespace crossroof::core
