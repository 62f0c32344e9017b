// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov.h"

#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// A cache shared by some cores (an L2 of the Clovertown: two cores on one die), the unit the Markov CPI
/// model groups threads by (Mitra's thesis, 4.2.2).
struct SharedCache
{
    std::string name;       ///< "L2 0"
    int socket = 0;         ///< 0-based
    std::vector<int> cores; ///< core ids as the operating system numbers them

    bool operator==(const SharedCache &) const = default;
};

/// A thread-to-core binding (Table 5.9): thread t runs on cores[t]; a core may hold several threads.
struct MappingStrategy
{
    std::string id;          ///< "4T_4"
    std::string description; ///< "2 threads per L2-cache, two on each socket"
    std::vector<int> cores;

    bool operator==(const MappingStrategy &) const = default;
};

/// The cache topology of a multicore CPU and the mapping strategies worth comparing on it.
struct CpuTopology
{
    int sockets = 1;
    std::string cache_level = "L2"; ///< what the shared caches are, for labels
    int threads_per_core = 1;       ///< hardware threads (SMT) per core
    std::vector<SharedCache> caches;
    std::vector<MappingStrategy> strategies;
    /// The strategies are derivedStrategies()'s, the profile naming none: a profile written back omits them.
    bool strategies_derived = false;

    int coreCount() const;
    /// The cache holding CORE, or nullptr.
    const SharedCache *cacheOf(int core) const;
    const MappingStrategy *findStrategy(const std::string &id) const;

    bool operator==(const CpuTopology &) const = default;
};

/// Upper bounds checked by validate().
inline constexpr int kMaxSockets = 64;
inline constexpr int kMaxCoreId = 4095;
inline constexpr int kMaxMappedThreads = 4096;

/// Checks the rules of docs/PROFILES.md ("topology"): sockets in 1..kMaxSockets, at least one cache, every
/// cache with a name, a socket below `sockets` and at least one core, no core in two caches, strategies
/// with unique non-empty ids and 1..kMaxMappedThreads threads on known cores. Throws InputError naming the
/// field ("topology.caches[2].socket: ...").
void validate(const CpuTopology &topology);

/// What a strategy occupies, as Table 5.17 counts it.
struct MappingUsage
{
    int threads = 0;
    int cores = 0;                    ///< distinct cores used
    int caches = 0;                   ///< distinct shared caches used
    int sockets = 0;                  ///< distinct sockets used
    int max_threads_per_core = 0;
    std::vector<int> threads_per_cache; ///< for the used caches, in the topology's cache order
};

inline constexpr int kMaxThreadsPerCore = 8;

/// The strategies worth comparing on a topology that lists none (MODEL.md 3, "Mapping strategies"): for 2, 4,
/// 8, ... threads up to every hardware thread, and for the core count and the hardware-thread count
/// themselves, "compact" (one thread per core, one cache filled after another), "scatter" (one thread per
/// core, on each cache in turn, the sockets alternating) and, with SMT, "smt" (every hardware thread of a core,
/// cores filled in the compact order). A strategy that binds the same cores as an earlier one of its count, in
/// any order, is left out. Ids are "<threads>T_<kind>", e.g. "16T_scatter". Throws InputError for an invalid topology.
std::vector<MappingStrategy> derivedStrategies(const CpuTopology &topology);

/// Throws InputError when the strategy names a core the topology does not have.
MappingUsage mappingUsage(const CpuTopology &topology, const MappingStrategy &strategy);

/// The Markov model of a strategy: one group per used cache with its threads, all with P and Q
/// (MODEL.md 3). Strategies that load the caches alike (2T_1 and 2T_2) have the same model.
MarkovTopology markovTopology(const CpuTopology &topology, const MappingStrategy &strategy, double p, double q);

/// "2 × 2" for two caches of two threads, "1 × 4 + 1 × 2" when they differ: the model's shape in words.
/// TIMES is the sign between count and threads ("x" where only ASCII will do).
std::string markovShapeText(const std::vector<int> &threadsPerCache, const char *times = "×");

/// One strategy of a comparison: its usage and the CPI the model predicts at its (p, q).
struct MappingPrediction
{
    const MappingStrategy *strategy = nullptr;
    MappingUsage usage;
    double p = 0;
    double q = 0;
    MarkovResult result;
};

/// Every strategy of the topology at the (p, q) POINTS gives for it (none: P and Q), exact solver, steady
/// state or after STEPS steps. Throws InputError for an invalid topology or probability.
std::vector<MappingPrediction> compareMappings(
        const CpuTopology &topology, double p, double q, std::optional<long long> steps = std::nullopt,
        const std::vector<std::optional<std::pair<double, double>>> &points = {});

} // namespace crossroof::core
