// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/perf_counters.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/quote.h"
#include "core/support/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace crossroof::core {

namespace {

struct Known
{
    std::string_view name;
    std::string_view meaning;
    CounterUse use;
    int level;
};

// Intel raw codes are rUUEE (umask UU, event EE), as on Skylake and Ice Lake (the perf-stat sample's Xeon
// Gold 6326). Generic names are perf's own.
constexpr Known kKnown[] = {
        {"cycles", "core clock cycles", CounterUse::Cycles, 0},
        {"cpu-cycles", "core clock cycles", CounterUse::Cycles, 0},
        {"r003c", "CPU_CLK_UNHALTED.THREAD: core clock cycles", CounterUse::Cycles, 0},
        {"instructions", "instructions retired", CounterUse::Instructions, 0},
        {"r00c0", "INST_RETIRED.ANY: instructions retired", CounterUse::Instructions, 0},
        {"ref-cycles", "reference cycles at the nominal clock, not core cycles", CounterUse::Unused, 0},
        {"cpu-clock", "time, not a count", CounterUse::Unused, 0},
        {"task-clock", "time, not a count", CounterUse::Unused, 0},
        {"duration_time", "time, not a count", CounterUse::Unused, 0},
        {"msr/tsc/", "time-stamp counter ticks: time, not a count", CounterUse::Unused, 0},
        {"cs", "context switches (software event)", CounterUse::Unused, 0},
        {"context-switches", "context switches (software event)", CounterUse::Unused, 0},
        {"cpu-migrations", "CPU migrations (software event)", CounterUse::Unused, 0},
        {"page-faults", "page faults (software event)", CounterUse::Unused, 0},
        {"faults", "page faults (software event)", CounterUse::Unused, 0},
        {"minor-faults", "minor page faults (software event)", CounterUse::Unused, 0},
        {"major-faults", "major page faults (software event)", CounterUse::Unused, 0},
        {"r01d1", "MEM_LOAD_RETIRED.L1_HIT: loads that hit the L1, no suspension", CounterUse::Unused, 0},
        {"r02d1", "MEM_LOAD_RETIRED.L2_HIT: loads that hit the L2, no suspension", CounterUse::Unused, 0},
        {"r04d1", "MEM_LOAD_RETIRED.L3_HIT: loads that hit the L3, no suspension", CounterUse::Unused, 0},
        {"r08d1", "MEM_LOAD_RETIRED.L1_MISS: loads that missed the L1", CounterUse::Suspend, 1},
        {"L1-dcache-load-misses", "loads that missed the L1 data cache", CounterUse::Suspend, 1},
        {"r10d1", "MEM_LOAD_RETIRED.L2_MISS: loads that missed the L2", CounterUse::Suspend, 2},
        {"r20d1", "MEM_LOAD_RETIRED.L3_MISS: loads that missed the L3", CounterUse::Suspend, 3},
        {"LLC-load-misses", "loads that missed the last-level cache", CounterUse::Suspend, 3},
        {"cache-misses", "last-level cache misses", CounterUse::Suspend, 3},
        {"L1-dcache-loads", "L1 data cache loads: accesses, not misses", CounterUse::Unused, 0},
        {"LLC-loads", "last-level cache loads: accesses, not misses", CounterUse::Unused, 0},
        {"cache-references", "last-level cache accesses, not misses", CounterUse::Unused, 0},
        {"r83d0", "MEM_INST_RETIRED.ANY: loads and stores retired, accesses, not misses", CounterUse::Unused, 0},
        {"r81d0", "MEM_INST_RETIRED.ALL_LOADS: loads retired, accesses, not misses", CounterUse::Unused, 0},
        {"r82d0", "MEM_INST_RETIRED.ALL_STORES: stores retired, accesses, not misses", CounterUse::Unused, 0},
        {"r0e08", "DTLB_LOAD_MISSES.WALK_COMPLETED: page walks for loads", CounterUse::Suspend, 0},
        {"r0e49", "DTLB_STORE_MISSES.WALK_COMPLETED: page walks for stores", CounterUse::Suspend, 0},
        {"r0e85", "ITLB_MISSES.WALK_COMPLETED: page walks for instruction fetches", CounterUse::Suspend, 0},
        {"dTLB-load-misses", "data TLB misses of loads", CounterUse::Suspend, 0},
        {"dTLB-store-misses", "data TLB misses of stores", CounterUse::Suspend, 0},
        {"iTLB-load-misses", "instruction TLB misses", CounterUse::Suspend, 0},
        {"r00c5", "BR_MISP_RETIRED.ALL_BRANCHES: mispredicted branches", CounterUse::Suspend, 0},
        {"branch-misses", "mispredicted branches", CounterUse::Suspend, 0},
        {"r00c4", "BR_INST_RETIRED.ALL_BRANCHES: branches, not mispredictions", CounterUse::Unused, 0},
        {"branches", "branches, not mispredictions", CounterUse::Unused, 0},
        {"branch-instructions", "branches, not mispredictions", CounterUse::Unused, 0},
};

std::string_view baseName(std::string_view name)
{
    // Uncore events hold ':' only inside their '/.../' part; modifiers follow the whole name.
    if (!name.empty() && name.back() == '/')
        return name;
    return name.substr(0, name.find(':'));
}

bool equalNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

constexpr const char *kUses[] = {"unused", "cycles", "instructions", "suspend", "stall", "suspend+stall"};

std::string listed(const std::vector<std::string> &names)
{
    return briefList(names, 200);
}

} // namespace

std::string_view counterUseName(CounterUse use)
{
    return kUses[static_cast<int>(use)];
}

std::optional<CounterUse> counterUseFromName(std::string_view name)
{
    for (CounterUse use : counterUses()) {
        if (counterUseName(use) == name)
            return use;
    }
    return std::nullopt;
}

const std::vector<CounterUse> &counterUses()
{
    static const std::vector<CounterUse> uses{CounterUse::Unused,  CounterUse::Cycles, CounterUse::Instructions,
                                              CounterUse::Suspend, CounterUse::Stall,  CounterUse::SuspendAndStall};
    return uses;
}

bool useNeedsLatency(CounterUse use)
{
    return use == CounterUse::Stall || use == CounterUse::SuspendAndStall;
}

bool useSuspends(CounterUse use)
{
    return use == CounterUse::Suspend || use == CounterUse::SuspendAndStall;
}

PerfEventUse *PerfCounterMapping::find(std::string_view name)
{
    return const_cast<PerfEventUse *>(std::as_const(*this).find(name));
}

const PerfEventUse *PerfCounterMapping::find(std::string_view name) const
{
    for (const auto &e : events) {
        if (e.name == name)
            return &e;
    }
    const PerfEventUse *found = nullptr;
    for (const auto &e : events) {
        if (baseName(e.name) == name) {
            if (found)
                return nullptr;
            found = &e;
        }
    }
    return found;
}

PerfEventMeaning perfEventMeaning(std::string_view name)
{
    const std::string_view base = baseName(name);
    for (const Known &k : kKnown) {
        // Raw codes are hexadecimal (r10D1 is r10d1); the generic names are perf's, matched the same way.
        if (equalNoCase(base, k.name))
            return {std::string(k.meaning), k.use, k.level};
    }
    if (base.substr(0, 4) == "imc/")
        return {"memory-controller (uncore) event: per socket, not per thread", CounterUse::Unused, 0};
    if (base.substr(0, 4) == "cha/")
        return {"LLC slice (uncore CHA) event: per socket, not per thread", CounterUse::Unused, 0};
    return {"unknown event: choose its use", CounterUse::Unused, 0};
}

PerfCounterMapping mapPerfEvents(const PerfStat &multi, const PerfStat *single)
{
    PerfCounterMapping m;
    m.multi_source = multi.source;
    auto add = [&m](const PerfStatEvent &e) {
        PerfEventUse u;
        u.name = e.name;
        u.unit = e.unit;
        const PerfEventMeaning known = perfEventMeaning(e.name);
        u.meaning = known.meaning;
        u.default_use = known.use;
        if (!e.unit.empty() && known.use != CounterUse::Unused) { // a count event would have no unit
            u.default_use = CounterUse::Unused;
            u.meaning += " (in " + e.unit + ", not a count)";
        }
        m.events.push_back(std::move(u));
        return &m.events.back();
    };
    for (const PerfStatEvent &e : multi.events) {
        PerfEventUse *u = add(e);
        if (e.readings > 0)
            u->multi = e.total;
    }
    if (single) {
        // The multi-threaded run's events by name, and by name without modifiers where that is unambiguous
        // (as find() pairs them), so that files of many events pair in linear time.
        constexpr std::size_t kAmbiguous = std::size_t(-1);
        std::unordered_map<std::string, std::size_t> exact, base;
        for (std::size_t i = 0; i < m.events.size(); ++i) {
            exact.emplace(m.events[i].name, i);
            const auto [it, added] = base.emplace(std::string(baseName(m.events[i].name)), i);
            if (!added)
                it->second = kAmbiguous;
        }
        m.single_source = single->source;
        for (const PerfStatEvent &e : single->events) {
            std::size_t index = kAmbiguous;
            if (const auto at = exact.find(e.name); at != exact.end())
                index = at->second;
            else if (const auto b = base.find(e.name); b != base.end())
                index = b->second;
            PerfEventUse *u = index != kAmbiguous ? &m.events[index] : add(e);
            if (e.readings > 0)
                u->single = e.total;
        }
    }
    // A load that misses the L3 missed the L1 and the L2 too: only the deepest level counted in the
    // multi-threaded run suspends by default, so that no miss is counted twice.
    int deepest = 0;
    std::string deepestName;
    for (const auto &u : m.events) {
        const int level = perfEventMeaning(u.name).miss_level;
        if (u.multi && u.default_use == CounterUse::Suspend && level > deepest) {
            deepest = level;
            deepestName = u.name;
        }
    }
    for (auto &u : m.events) {
        const int level = perfEventMeaning(u.name).miss_level;
        if (!u.multi && u.default_use != CounterUse::Unused) {
            u.default_use = CounterUse::Unused;
            u.meaning += " (not counted in the multi-threaded run)";
        } else if (level > 0 && level < deepest && u.default_use == CounterUse::Suspend) {
            u.default_use = CounterUse::Unused;
            u.meaning += "; each is counted again by " + deepestName + " when it misses there too";
        }
        u.use = u.default_use;
    }
    return m;
}

void setEventUse(PerfCounterMapping &mapping, std::string_view event, CounterUse use, std::optional<double> latency)
{
    PerfEventUse *u = mapping.find(event);
    if (!u) {
        std::vector<std::string> names;
        for (const auto &e : mapping.events)
            names.push_back(e.name);
        throw InputError("no event '" + quoteForMessage(event) + "' in the perf files (events: " + listed(names)
                         + ")");
    }
    if (useNeedsLatency(use)) {
        if (!latency) {
            throw InputError("event '" + u->name + "': the use '" + std::string(counterUseName(use))
                             + "' needs its latency in cycles (perf stat counts events, not their latency)");
        }
        if (!std::isfinite(*latency) || *latency < 1 || *latency > 1e9) {
            throw InputError("event '" + u->name + "': latency must be a number of cycles from 1 to 1e9 (got "
                             + formatNumber(*latency) + ")");
        }
    } else if (latency) {
        throw InputError("event '" + u->name + "': only a stall use takes a latency, not '"
                         + std::string(counterUseName(use)) + "'");
    }
    u->use = use;
    u->latency = useNeedsLatency(use) ? latency : std::nullopt;
}

void applyUseSpec(PerfCounterMapping &mapping, std::string_view spec)
{
    const auto eq = spec.rfind('=');
    const std::string uses = "unused, cycles, instructions, suspend, stall:CYCLES or suspend+stall:CYCLES";
    if (eq == std::string_view::npos || eq == 0)
        throw InputError("option '--use': '" + quoteForMessage(spec) + "' is not EVENT=USE (USE: " + uses + ")");
    const std::string_view event = spec.substr(0, eq);
    std::string_view useText = spec.substr(eq + 1);
    std::optional<double> latency;
    if (const auto colon = useText.find(':'); colon != std::string_view::npos) {
        const std::string_view number = useText.substr(colon + 1);
        latency = parseNumber(number);
        if (!latency) {
            throw InputError("option '--use " + quoteForMessage(spec) + "': latency '" + quoteForMessage(number)
                             + "' is not a number");
        }
        useText = useText.substr(0, colon);
    }
    const std::optional<CounterUse> use = counterUseFromName(useText);
    if (!use) {
        throw InputError("option '--use " + quoteForMessage(spec) + "': '" + quoteForMessage(useText)
                         + "' is no use (" + uses + ")");
    }
    try {
        setEventUse(mapping, event, *use, latency);
    } catch (const InputError &e) {
        throw InputError("option '--use " + quoteForMessage(spec) + "': " + e.what());
    }
}

PerfCounterInputs perfCounterInputs(const PerfCounterMapping &mapping)
{
    PerfCounterInputs r;
    std::vector<const PerfEventUse *> cycles, instructions, suspend, stall;
    for (const auto &u : mapping.events) {
        switch (u.use) {
        case CounterUse::Unused:
            r.unused.push_back(u.name);
            break;
        case CounterUse::Cycles:
            cycles.push_back(&u);
            break;
        case CounterUse::Instructions:
            instructions.push_back(&u);
            break;
        case CounterUse::Suspend:
            suspend.push_back(&u);
            break;
        case CounterUse::Stall:
            stall.push_back(&u);
            break;
        case CounterUse::SuspendAndStall:
            suspend.push_back(&u);
            stall.push_back(&u);
            break;
        }
    }
    const std::string &file = mapping.multi_source;
    // One event per use, counted in the multi-threaded run; else why not.
    auto one = [&file](const std::vector<const PerfEventUse *> &events, const char *use, std::string &why)
            -> std::optional<double> {
        if (events.empty()) {
            why = std::string("no event of ") + file + " is used as " + use;
            return std::nullopt;
        }
        if (events.size() > 1) {
            std::vector<std::string> names;
            for (const auto *e : events)
                names.push_back(e->name);
            why = std::string("more than one event is used as ") + use + ": " + listed(names);
            return std::nullopt;
        }
        if (!events.front()->multi) {
            why = "event '" + events.front()->name + "' (" + use + ") was not counted in " + file;
            return std::nullopt;
        }
        return events.front()->multi;
    };
    std::string instructionsWhy, cyclesWhy;
    const std::optional<double> retired = one(instructions, "instructions", instructionsWhy);
    if (retired && !(*retired > 0)) {
        instructionsWhy = "event '" + instructions.front()->name + "' counted no instructions in " + file;
    }
    const bool haveInstructions = instructionsWhy.empty();
    if (haveInstructions)
        r.inputs.instructions = *retired;

    const std::optional<double> clock = one(cycles, "cycles", cyclesWhy);
    if (!cyclesWhy.empty() || !haveInstructions) {
        r.cpi_note = "no measured CPI (cycles / instructions): " + (cyclesWhy.empty() ? instructionsWhy : cyclesWhy);
    } else {
        r.file_cpi = *clock / *retired;
        if (*r.file_cpi >= 1)
            r.inputs.measured_cpi = r.file_cpi;
        else
            r.cpi_note = measuredCpiBelowOne(*r.file_cpi);
    }

    // p: every suspend event in both runs, and the instructions.
    std::vector<std::string> problems;
    if (suspend.empty())
        problems.push_back("no event is used as suspend (p = extra suspending events / instructions, Eq. 6)");
    if (!haveInstructions)
        problems.push_back(instructionsWhy);
    if (!suspend.empty() && mapping.single_source.empty()) {
        std::vector<std::string> names;
        for (const auto *e : suspend)
            names.push_back(e->name);
        problems.push_back("p needs the single-threaded run of the same work for E_single of "
                           + listed(names));
    }
    std::vector<SuspendEvent> suspendEvents;
    for (const auto *e : suspend) {
        if (!e->multi)
            problems.push_back("suspend event '" + e->name + "' was not counted in " + file);
        else if (!mapping.single_source.empty() && !e->single)
            problems.push_back("suspend event '" + e->name + "' was not counted in " + mapping.single_source);
        else if (e->single)
            suspendEvents.push_back({e->name, *e->multi, *e->single});
    }
    if (problems.empty())
        r.inputs.suspend = std::move(suspendEvents);
    else
        r.p_missing = problemList(problems, 4);

    // q: every stall event's count and latency (setEventUse() holds the latency).
    problems.clear();
    if (stall.empty()) {
        problems.push_back("no event is used as stall; give one its latency in cycles (perf stat counts events, "
                           "not their latency)");
    }
    std::vector<StallEvent> stallEvents;
    for (const auto *e : stall) {
        if (!e->multi)
            problems.push_back("stall event '" + e->name + "' was not counted in " + file);
        else if (!e->latency)
            problems.push_back("stall event '" + e->name + "' has no latency in cycles");
        else
            stallEvents.push_back({e->name, *e->multi, *e->latency});
    }
    if (problems.empty())
        r.inputs.stall = std::move(stallEvents);
    else
        r.q_missing = problemList(problems, 4);
    return r;
}

} // namespace crossroof::core
