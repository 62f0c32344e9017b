// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/cpu_topology.h"

#include "core/support/error.h"
#include "core/markov/topology_json.h"

#include <algorithm>
#include <map>
#include <set>

namespace crossroof::core {

int CpuTopology::coreCount() const
{
    std::size_t n = 0;
    for (const auto &c : caches)
        n += c.cores.size();
    return int(n);
}

const SharedCache *CpuTopology::cacheOf(int core) const
{
    for (const auto &c : caches) {
        if (std::find(c.cores.begin(), c.cores.end(), core) != c.cores.end())
            return &c;
    }
    return nullptr;
}

const MappingStrategy *CpuTopology::findStrategy(const std::string &id) const
{
    for (const auto &s : strategies) {
        if (s.id == id)
            return &s;
    }
    return nullptr;
}

void validate(const CpuTopology &t)
{
    auto fail = [](const std::string &field, const std::string &what) {
        throw InputError("topology." + field + ": " + what);
    };
    if (t.sockets < 1 || t.sockets > kMaxSockets)
        fail("sockets", "must be a whole number from 1 to " + std::to_string(kMaxSockets));
    if (t.cache_level.empty())
        fail("cache_level", "must not be empty");
    if (t.threads_per_core < 1 || t.threads_per_core > kMaxThreadsPerCore)
        fail("threads_per_core", "must be a whole number from 1 to " + std::to_string(kMaxThreadsPerCore));
    if (t.caches.empty())
        fail("caches", "must list at least one shared cache");
    std::set<int> seen;
    for (std::size_t i = 0; i < t.caches.size(); ++i) {
        const SharedCache &c = t.caches[i];
        const std::string at = "caches[" + std::to_string(i) + "]";
        if (c.name.empty())
            fail(at + ".name", "must not be empty");
        if (c.socket < 0 || c.socket >= t.sockets)
            fail(at + ".socket", "must be from 0 to " + std::to_string(t.sockets - 1) + " (got "
                                         + std::to_string(c.socket) + ")");
        if (c.cores.empty())
            fail(at + ".cores", "must list at least one core");
        for (int core : c.cores) {
            if (core < 0 || core > kMaxCoreId)
                fail(at + ".cores", "core ids must be from 0 to " + std::to_string(kMaxCoreId));
            if (!seen.insert(core).second)
                fail(at + ".cores", "core " + std::to_string(core) + " is already in another cache");
        }
    }
    std::set<std::string> ids;
    for (std::size_t i = 0; i < t.strategies.size(); ++i) {
        const MappingStrategy &s = t.strategies[i];
        const std::string at = "strategies[" + std::to_string(i) + "]";
        if (s.id.empty())
            fail(at + ".id", "must not be empty");
        if (!ids.insert(s.id).second)
            fail(at + ".id", "'" + s.id + "' is used twice");
        if (s.cores.empty() || s.cores.size() > std::size_t(kMaxMappedThreads))
            fail(at + ".cores", "must bind 1 to " + std::to_string(kMaxMappedThreads) + " threads");
        for (int core : s.cores) {
            if (!seen.count(core))
                fail(at + ".cores", "core " + std::to_string(core) + " is in no cache of the topology");
        }
    }
}

std::vector<MappingStrategy> derivedStrategies(const CpuTopology &topology)
{
    CpuTopology bare = topology;
    bare.strategies.clear();
    validate(bare);
    // Cores in the compact order (cache after cache) and in the scatter order (the first core of each cache,
    // the sockets taking turns, then the second core of each, ...).
    std::vector<int> compact;
    for (const SharedCache &c : topology.caches)
        compact.insert(compact.end(), c.cores.begin(), c.cores.end());
    std::vector<const SharedCache *> turns;
    for (std::size_t rank = 0; turns.size() < topology.caches.size(); ++rank) {
        for (int socket = 0; socket < topology.sockets; ++socket) {
            std::size_t seen = 0;
            for (const SharedCache &c : topology.caches) {
                if (c.socket == socket && seen++ == rank)
                    turns.push_back(&c);
            }
        }
    }
    std::vector<int> scatter;
    for (std::size_t depth = 0; scatter.size() < compact.size(); ++depth) {
        for (const SharedCache *c : turns) {
            if (depth < c->cores.size())
                scatter.push_back(c->cores[depth]);
        }
    }
    const int cores = int(compact.size());
    const int smt = topology.threads_per_core;
    const int hardwareThreads = std::min(cores * smt, kMaxMappedThreads);
    std::set<int> counts {cores, hardwareThreads};
    for (int t = 2; t < hardwareThreads; t *= 2)
        counts.insert(t);
    const std::string level = topology.cache_level;
    std::vector<MappingStrategy> out;
    for (int t : counts) {
        if (t < 2 || t > hardwareThreads)
            continue;
        std::vector<std::vector<int>> bindings; // each sorted: the order of the threads changes nothing
        auto add = [&](const std::string &kind, std::vector<int> bound, const std::string &description) {
            std::vector<int> sorted = bound;
            std::sort(sorted.begin(), sorted.end());
            if (std::find(bindings.begin(), bindings.end(), sorted) != bindings.end())
                return;
            bindings.push_back(std::move(sorted));
            out.push_back({std::to_string(t) + "T_" + kind, description, std::move(bound)});
        };
        if (t <= cores) {
            add("compact", {compact.begin(), compact.begin() + t},
                "1 thread per core, one " + level + " cache filled after another");
            add("scatter", {scatter.begin(), scatter.begin() + t},
                "1 thread per core, on each " + level + " cache in turn"
                        + (topology.sockets > 1 ? std::string(", the sockets alternating") : std::string()));
        }
        if (smt > 1) {
            std::vector<int> bound;
            for (int i = 0; int(bound.size()) < t; ++i)
                bound.insert(bound.end(), std::size_t(std::min(smt, t - int(bound.size()))), compact[std::size_t(i)]);
            add("smt", std::move(bound), std::to_string(smt) + " threads per core (SMT), one " + level
                                                 + " cache filled after another");
        }
    }
    return out;
}

MappingUsage mappingUsage(const CpuTopology &topology, const MappingStrategy &strategy)
{
    std::map<int, int> perCore;
    std::map<const SharedCache *, int> perCache;
    std::set<int> sockets;
    for (int core : strategy.cores) {
        const SharedCache *cache = topology.cacheOf(core);
        if (!cache)
            throw InputError("strategy " + strategy.id + ": core " + std::to_string(core) + " is in no cache");
        ++perCore[core];
        ++perCache[cache];
        sockets.insert(cache->socket);
    }
    MappingUsage u;
    u.threads = int(strategy.cores.size());
    u.cores = int(perCore.size());
    u.caches = int(perCache.size());
    u.sockets = int(sockets.size());
    for (const auto &[core, n] : perCore)
        u.max_threads_per_core = std::max(u.max_threads_per_core, n);
    for (const auto &cache : topology.caches) {
        const auto it = perCache.find(&cache);
        if (it != perCache.end())
            u.threads_per_cache.push_back(it->second);
    }
    return u;
}

MarkovTopology markovTopology(const CpuTopology &topology, const MappingStrategy &strategy, double p, double q)
{
    MarkovTopology groups;
    for (int n : mappingUsage(topology, strategy).threads_per_cache)
        groups.push_back({n, p, q});
    return groups;
}

std::string markovShapeText(const std::vector<int> &threadsPerCache, const char *times)
{
    // Runs of equal counts, in order: {2, 2} -> "2 × 2", {4, 2} -> "1 × 4 + 1 × 2".
    std::string text;
    for (std::size_t i = 0; i < threadsPerCache.size();) {
        std::size_t j = i;
        while (j < threadsPerCache.size() && threadsPerCache[j] == threadsPerCache[i])
            ++j;
        if (!text.empty())
            text += " + ";
        text += std::to_string(j - i) + " " + times + " " + std::to_string(threadsPerCache[i]);
        i = j;
    }
    return text;
}

std::vector<MappingPrediction> compareMappings(const CpuTopology &topology, double p, double q,
                                               std::optional<long long> steps,
                                               const std::vector<std::optional<std::pair<double, double>>> &points)
{
    validate(topology);
    std::vector<MappingPrediction> out;
    for (std::size_t i = 0; i < topology.strategies.size(); ++i) {
        MappingPrediction m;
        m.strategy = &topology.strategies[i];
        m.usage = mappingUsage(topology, *m.strategy);
        const auto point = i < points.size() ? points[i] : std::nullopt;
        m.p = point ? point->first : p;
        m.q = point ? point->second : q;
        m.result = solveMarkovExact(markovTopology(topology, *m.strategy, m.p, m.q), steps);
        out.push_back(std::move(m));
    }
    return out;
}

namespace detail {

namespace {

std::vector<int> readCores(const JsonReader &r, const json &obj, const std::string &path)
{
    const json &arr = r.require(obj, "cores", path);
    if (!arr.is_array())
        r.fail(path, "must be an array of core ids");
    std::vector<int> cores;
    for (const auto &v : arr) {
        if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > kMaxCoreId)
            r.fail(path, "must hold whole numbers from 0 to " + std::to_string(kMaxCoreId) + " (got "
                             + describeValue(v) + ")");
        cores.push_back(int(v.get<long long>()));
    }
    return cores;
}

} // namespace

CpuTopology topologyFromJson(const json &obj, const JsonReader &r)
{
    r.checkKeys(obj, "topology", {"sockets", "cache_level", "threads_per_core", "caches", "strategies"},
                "a topology field");
    CpuTopology t;
    t.sockets = int(r.integer(obj, "sockets", "topology.sockets", 1, kMaxSockets, std::nullopt));
    t.threads_per_core = int(r.integer(obj, "threads_per_core", "topology.threads_per_core", 1, kMaxThreadsPerCore, 1));
    t.cache_level = r.string(obj, "cache_level", "topology.cache_level", false);
    if (t.cache_level.empty())
        t.cache_level = "L2";
    const json &caches = r.require(obj, "caches", "topology.caches");
    if (!caches.is_array())
        r.fail("topology.caches", "must be an array of {\"name\", \"socket\", \"cores\"}");
    for (std::size_t i = 0; i < caches.size(); ++i) {
        const std::string at = "topology.caches[" + std::to_string(i) + "]";
        r.checkKeys(caches[i], at, {"name", "socket", "cores"}, "a topology field");
        SharedCache c;
        c.name = r.string(caches[i], "name", at + ".name", true);
        c.socket = int(r.integer(caches[i], "socket", at + ".socket", 0, kMaxSockets - 1, std::nullopt));
        c.cores = readCores(r, caches[i], at + ".cores");
        t.caches.push_back(std::move(c));
    }
    if (obj.contains("strategies")) {
        const json &strategies = obj["strategies"];
        if (!strategies.is_array())
            r.fail("topology.strategies", "must be an array of {\"id\", \"description\", \"cores\"}");
        for (std::size_t i = 0; i < strategies.size(); ++i) {
            const std::string at = "topology.strategies[" + std::to_string(i) + "]";
            r.checkKeys(strategies[i], at, {"id", "description", "cores"}, "a topology field");
            MappingStrategy s;
            s.id = r.string(strategies[i], "id", at + ".id", true);
            s.description = r.string(strategies[i], "description", at + ".description", false);
            s.cores = readCores(r, strategies[i], at + ".cores");
            t.strategies.push_back(std::move(s));
        }
    }
    // validate() names the field from "topology." on; the reader adds the file.
    r.validate([&t] { validate(t); });
    if (!obj.contains("strategies")) {
        t.strategies = derivedStrategies(t);
        t.strategies_derived = true;
    }
    return t;
}

json topologyToJson(const CpuTopology &t)
{
    json caches = json::array();
    for (const auto &c : t.caches)
        caches.push_back({{"name", c.name}, {"socket", c.socket}, {"cores", c.cores}});
    json out = {{"sockets", t.sockets}, {"cache_level", t.cache_level}, {"caches", caches}};
    if (t.threads_per_core != 1)
        out["threads_per_core"] = t.threads_per_core;
    if (!t.strategies_derived) {
        json strategies = json::array();
        for (const auto &s : t.strategies)
            strategies.push_back({{"id", s.id}, {"description", s.description}, {"cores", s.cores}});
        out["strategies"] = strategies;
    }
    return out;
}

} // namespace detail

} // namespace crossroof::core
