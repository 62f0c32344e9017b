// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/markov/cpu_topology.h"
#include "core/support/error.h"
#include "core/profiles/profile_library.h"
#include "core/support/quote.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

void runMappings(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"profile", "p", "q", "steps", "format"}, {"point"}});
    const OutputFormat format = outputFormat(args);
    if (!args.has("profile"))
        throw InputError("option '--profile' is required (a CPU profile with mapping strategies, e.g. clovertown-x5365)");
    const core::HardwareProfile prof = core::resolveProfile(args.value("profile"));
    if (!prof.topology || prof.topology->strategies.empty())
        throw InputError("option '--profile': " + prof.id + " has no mapping strategies (a CPU profile with a topology has)");
    const core::CpuTopology &topo = *prof.topology;
    for (const char *name : {"p", "q"}) {
        if (!args.has(name))
            throw InputError(std::string("option '--") + name + "' is required");
    }
    const double p = probabilityValue(args.value("p"), "option '--p'");
    const double q = probabilityValue(args.value("q"), "option '--q'");
    std::optional<long long> steps;
    if (args.has("steps"))
        steps = args.integer("steps", 0, 0, 1'000'000'000'000LL);

    // --point STRATEGY=P,Q: the (p, q) measured for one strategy.
    std::vector<std::optional<std::pair<double, double>>> points(topo.strategies.size());
    for (const std::string &spec : args.all("point")) {
        const auto eq = spec.find('=');
        const auto comma = spec.find(',', eq == std::string::npos ? 0 : eq);
        if (eq == std::string::npos || comma == std::string::npos)
            throw InputError("option '--point': '" + core::quoteForMessage(spec) + "' is not STRATEGY=P,Q");
        const std::string id = spec.substr(0, eq);
        const core::MappingStrategy *s = topo.findStrategy(id);
        if (!s)
            throw InputError("option '--point': " + prof.id + " has no strategy '" + core::quoteForMessage(id) + "'");
        const std::string what = "option '--point " + core::quoteForMessage(id) + "'";
        points[std::size_t(s - topo.strategies.data())]
                = std::pair(probabilityValue(spec.substr(eq + 1, comma - eq - 1), what),
                            probabilityValue(spec.substr(comma + 1), what));
    }

    const auto rows = core::compareMappings(topo, p, q, steps, points);
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"id", "description", "cores", "threads", "cores_used", "caches_used", "sockets_used",
                          "max_threads_per_core", "group_threads", "p", "q", "cpi", "infinite", "system_states"});
        const auto spaced = [](const std::vector<int> &values) {
            std::string text;
            for (const int v : values) {
                if (!text.empty())
                    text += ' ';
                text += std::to_string(v);
            }
            return text;
        };
        for (const auto &r : rows) {
            writeCsvRow(out, {csvText(r.strategy->id), csvText(r.strategy->description),
                              spaced(r.strategy->cores), csvInteger(r.usage.threads), csvInteger(r.usage.cores),
                              csvInteger(r.usage.caches), csvInteger(r.usage.sockets),
                              csvInteger(r.usage.max_threads_per_core), spaced(r.usage.threads_per_cache), csvNumber(r.p), csvNumber(r.q),
                              r.result.infinite ? std::string() : csvNumber(r.result.cpi),
                              r.result.infinite ? "true" : "false", csvNumber(r.result.system_states)});
        }
        return;
    }
    if (format == OutputFormat::Text) {
        out << prof.name << ": " << topo.sockets << (topo.sockets == 1 ? " socket, " : " sockets, ") << topo.caches.size()
            << ' ' << topo.cache_level << (topo.caches.size() == 1 ? " cache, " : " caches, ") << topo.coreCount()
            << " cores" << (topo.threads_per_core > 1 ? " of " + std::to_string(topo.threads_per_core) + " threads" : "")
            << "; " << (steps ? "after " + std::to_string(*steps) + " steps"
                                                                        : std::string("steady state"))
            << '\n';
        char line[256];
        std::snprintf(line, sizeof line, "%-10s %7s %5s %6s %7s  %-14s %7s %7s %12s\n", "strategy", "threads",
                      "cores", "caches", "sockets", "model", "p", "q", "CPI");
        out << line;
        for (const auto &r : rows) {
            // printf pads bytes: "2 x 2" rather than the GUI's multiplication sign.
            const std::string model = core::markovShapeText(r.usage.threads_per_cache, "x");
            std::snprintf(line, sizeof line, "%-10s %7d %5d %6d %7d  %-14s %7s %7s %12s\n", r.strategy->id.c_str(),
                          r.usage.threads, r.usage.cores, r.usage.caches, r.usage.sockets,
                          model.c_str(), fmt(r.p, "%.6g").c_str(),
                          fmt(r.q, "%.6g").c_str(), r.result.infinite ? "infinite" : fmt(r.result.cpi, "%.8g").c_str());
            out << line;
        }
        return;
    }
    Json list = Json::array();
    for (const auto &r : rows) {
        list.push_back({{"id", r.strategy->id},
                        {"description", r.strategy->description},
                        {"cores", r.strategy->cores},
                        {"threads", r.usage.threads},
                        {"cores_used", r.usage.cores},
                        {"caches_used", r.usage.caches},
                        {"sockets_used", r.usage.sockets},
                        {"max_threads_per_core", r.usage.max_threads_per_core},
                        {"group_threads", r.usage.threads_per_cache},
                        {"p", r.p},
                        {"q", r.q},
                        {"cpi", r.result.infinite ? Json(nullptr) : Json(r.result.cpi)},
                        {"infinite", r.result.infinite},
                        {"system_states", r.result.system_states}});
    }
    Json j;
    j["profile"] = prof.id;
    j["p"] = p;
    j["q"] = q;
    j["steps"] = steps ? Json(*steps) : Json(nullptr);
    j["strategies"] = std::move(list);
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli mappings --profile ID|PATH --p P --q Q [--point STRATEGY=P,Q]... [--steps T]\n"
          "                              [--format text|json|csv] [--json]\n\n"
          "The thread-to-core mapping strategies of a CPU profile side by side (Mitra's thesis,\n"
          "Tables 5.8, 5.9, 5.17): threads, cores, shared caches and sockets each uses, its Markov model (one\n"
          "group per used cache) and the CPI the model predicts, as the GUI's Mapping view shows them.\n\n"
          "  --profile ID|PATH      a CPU profile with a topology (e.g. clovertown-x5365)\n"
          "  --p P, --q Q           the (p, q) every strategy shares, each in [0, 1]\n"
          "  --point STRATEGY=P,Q   the (p, q) measured for one strategy (repeatable)\n"
          "  --steps T              the transient after T steps from all-active; default: steady state\n"
          "  --format json          JSON output {\"profile\":..,\"strategies\":[{\"id\",\"threads\",\"cores_used\",\n"
          "                         \"caches_used\",\"sockets_used\",\"group_threads\",\"p\",\"q\",\"cpi\",..}]}\n"
          "  --format csv           CSV, one row per strategy: id,description,cores (core ids, space-separated),\n"
          "                         threads,cores_used,caches_used,sockets_used,max_threads_per_core,\n"
          "                         group_threads (threads per used cache, space-separated),p,q,\n"
          "                         cpi (empty when infinite),infinite,system_states\n"
          "  --json                 the same as --format json; without either, a table (--format text)\n";

} // namespace

const Command kMappingsCommand{"mappings", "thread-to-core mapping strategies of a CPU side by side", kHelp,
                               runMappings};

} // namespace crossroof::cli
