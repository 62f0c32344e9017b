// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "error.h"
#include "markov.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <system_error>

namespace crossroof::cli {

namespace {

using core::InputError;
using Json = nlohmann::ordered_json;

constexpr long long kMaxSteps = 1'000'000'000'000LL;

std::string fmt(double v, const char *spec = "%.6g")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

long long required(const Args &args, const std::string &name, long long min, long long max)
{
    if (!args.has(name))
        throw InputError("option '--" + name + "' is required");
    return args.integer(name, 0, min, max);
}

double probability(const Args &args, const std::string &name)
{
    if (!args.has(name))
        throw InputError("option '--" + name + "' is required");
    const std::string text = args.value(name);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
        throw InputError("option '--" + name + "': '" + text + "' is not a number");
    if (!(v >= 0 && v <= 1))
        throw InputError("option '--" + name + "': must be between 0 and 1 (got " + text + ")");
    return v;
}

std::optional<long long> stepsOption(const Args &args)
{
    if (!args.has("steps"))
        return std::nullopt;
    return args.integer("steps", 0, 0, kMaxSteps);
}

/// The state count as a JSON integer while it is exact, a double beyond 2^53.
Json stateCount(double states)
{
    return states <= 9007199254740992.0 ? Json(static_cast<unsigned long long>(states)) : Json(states);
}

Json cpiJson(double cpi, bool infinite)
{
    return infinite ? Json(nullptr) : Json(cpi);
}

std::string topologyText(long long groups, long long threads, double states)
{
    const auto count = [](long long n, const char *what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    return count(groups, "group") + " x " + count(threads, "thread") + " ("
            + count(groups * threads, "thread") + "), " + fmt(states, "%.15g") + " system states";
}

std::string stepsText(const std::optional<long long> &steps)
{
    return steps ? "after " + std::to_string(*steps) + " steps from all-active" : "steady state";
}

void runMarkov(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"groups", "threads-per-group", "p", "q", "steps", "solver"}, {}});
    const long long groups = required(args, "groups", 1, (long long)core::kMaxGroups);
    const long long threads = required(args, "threads-per-group", 1, core::kMaxThreadsPerGroup);
    const double p = probability(args, "p");
    const double q = probability(args, "q");
    const std::optional<long long> steps = stepsOption(args);
    const std::string solverName = args.value("solver", "exact");
    const auto solver = core::markovSolverFromName(solverName);
    if (!solver)
        throw InputError("option '--solver': must be exact or literal (got '" + solverName + "')");

    const core::MarkovTopology topology = core::uniformTopology(int(groups), int(threads), p, q);
    core::MarkovResult r;
    try {
        r = core::solveMarkov(topology, *solver, steps);
    } catch (const InputError &e) {
        if (*solver != core::MarkovSolver::Literal)
            throw;
        throw InputError(std::string("option '--solver literal': ") + e.what());
    }

    if (!args.flag("json")) {
        out << "Topology  " << topologyText(groups, threads, r.system_states) << '\n'
            << "Threads   p=" << fmt(p) << " (active -> suspended), q=" << fmt(q) << " (suspended stays)\n"
            << "Solver    " << core::markovSolverName(r.solver) << ", " << stepsText(r.steps);
        if (r.solver == core::MarkovSolver::Literal)
            out << " (" << r.iterations << " power steps)";
        out << "\nP_all     " << fmt(r.p_all_suspended, "%.10g") << " (every thread suspended)\n"
            << "CPI       " << (r.infinite ? std::string("infinite (every thread suspended for good)")
                                           : fmt(r.cpi, "%.10g"))
            << '\n';
        return;
    }
    Json j;
    j["cpi"] = cpiJson(r.cpi, r.infinite);
    j["infinite"] = r.infinite;
    j["p_all_suspended"] = r.p_all_suspended;
    j["p_any_active"] = r.p_any_active;
    j["system_states"] = stateCount(r.system_states);
    j["solver"] = core::markovSolverName(r.solver);
    j["steps"] = r.steps ? Json(*r.steps) : Json(nullptr);
    if (r.solver == core::MarkovSolver::Literal)
        j["iterations"] = r.iterations;
    j["groups"] = groups;
    j["threads_per_group"] = threads;
    j["threads"] = groups * threads;
    j["p"] = p;
    j["q"] = q;
    out << j.dump(2) << '\n';
}

Json extremeJson(const core::MarkovSurface::Extreme &e)
{
    return {{"cpi", cpiJson(e.cpi, e.infinite)}, {"p", e.p}, {"q", e.q}, {"infinite", e.infinite}};
}

void runMarkovSurface(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"groups", "threads-per-group", "grid", "steps"}, {}});
    const long long groups = required(args, "groups", 1, (long long)core::kMaxGroups);
    const long long threads = required(args, "threads-per-group", 1, core::kMaxThreadsPerGroup);
    const std::optional<long long> steps = stepsOption(args);
    core::MarkovGrid grid;
    try {
        grid = core::MarkovGrid::fromText(args.value("grid", "thesis"));
    } catch (const InputError &e) {
        throw InputError(std::string("option '--grid': ") + e.what());
    }

    const std::vector<int> shape(static_cast<std::size_t>(groups), int(threads));
    const core::MarkovSurface s = core::markovSurface(shape, grid, steps);

    if (!args.flag("json")) {
        const auto extreme = [](const core::MarkovSurface::Extreme &e) {
            return (e.infinite ? std::string("infinite") : fmt(e.cpi, "%.10g")) + " at p=" + fmt(e.p)
                    + ", q=" + fmt(e.q);
        };
        out << "Topology  " << topologyText(groups, threads, s.system_states) << '\n'
            << "Grid      " << grid.text() << ", " << s.p.size() << " x " << s.q.size() << " (p and q from "
            << fmt(s.p.front()) << " to " << fmt(s.p.back()) << "), " << stepsText(steps) << '\n'
            << "Maximum   CPI " << extreme(s.max) << '\n'
            << "Minimum   CPI " << extreme(s.min) << '\n'
            << "(--json prints every value)\n";
        return;
    }
    Json rows = Json::array();
    for (std::size_t jq = 0; jq < s.q.size(); ++jq) {
        Json row = Json::array();
        for (std::size_t ip = 0; ip < s.p.size(); ++ip) {
            const double v = s.at(ip, jq);
            row.push_back(std::isinf(v) ? Json(nullptr) : Json(v));
        }
        rows.push_back(std::move(row));
    }
    Json j;
    j["p"] = s.p;
    j["q"] = s.q;
    j["cpi"] = std::move(rows);
    j["max"] = extremeJson(s.max);
    j["min"] = extremeJson(s.min);
    j["grid"] = grid.text();
    j["steps"] = steps ? Json(*steps) : Json(nullptr);
    j["groups"] = groups;
    j["threads_per_group"] = threads;
    j["threads"] = groups * threads;
    j["system_states"] = stateCount(s.system_states);
    out << j.dump(2) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli markov --groups G --threads-per-group N --p P --q Q [--steps T]\n"
          "                            [--solver exact|literal] [--json]\n\n"
          "The Markov CPI model (markov-thread-mapping.txt, 4.2): G cache groups of N threads; per step an\n"
          "active thread suspends with probability p and a suspended one stays suspended with q.\n"
          "CPI = 1 / (1 - P_all), P_all = probability that every thread is suspended.\n\n"
          "  --groups G             cache groups (L2 caches)\n"
          "  --threads-per-group N  threads per group\n"
          "  --p P, --q Q           the thread transitional probability pair, each in [0, 1]\n"
          "  --steps T              the transient after T steps from all-active; default: steady state\n"
          "  --solver exact|literal exact: product form, any size (default); literal: the dense system\n"
          "                         chain of (N+1)^G states, power steps as in appendix A,\n"
          "                         at most 10000 states\n"
          "  --json                 JSON output {\"cpi\":..,\"p_all_suspended\":..,\"system_states\":..,\n"
          "                         \"solver\":..,\"infinite\":..}; \"cpi\" is null when infinite: every\n"
          "                         thread ends up suspended for good (q = 1 with p > 0, or p = q = 1)\n";

constexpr const char *kSurfaceHelp
        = "Usage: crossroof-cli markov-surface --groups G --threads-per-group N\n"
          "                                    [--grid thesis|uniform:K|logit:K] [--steps T] [--json]\n\n"
          "Predicted CPI of the Markov model over a grid of (p, q), the same pair in every group\n"
          "(Fig. 5.15, Table 5.18 of markov-thread-mapping.txt).\n\n"
          "  --groups G             cache groups (L2 caches)\n"
          "  --threads-per-group N  threads per group\n"
          "  --grid thesis          the 25 values per axis of section 5.3.1, 0.001 .. 0.999 (default)\n"
          "  --grid uniform:K       K values evenly spaced in 0.001 .. 0.999 (2 <= K <= 2000)\n"
          "  --grid logit:K         K values evenly spaced in log(p / (1 - p)): dense at both extremes\n"
          "  --steps T              the transient after T steps from all-active; default: steady state\n"
          "  --json                 JSON output {\"p\":[..],\"q\":[..],\"cpi\":[[..]],\"max\":{..},\n"
          "                         \"min\":{..}} with cpi[j][i] at q[j], p[i]; without it, a summary\n";

} // namespace

const Command kMarkovCommand{"markov", "CPI of the Markov thread model (steady state or transient)", kHelp,
                             runMarkov};
const Command kMarkovSurfaceCommand{"markov-surface", "Markov model CPI over a (p, q) grid", kSurfaceHelp,
                                    runMarkovSurface};

} // namespace crossroof::cli
