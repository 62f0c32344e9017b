// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/markov/cpu_topology.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/markov/markov.h"
#include "core/profiles/profile_library.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <cmath>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

constexpr long long kMaxSteps = 1'000'000'000'000LL;

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
    return probabilityValue(args.value(name), "option '--" + name + "'");
}

std::optional<long long> stepsOption(const Args &args)
{
    if (!args.has("steps"))
        return std::nullopt;
    return args.integer("steps", 0, 0, kMaxSteps);
}

/// The state count as a JSON integer while it is exact, a double beyond 2^53, null beyond a double (where
/// system_states_log10 says how many).
Json stateCount(double states)
{
    if (!std::isfinite(states))
        return nullptr;
    return states <= 9007199254740992.0 ? Json(static_cast<unsigned long long>(states)) : Json(states);
}

Json cpiJson(double cpi, bool infinite)
{
    return infinite ? Json(nullptr) : Json(cpi);
}

/// The model's cache groups: G x N from --groups and --threads-per-group, or the caches a mapping strategy
/// of a CPU profile uses (--profile, --strategy), as the GUI's topology box offers them.
struct Shape
{
    std::vector<int> threads; ///< per group
    std::string profile;      ///< with a strategy
    std::string strategy;
    long long total() const { return std::accumulate(threads.begin(), threads.end(), 0LL); }
    bool uniform() const { return std::adjacent_find(threads.begin(), threads.end(), std::not_equal_to<>()) == threads.end(); }
};

Shape shapeFrom(const Args &args)
{
    Shape s;
    if (!args.has("strategy")) {
        if (args.has("profile"))
            throw InputError("option '--profile' goes with '--strategy' (a mapping strategy of a CPU profile)");
        const long long groups = required(args, "groups", 1, (long long)core::kMaxGroups);
        const long long threads = required(args, "threads-per-group", 1, core::kMaxThreadsPerGroup);
        s.threads.assign(std::size_t(groups), int(threads));
        return s;
    }
    if (args.has("groups") || args.has("threads-per-group"))
        throw InputError("option '--strategy' replaces '--groups' and '--threads-per-group'; give one or the other");
    if (!args.has("profile"))
        throw InputError("option '--strategy' needs '--profile' (the CPU profile that defines it)");
    const core::HardwareProfile prof = core::resolveProfile(args.value("profile"));
    if (!prof.topology || prof.topology->strategies.empty())
        throw InputError("option '--profile': " + prof.id + " has no mapping strategies (a CPU profile with a topology has)");
    s.profile = prof.id;
    s.strategy = args.value("strategy");
    const core::MappingStrategy *strategy = prof.topology->findStrategy(s.strategy);
    if (!strategy) {
        std::string ids;
        for (const auto &st : prof.topology->strategies)
            ids += (ids.empty() ? "" : ", ") + st.id;
        throw InputError("option '--strategy': " + prof.id + " has no strategy '" + core::quoteForMessage(s.strategy) + "' (it has " + ids + ")");
    }
    s.threads = core::mappingUsage(*prof.topology, *strategy).threads_per_cache;
    return s;
}

std::string topologyText(const Shape &shape)
{
    const auto count = [](long long n, const char *what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::string text = shape.strategy.empty() ? std::string() : shape.strategy + " of " + shape.profile + ": ";
    if (shape.uniform())
        text += count((long long)shape.threads.size(), "group") + " x " + count(shape.threads.front(), "thread");
    else
        text += core::markovShapeText(shape.threads) + " (groups x threads)";
    return text + " (" + count(shape.total(), "thread") + "), " + core::systemStateCountText(shape.threads)
           + " system states";
}

/// What every Markov JSON output says about the topology.
void shapeJson(const Shape &shape, Json &j)
{
    j["groups"] = shape.threads.size();
    j["threads_per_group"] = shape.uniform() ? Json(shape.threads.front()) : Json(nullptr);
    j["group_threads"] = shape.threads;
    j["threads"] = shape.total();
    if (!shape.strategy.empty()) {
        j["profile"] = shape.profile;
        j["strategy"] = shape.strategy;
    }
}

std::string stepsText(const std::optional<long long> &steps)
{
    return steps ? "after " + std::to_string(*steps) + " steps from all-active" : "steady state";
}

void runMarkov(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"groups", "threads-per-group", "profile", "strategy", "p", "q", "steps", "solver"}, {}});
    const Shape shape = shapeFrom(args);
    const double p = probability(args, "p");
    const double q = probability(args, "q");
    const std::optional<long long> steps = stepsOption(args);
    const std::string solverName = args.value("solver", "exact");
    const auto solver = core::markovSolverFromName(solverName);
    if (!solver)
        throw InputError("option '--solver': must be exact or literal (got '" + solverName + "')");

    core::MarkovTopology topology;
    for (int n : shape.threads)
        topology.push_back({n, p, q});
    core::MarkovResult r;
    try {
        r = core::solveMarkov(topology, *solver, steps);
    } catch (const InputError &e) {
        if (*solver != core::MarkovSolver::Literal)
            throw;
        throw InputError(std::string("option '--solver literal': ") + e.what());
    }

    if (!args.flag("json")) {
        out << "Topology  " << topologyText(shape) << '\n'
            << "Threads   p=" << fmt(p, "%.6g") << " (active -> suspended), q=" << fmt(q, "%.6g") << " (suspended stays)\n"
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
    j["system_states_log10"] = core::systemStateCountLog10(shape.threads);
    j["solver"] = core::markovSolverName(r.solver);
    j["steps"] = r.steps ? Json(*r.steps) : Json(nullptr);
    if (r.solver == core::MarkovSolver::Literal)
        j["iterations"] = r.iterations;
    shapeJson(shape, j);
    j["p"] = p;
    j["q"] = q;
    out << jsonOutput(j) << '\n';
}

Json extremeJson(const core::MarkovSurface::Extreme &e)
{
    return {{"cpi", cpiJson(e.cpi, e.infinite)}, {"p", e.p}, {"q", e.q}, {"infinite", e.infinite}};
}

void runMarkovSurface(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"groups", "threads-per-group", "profile", "strategy", "grid", "steps", "format"},
                           {}});
    const OutputFormat format = outputFormat(args);
    const Shape shape = shapeFrom(args);
    const std::optional<long long> steps = stepsOption(args);
    core::MarkovGrid grid;
    try {
        grid = core::MarkovGrid::fromText(args.value("grid", "thesis"));
    } catch (const InputError &e) {
        throw InputError(std::string("option '--grid': ") + e.what());
    }

    const core::MarkovSurface s = core::markovSurface(shape.threads, grid, steps);

    if (format == OutputFormat::Csv) {
        // One row per grid point, q outer and p inner: the order of the JSON grid read row by row.
        writeCsvRow(out, {"p", "q", "cpi"});
        for (std::size_t jq = 0; jq < s.q.size(); ++jq) {
            for (std::size_t ip = 0; ip < s.p.size(); ++ip)
                writeCsvRow(out, {csvNumber(s.p[ip]), csvNumber(s.q[jq]), csvNumber(s.at(ip, jq))});
        }
        return;
    }
    if (format == OutputFormat::Text) {
        const auto extreme = [](const core::MarkovSurface::Extreme &e) {
            return (e.infinite ? std::string("infinite") : fmt(e.cpi, "%.10g")) + " at p=" + fmt(e.p, "%.6g")
                    + ", q=" + fmt(e.q, "%.6g");
        };
        out << "Topology  " << topologyText(shape) << '\n'
            << "Grid      " << grid.text() << ", " << s.p.size() << " x " << s.q.size() << " (p and q from "
            << fmt(s.p.front(), "%.6g") << " to " << fmt(s.p.back(), "%.6g") << "), " << stepsText(steps) << '\n'
            << "Maximum   CPI " << extreme(s.max) << '\n'
            << "Minimum   CPI " << extreme(s.min) << '\n'
            << "(--format json or --format csv prints every value)\n";
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
    shapeJson(shape, j);
    j["system_states"] = stateCount(s.system_states);
    j["system_states_log10"] = core::systemStateCountLog10(shape.threads);
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli markov (--groups G --threads-per-group N | --profile ID|PATH --strategy S)\n"
          "                            --p P --q Q [--steps T] [--solver exact|literal] [--json]\n\n"
          "The Markov CPI model (Mitra's thesis, 4.2): G cache groups of N threads; per step an\n"
          "active thread suspends with probability p and a suspended one stays suspended with q.\n"
          "CPI = 1 / (1 - P_all), P_all = probability that every thread is suspended.\n\n"
          "  --groups G             cache groups (L2 caches)\n"
          "  --threads-per-group N  threads per group\n"
          "  --profile ID|PATH      a CPU profile with mapping strategies (e.g. clovertown-x5365) ...\n"
          "  --strategy S           ... and one of them (e.g. 4T_4): one group per shared cache it uses,\n"
          "                         with the threads bound to that cache's cores\n"
          "  --p P, --q Q           the thread transitional probability pair, each in [0, 1]\n"
          "  --steps T              the transient after T steps from all-active; default: steady state\n"
          "  --solver exact|literal exact: product form, any size (default); literal: the dense system\n"
          "                         chain of (N+1)^G states, power steps as in appendix A,\n"
          "                         at most 10000 states\n"
          "  --json                 JSON output {\"cpi\":..,\"p_all_suspended\":..,\"system_states\":..,\n"
          "                         \"solver\":..,\"infinite\":..}; \"cpi\" is null when infinite: every\n"
          "                         thread ends up suspended for good (q = 1 with p > 0, or p = q = 1)\n";

constexpr const char *kSurfaceHelp
        = "Usage: crossroof-cli markov-surface (--groups G --threads-per-group N | --profile ID --strategy S)\n"
          "                                    [--grid thesis|uniform:K|logit:K] [--steps T]\n"
          "                                    [--format text|json|csv] [--json]\n\n"
          "Predicted CPI of the Markov model over a grid of (p, q), the same pair in every group\n"
          "(Fig. 5.15, Table 5.18 of Mitra's thesis).\n\n"
          "  --groups G             cache groups (L2 caches)\n"
          "  --threads-per-group N  threads per group\n"
          "  --profile, --strategy  a mapping strategy of a CPU profile instead (as for markov)\n"
          "  --grid thesis          the 25 values per axis of section 5.3.1, 0.001 .. 0.999 (default)\n"
          "  --grid uniform:K       K values evenly spaced in 0.001 .. 0.999 (2 <= K <= 2000)\n"
          "  --grid logit:K         K values evenly spaced in log(p / (1 - p)): dense at both extremes\n"
          "  --steps T              the transient after T steps from all-active; default: steady state\n"
          "  --format json          JSON output {\"p\":[..],\"q\":[..],\"cpi\":[[..]],\"max\":{..},\n"
          "                         \"min\":{..}} with cpi[j][i] at q[j], p[i]\n"
          "  --format csv           CSV, one row per grid point (q outer, p inner): p,q,cpi; cpi is empty\n"
          "                         where it is infinite (null in JSON)\n"
          "  --json                 the same as --format json; without either, a summary (--format text)\n";

} // namespace

const Command kMarkovCommand{"markov", "CPI of the Markov thread model (steady state or transient)", kHelp,
                             runMarkov};
const Command kMarkovSurfaceCommand{"markov-surface", "Markov model CPI over a (p, q) grid", kSurfaceHelp,
                                    runMarkovSurface};

} // namespace crossroof::cli
