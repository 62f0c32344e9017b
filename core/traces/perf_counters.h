// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Markov model's counter inputs (p and q, thesis 4.2.6, 4.2.7) from `perf stat -x` files: each event of
// the files is mapped by its name to what the estimate uses it as, and the user may change any of them.

#include "core/markov/markov_counters.h"
#include "core/traces/perf_stat.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What an event of a perf file is used as.
enum class CounterUse {
    Unused,
    Cycles,         ///< core clock cycles of the multi-threaded run, for the measured CPI
    Instructions,   ///< instructions retired by the multi-threaded run, for p and the measured CPI
    Suspend,        ///< suspends a thread, for p: E_multi and E_single (Eq. 6)
    Stall,          ///< keeps a thread suspended, for q: its count and latency (Eq. 7-8)
    SuspendAndStall ///< both
};

/// "unused", "cycles", "instructions", "suspend", "stall", "suspend+stall".
std::string_view counterUseName(CounterUse use);
/// The use named NAME (as counterUseName() writes it); none for any other text.
std::optional<CounterUse> counterUseFromName(std::string_view name);
/// Every use, in the order above.
const std::vector<CounterUse> &counterUses();

/// Whether USE needs a latency (Stall, SuspendAndStall) or both runs' counts (Suspend, SuspendAndStall).
bool useNeedsLatency(CounterUse use);
bool useSuspends(CounterUse use);

/// One event of the perf files and its use.
struct PerfEventUse
{
    std::string name;              ///< as the multi-threaded run names it (else the single-threaded run)
    std::string meaning;           ///< what the name says, e.g. "MEM_LOAD_RETIRED.L2_MISS: loads that missed the L2"
    std::string unit;              ///< perf's unit ("msec"); empty for counts
    std::optional<double> multi;   ///< total in the multi-threaded run; none when it was not counted there
    std::optional<double> single;  ///< total in the single-threaded run; none without it or when not counted
    CounterUse use = CounterUse::Unused;
    CounterUse default_use = CounterUse::Unused; ///< from the name
    std::optional<double> latency; ///< cycles per occurrence for a stall use (>= 1); perf stat has none
};

/// The events of a multi-threaded run and, when read, of the single-threaded run of the same work.
struct PerfCounterMapping
{
    std::string multi_source;
    std::string single_source; ///< empty without the single-threaded run
    std::vector<PerfEventUse> events;

    /// The event named NAME: exactly, else the only one whose name before ':' is NAME; nullptr if none.
    PerfEventUse *find(std::string_view name);
    const PerfEventUse *find(std::string_view name) const;
};

/// What an event name means and its use by default (before looking at the other events of the file).
struct PerfEventMeaning
{
    std::string meaning;
    CounterUse use = CounterUse::Unused;
    int miss_level = 0; ///< 1, 2, 3 for the misses of that cache level; 0 for anything else
};
/// Known names: the generic perf events (cycles, instructions, cache-misses, LLC-load-misses, branch-misses,
/// dTLB-load-misses, ...) and Intel raw codes rUUEE (r08d1 MEM_LOAD_RETIRED.L1_MISS, r10d1 .L2_MISS, r20d1
/// .L3_MISS, r0e08 DTLB_LOAD_MISSES.WALK_COMPLETED, r00c5 BR_MISP_RETIRED.ALL_BRANCHES, ...); modifiers
/// after ':' are ignored. Unknown names are unused, "unknown event".
PerfEventMeaning perfEventMeaning(std::string_view name);

/// The events of MULTI and SINGLE (may be null) with their uses by name: cycles and instructions as such;
/// misses that suspend a thread (cache misses of the deepest level in the file, since each is also a miss of
/// every level above it; TLB walks; branch mispredictions) as suspend; hits, accesses, time, software and
/// uncore events unused, and so is any event the multi-threaded run did not count. No event is a stall by
/// default: perf stat gives no latency.
PerfCounterMapping mapPerfEvents(const PerfStat &multi, const PerfStat *single);

/// Sets an event's use; LATENCY is needed (>= 1 cycle) for a stall use and refused for the others. Throws
/// InputError naming the event (and listing the events when there is no such one) or the latency.
void setEventUse(PerfCounterMapping &mapping, std::string_view event, CounterUse use,
                 std::optional<double> latency = std::nullopt);

/// Applies "EVENT=USE" or "EVENT=USE:LATENCY" (the CLI's --use); the event name may hold '=' (uncore
/// events do: "imc/event=0x04,umask=0x0f/"), so the last '=' splits. Throws InputError naming SPEC.
void applyUseSpec(PerfCounterMapping &mapping, std::string_view spec);

/// The counter inputs of a mapping, and why those that are missing are.
struct PerfCounterInputs
{
    /// The suspend events only when p can be estimated, the stall events only when q can; instructions
    /// and the measured CPI when known. Nothing else: no value of a missing quantity is made up.
    CounterInputs inputs;
    std::string p_missing; ///< why there are no suspend events (empty when there are)
    std::string q_missing; ///< why there are no stall events
    std::optional<double> file_cpi; ///< cycles / instructions of the multi-threaded run, below 1 too
    std::string cpi_note;  ///< why there is no measured CPI (none, or below 1: refused with the reason)
    std::vector<std::string> unused; ///< the events used as nothing
};

/// The inputs the mapping gives (see PerfCounterInputs). Never throws for a missing quantity: each one is
/// named in p_missing, q_missing or cpi_note.
PerfCounterInputs perfCounterInputs(const PerfCounterMapping &mapping);

} // namespace crossroof::core
