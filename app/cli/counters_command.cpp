// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/markov/counter_rules.h"
#include "core/markov/cpu_topology.h"
#include "core/markov/markov.h"
#include "core/markov/markov_counters.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/traces/perf_counters.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

/// TEXT as a finite number for WHAT; throws InputError naming it.
double numberValue(const std::string &text, const std::string &what)
{
    const std::optional<double> v = core::parseNumber(text);
    if (!v)
        throw InputError(what + ": '" + core::quoteForMessage(text) + "' is not a number");
    return *v;
}

/// "NAME=A,B" as a name and two numbers; throws InputError naming the option.
struct NamedPair
{
    std::string name;
    double a = 0;
    double b = 0;
};
NamedPair namedPair(const std::string &spec, const std::string &option, const char *shape)
{
    const auto eq = spec.find('=');
    const auto comma = spec.find(',', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || comma == std::string::npos || spec.find(',', comma + 1) != std::string::npos)
        throw InputError("option '--" + option + "': '" + spec + "' is not " + shape);
    const std::string what = "option '--" + option + " " + spec.substr(0, eq) + "'";
    return {spec.substr(0, eq), numberValue(spec.substr(eq + 1, comma - eq - 1), what),
            numberValue(spec.substr(comma + 1), what)};
}

/// The perf files' events with their uses, and what the inputs they give lack.
struct PerfInputs
{
    core::PerfCounterMapping mapping;
    core::PerfCounterInputs result;
};

std::optional<PerfInputs> perfFrom(const Args &args)
{
    if (!args.has("perf")) {
        if (args.has("perf-single") || !args.all("use").empty())
            throw InputError("options '--perf-single' and '--use' go with '--perf' (the multi-threaded run)");
        return std::nullopt;
    }
    if (args.has("file") || args.has("instructions") || !args.all("suspend").empty() || !args.all("stall").empty())
        throw InputError("option '--perf' replaces '--file', '--instructions', '--suspend' and '--stall'; give one or "
                         "the other");
    const core::PerfStat multi = core::readPerfStat(args.value("perf"));
    std::optional<core::PerfStat> single;
    if (args.has("perf-single"))
        single = core::readPerfStat(args.value("perf-single"));
    PerfInputs perf;
    perf.mapping = core::mapPerfEvents(multi, single ? &*single : nullptr);
    for (const std::string &spec : args.all("use"))
        core::applyUseSpec(perf.mapping, spec);
    perf.result = core::perfCounterInputs(perf.mapping);
    if (!perf.result.p_missing.empty() && !perf.result.q_missing.empty()) {
        throw InputError(args.value("perf") + ": cannot estimate p: " + perf.result.p_missing + "; cannot estimate q: "
                         + perf.result.q_missing);
    }
    return perf;
}

core::CounterInputs inputsFrom(const Args &args, const std::optional<PerfInputs> &perf)
{
    if (perf) {
        core::CounterInputs in = perf->result.inputs;
        if (args.has("measured-cpi"))
            in.measured_cpi = numberValue(args.value("measured-cpi"), "option '--measured-cpi'");
        return in;
    }
    const bool options = args.has("instructions") || !args.all("suspend").empty() || !args.all("stall").empty();
    if (args.has("file") && options)
        throw InputError("option '--file' replaces '--instructions', '--suspend' and '--stall'; give one or the other");
    core::CounterInputs in;
    if (args.has("file")) {
        in = core::readCounterFile(args.value("file"));
    } else {
        for (const std::string &spec : args.all("suspend")) {
            const NamedPair e = namedPair(spec, "suspend", "NAME=MULTI,SINGLE");
            in.suspend.push_back({e.name, e.a, e.b});
        }
        for (const std::string &spec : args.all("stall")) {
            const NamedPair e = namedPair(spec, "stall", "NAME=COUNT,LATENCY");
            in.stall.push_back({e.name, e.a, e.b});
        }
        if (!in.suspend.empty() && !args.has("instructions"))
            throw InputError("option '--instructions' is required with '--suspend' (p = extra events / instructions)");
        if (args.has("instructions"))
            in.instructions = numberValue(args.value("instructions"), "option '--instructions'");
    }
    if (args.has("measured-cpi"))
        in.measured_cpi = numberValue(args.value("measured-cpi"), "option '--measured-cpi'");
    if (in.suspend.empty() && in.stall.empty())
        throw InputError("no counters: give '--file', '--perf' or '--suspend'/'--stall' events");
    return in;
}

struct Estimates
{
    std::optional<PerfInputs> perf;
    core::CounterInputs in;
    core::SuspendDifference difference = core::SuspendDifference::MultiMinusSingle;
    core::LatencyWeighting weighting = core::LatencyWeighting::StallCycles;
    std::optional<core::PEstimate> p;
    std::optional<core::QEstimate> q;
    std::vector<int> threads; ///< per group, for the starting pairs' CPI; empty without a shape
    std::vector<core::StartingPair> pairs;
    std::vector<double> cpi; ///< per pair, +inf where absorbing; empty without a shape
    std::optional<std::size_t> nearest;
};

std::string eventLabel(const std::string &name, std::size_t i)
{
    return name.empty() ? "event " + std::to_string(i + 1) : name;
}

std::string marker(const std::optional<std::size_t> &lowest, const std::optional<std::size_t> &highest,
                   std::size_t i)
{
    if (lowest == i && highest == i)
        return "lowest, highest";
    return lowest == i ? "lowest" : highest == i ? "highest" : "";
}

Json optionalName(const std::vector<std::string> &names, const std::optional<std::size_t> &i)
{
    return i ? Json(names[*i]) : Json(nullptr);
}

Json cpiJson(double cpi)
{
    return std::isfinite(cpi) ? Json(cpi) : Json(nullptr);
}

std::string countText(const std::optional<double> &v)
{
    return v ? fmt(*v, "%.10g") : std::string("-");
}

std::string useText(const core::PerfEventUse &u)
{
    const std::string_view use = core::counterUseName(u.use);
    return u.latency ? std::string(use) + ':' + fmt(*u.latency, "%.6g") : std::string(use);
}

void printPerfText(const PerfInputs &perf, std::ostream &out)
{
    out << "Events of " << perf.mapping.multi_source << " (multi-threaded run)";
    if (!perf.mapping.single_source.empty())
        out << " and " << perf.mapping.single_source << " (single-threaded run)";
    out << ", by name (--use EVENT=USE changes one):\n";
    std::size_t width = 16;
    for (const auto &u : perf.mapping.events)
        width = std::max(width, std::min<std::size_t>(u.name.size(), 40));
    for (const auto &u : perf.mapping.events) {
        out << "  " << u.name << std::string(width > u.name.size() ? width - u.name.size() : 0, ' ') << " "
            << std::string(16 - std::min<std::size_t>(16, countText(u.multi).size()), ' ') << countText(u.multi)
            << " " << std::string(16 - std::min<std::size_t>(16, countText(u.single).size()), ' ')
            << countText(u.single) << "  " << useText(u) << (u.use == u.default_use ? "" : " (set)") << "  "
            << u.meaning << '\n';
    }
    if (perf.result.file_cpi)
        out << "  cycles / instructions = " << fmt(*perf.result.file_cpi, "%.6g") << '\n';
    if (!perf.result.cpi_note.empty())
        out << "  " << perf.result.cpi_note << '\n';
    if (!perf.result.p_missing.empty())
        out << "  p not estimated: " << perf.result.p_missing << '\n';
    if (!perf.result.q_missing.empty())
        out << "  q not estimated: " << perf.result.q_missing << '\n';
    out << '\n';
}

void printText(const Estimates &e, std::ostream &out)
{
    char line[256];
    if (e.perf)
        printPerfText(*e.perf, out);
    if (e.p) {
        out << "p from counters (thesis Eq. 6, " << core::suspendDifferenceName(e.difference) << "), "
            << fmt(e.in.instructions, "%.10g") << " instructions retired:\n";
        std::snprintf(line, sizeof line, "  %-16s %14s %14s %12s\n", "event", "multi", "single", "PEC");
        out << line;
        for (std::size_t i = 0; i < e.in.suspend.size(); ++i) {
            const auto &ev = e.in.suspend[i];
            const std::string note = e.p->rejected[i] ? "rejected (PEC < 0)"
                                                      : marker(e.p->vector.lowest_event, e.p->vector.highest_event, i);
            std::snprintf(line, sizeof line, "  %-16s %14s %14s %12s  %s\n", eventLabel(ev.name, i).c_str(),
                          fmt(ev.multi, "%.10g").c_str(), fmt(ev.single, "%.10g").c_str(),
                          fmt(e.p->pec[i], "%.6g").c_str(), note.c_str());
            out << line;
        }
        out << "  p (all) = " << fmt(e.p->vector.all, "%.6g") << "; PEC vector (lowest, highest, all) = ("
            << fmt(e.p->vector.lowest, "%.6g") << ", " << fmt(e.p->vector.highest, "%.6g") << ", "
            << fmt(e.p->vector.all, "%.6g") << ")\n";
    }
    if (e.q) {
        out << (e.p ? "\n" : "") << "q from counters (thesis Eq. 7-8, M weighted by "
            << (e.weighting == core::LatencyWeighting::StallCycles ? "stall cycles" : "occurrences") << "):\n";
        std::snprintf(line, sizeof line, "  %-16s %14s %10s %14s %10s\n", "event", "count", "latency", "cycles",
                      "q_i");
        out << line;
        for (std::size_t i = 0; i < e.in.stall.size(); ++i) {
            const auto &ev = e.in.stall[i];
            std::snprintf(line, sizeof line, "  %-16s %14s %10s %14s %10s  %s\n", eventLabel(ev.name, i).c_str(),
                          fmt(ev.count, "%.10g").c_str(), fmt(ev.latency, "%.6g").c_str(),
                          fmt(e.q->cycles[i], "%.10g").c_str(), fmt(e.q->q[i], "%.4f").c_str(),
                          marker(e.q->vector.lowest_event, e.q->vector.highest_event, i).c_str());
            out << line;
        }
        out << "  M = " << fmt(e.q->mean_latency, "%.6g") << " cycles, q (all) = 1 - 1/M = "
            << fmt(e.q->vector.all, "%.6g") << "; PEC vector (lowest, highest, all) = ("
            << fmt(e.q->vector.lowest, "%.6g") << ", " << fmt(e.q->vector.highest, "%.6g") << ", "
            << fmt(e.q->vector.all, "%.6g") << ")\n";
    }
    if (e.pairs.empty())
        return;
    out << "\nStarting pairs (thesis 4.3.1, p x q: lowest, highest, all)";
    if (!e.cpi.empty())
        out << ", steady-state CPI with " << core::markovShapeText(e.threads, "x") << " threads";
    out << ":\n";
    for (std::size_t i = 0; i < e.pairs.size(); ++i) {
        const auto &pr = e.pairs[i];
        out << (e.nearest == i ? "  * " : "    ") << char('a' + i) << ") " << core::pecKindName(pr.p_kind) << " p, "
            << core::pecKindName(pr.q_kind) << " q: (" << fmt(pr.p, "%.6g") << ", " << fmt(pr.q, "%.6g") << ")";
        if (!e.cpi.empty())
            out << "  CPI " << (std::isfinite(e.cpi[i]) ? fmt(e.cpi[i], "%.6g") : std::string("infinite"));
        out << '\n';
    }
    if (e.nearest)
        out << "  (* nearest the measured CPI " << fmt(*e.in.measured_cpi, "%.6g") << ")\n";
}

void printJson(const Estimates &e, std::ostream &out)
{
    Json j;
    j["instructions"] = e.p ? Json(e.in.instructions) : Json(nullptr);
    j["p_difference"] = core::suspendDifferenceName(e.difference);
    j["q_weighting"] = core::latencyWeightingName(e.weighting);
    if (e.p) {
        std::vector<std::string> names;
        Json events = Json::array();
        for (std::size_t i = 0; i < e.in.suspend.size(); ++i) {
            const auto &ev = e.in.suspend[i];
            names.push_back(eventLabel(ev.name, i));
            events.push_back({{"name", names.back()},
                              {"multi", ev.multi},
                              {"single", ev.single},
                              {"pec", e.p->pec[i]},
                              {"rejected", bool(e.p->rejected[i])}});
        }
        j["p"] = {{"events", events},
                  {"lowest", e.p->vector.lowest},
                  {"highest", e.p->vector.highest},
                  {"all", e.p->vector.all},
                  {"lowest_event", optionalName(names, e.p->vector.lowest_event)},
                  {"highest_event", optionalName(names, e.p->vector.highest_event)}};
    } else {
        j["p"] = nullptr;
    }
    if (e.q) {
        std::vector<std::string> names;
        Json events = Json::array();
        for (std::size_t i = 0; i < e.in.stall.size(); ++i) {
            const auto &ev = e.in.stall[i];
            names.push_back(eventLabel(ev.name, i));
            events.push_back({{"name", names.back()},
                              {"count", ev.count},
                              {"latency", ev.latency},
                              {"cycles", e.q->cycles[i]},
                              {"q", e.q->q[i]}});
        }
        j["q"] = {{"events", events},
                  {"mean_latency", e.q->mean_latency},
                  {"lowest", e.q->vector.lowest},
                  {"highest", e.q->vector.highest},
                  {"all", e.q->vector.all},
                  {"lowest_event", optionalName(names, e.q->vector.lowest_event)},
                  {"highest_event", optionalName(names, e.q->vector.highest_event)}};
    } else {
        j["q"] = nullptr;
    }
    Json pairs = Json::array();
    for (std::size_t i = 0; i < e.pairs.size(); ++i) {
        const auto &pr = e.pairs[i];
        Json item = {{"p_kind", core::pecKindName(pr.p_kind)},
                     {"q_kind", core::pecKindName(pr.q_kind)},
                     {"p", pr.p},
                     {"q", pr.q}};
        if (!e.cpi.empty()) {
            item["cpi"] = cpiJson(e.cpi[i]);
            item["infinite"] = !std::isfinite(e.cpi[i]);
        }
        pairs.push_back(item);
    }
    j["starting_pairs"] = pairs;
    j["group_threads"] = e.threads.empty() ? Json(nullptr) : Json(e.threads);
    j["measured_cpi"] = e.in.measured_cpi ? Json(*e.in.measured_cpi) : Json(nullptr);
    j["nearest"] = e.nearest ? Json(*e.nearest) : Json(nullptr);
    if (e.perf) {
        const auto text = [](const std::string &s) { return s.empty() ? Json(nullptr) : Json(s); };
        const auto number = [](const std::optional<double> &v) { return v ? Json(*v) : Json(nullptr); };
        Json events = Json::array();
        for (const auto &u : e.perf->mapping.events) {
            events.push_back({{"name", u.name},
                              {"meaning", u.meaning},
                              {"unit", u.unit},
                              {"multi", number(u.multi)},
                              {"single", number(u.single)},
                              {"use", core::counterUseName(u.use)},
                              {"default_use", core::counterUseName(u.default_use)},
                              {"latency", number(u.latency)}});
        }
        j["perf"] = {{"multi_file", e.perf->mapping.multi_source},
                     {"single_file", text(e.perf->mapping.single_source)},
                     {"events", events},
                     {"cpi", number(e.perf->result.file_cpi)},
                     {"cpi_note", text(e.perf->result.cpi_note)},
                     {"p_missing", text(e.perf->result.p_missing)},
                     {"q_missing", text(e.perf->result.q_missing)}};
    } else {
        j["perf"] = nullptr;
    }
    out << jsonOutput(j) << '\n';
}

void printCsv(const Estimates &e, std::ostream &out)
{
    writeCsvRow(out, {"kind", "name", "multi", "single", "count", "latency", "stall_cycles", "value", "note"});
    if (e.perf) {
        const auto number = [](const std::optional<double> &v) { return v ? csvNumber(*v) : std::string(); };
        for (const auto &u : e.perf->mapping.events) {
            writeCsvRow(out, {"perf_event", csvText(u.name), number(u.multi), number(u.single), "", number(u.latency),
                              "", "", csvText(std::string(core::counterUseName(u.use)) + ": " + u.meaning)});
        }
    }
    if (e.p) {
        for (std::size_t i = 0; i < e.in.suspend.size(); ++i) {
            const auto &ev = e.in.suspend[i];
            writeCsvRow(out, {"suspend", csvText(eventLabel(ev.name, i)), csvNumber(ev.multi), csvNumber(ev.single),
                              "", "", "", csvNumber(e.p->pec[i]),
                              e.p->rejected[i] ? "rejected"
                                               : csvText(marker(e.p->vector.lowest_event, e.p->vector.highest_event, i))});
        }
        writeCsvRow(out, {"p", "all", "", "", "", "", "", csvNumber(e.p->vector.all), ""});
    }
    if (e.q) {
        for (std::size_t i = 0; i < e.in.stall.size(); ++i) {
            const auto &ev = e.in.stall[i];
            writeCsvRow(out, {"stall", csvText(eventLabel(ev.name, i)), "", "", csvNumber(ev.count),
                              csvNumber(ev.latency), csvNumber(e.q->cycles[i]), csvNumber(e.q->q[i]),
                              csvText(marker(e.q->vector.lowest_event, e.q->vector.highest_event, i))});
        }
        writeCsvRow(out, {"q", "all", "", "", "", csvNumber(e.q->mean_latency), "", csvNumber(e.q->vector.all), ""});
    }
}

void runCounters(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"},
                           {"file", "perf", "perf-single", "instructions", "measured-cpi", "p-difference",
                            "q-weighting", "groups", "threads-per-group", "format"},
                           {"suspend", "stall", "use"}});
    const OutputFormat format = outputFormat(args);
    Estimates e;
    e.perf = perfFrom(args);
    e.in = inputsFrom(args, e.perf);
    const std::string difference = args.value("p-difference", "multi-single");
    if (difference == "single-multi")
        e.difference = core::SuspendDifference::SingleMinusMulti;
    else if (difference != "multi-single")
        throw InputError("option '--p-difference': must be multi-single or single-multi (got '" + difference + "')");
    const std::string weighting = args.value("q-weighting", "cycles");
    if (weighting == "occurrences")
        e.weighting = core::LatencyWeighting::Occurrences;
    else if (weighting != "cycles")
        throw InputError("option '--q-weighting': must be cycles or occurrences (got '" + weighting + "')");
    if (args.has("groups") != args.has("threads-per-group"))
        throw InputError("options '--groups' and '--threads-per-group' go together");
    if (args.has("groups")) {
        const long long groups = args.integer("groups", 1, 1, (long long)core::kMaxGroups);
        const long long threads = args.integer("threads-per-group", 1, 1, core::kMaxThreadsPerGroup);
        e.threads.assign(std::size_t(groups), int(threads));
    }
    if (args.has("measured-cpi") && e.threads.empty())
        throw InputError("a measured CPI picks the nearest starting pair: give '--groups' and '--threads-per-group'");

    try {
        if (!e.in.suspend.empty())
            e.p = core::estimateP(e.in.suspend, e.in.instructions, e.difference);
        if (!e.in.stall.empty())
            e.q = core::estimateQ(e.in.stall, e.weighting);
    } catch (const InputError &problem) {
        // The counts are valid one by one; what they give together is refused, from the file that has them.
        if (!args.has("file") && !args.has("perf"))
            throw;
        const std::string file = args.value(args.has("file") ? "file" : "perf");
        throw InputError((file == "-" ? std::string("standard input") : file) + ": " + problem.what());
    }
    if (e.p && e.q) {
        const auto pairs = core::startingPairs(e.p->vector, e.q->vector);
        e.pairs.assign(pairs.begin(), pairs.end());
        if (!e.threads.empty()) {
            for (const auto &pr : e.pairs) {
                core::MarkovTopology t;
                for (int n : e.threads)
                    t.push_back({n, pr.p, pr.q});
                const core::MarkovResult m = core::solveMarkovExact(t, std::nullopt);
                e.cpi.push_back(m.cpi); // +infinity exactly when absorbing
            }
        }
        if (e.in.measured_cpi && !e.threads.empty())
            e.nearest = core::nearestStartingPair(e.pairs, e.threads, *e.in.measured_cpi).index;
    } else if (args.has("measured-cpi")) {
        throw InputError("a measured CPI picks one of the starting pairs, which need both suspend and stall events");
    }

    switch (format) {
    case OutputFormat::Text:
        printText(e, out);
        break;
    case OutputFormat::Json:
        printJson(e, out);
        break;
    case OutputFormat::Csv:
        printCsv(e, out);
        break;
    }
}

constexpr const char *kHelp
        = "Usage: crossroof-cli counters (--file FILE | --perf FILE [--perf-single FILE] [--use EVENT=USE]... |\n"
          "                               --instructions N [--suspend NAME=MULTI,SINGLE]...\n"
          "                               [--stall NAME=COUNT,LATENCY]...) [--measured-cpi CPI]\n"
          "                               [--groups G --threads-per-group N] [--p-difference multi-single|\n"
          "                               single-multi] [--q-weighting cycles|occurrences]\n"
          "                               [--format text|json|csv] [--json]\n\n"
          "The Markov model's p and q from performance counters (Mitra's thesis 4.2.6, 4.2.7, 4.3;\n"
          "docs/MODEL.md 3): per suspending event PEC = (multi - single) / instructions, negative ones\n"
          "rejected, p = the sum; per stalling event q_i = 1 - 1/m_i, q = 1 - 1/M with M the latencies'\n"
          "mean weighted by stall cycles; the PEC vectors (lowest, highest, all) and the nine starting\n"
          "pairs. The thesis' Tables 4.4 and 4.5 come out with their events.\n\n"
          "  --file FILE            counters as JSON: {\"instructions\":N,\"suspend\":[{\"name\",\"multi\",\n"
          "                         \"single\"}],\"stall\":[{\"name\",\"count\",\"latency\"}],\"measured_cpi\":CPI}\n"
          "                         (the \"counters\" object of a session); - is standard input\n"
          "  --perf FILE            perf stat -x output of the multi-threaded run: its events are mapped\n"
          "                         to their uses by name (cycles, instructions; as suspend: misses of the\n"
          "                         deepest cache level in the file, e.g. r10d1 MEM_LOAD_RETIRED.L2_MISS, TLB\n"
          "                         walks, mispredicted branches; the rest unused), listed with the results;\n"
          "                         cycles / instructions is the measured CPI, refused below 1 (the model's\n"
          "                         thread retires one instruction per cycle; a superscalar core more)\n"
          "  --perf-single FILE     perf stat -x output of the single-threaded run: E_single, needed for p\n"
          "  --use EVENT=USE        an event's use: unused, cycles, instructions, suspend, stall:CYCLES or\n"
          "                         suspend+stall:CYCLES (a stall needs its latency; perf stat has none)\n"
          "                         (repeatable). Without p's or q's inputs that one is not estimated and the\n"
          "                         output says why; without both, exit 2 naming what is missing\n"
          "  --instructions N       instructions retired by the multi-threaded run (needed for p)\n"
          "  --suspend NAME=MULTI,SINGLE  a suspending event's counts in the multi- and single-threaded\n"
          "                         runs (repeatable)\n"
          "  --stall NAME=COUNT,LATENCY   a stalling event's occurrences and cycles per occurrence (>= 1)\n"
          "                         (repeatable)\n"
          "  --measured-cpi CPI     marks the starting pair whose predicted CPI is nearest (needs the shape)\n"
          "  --groups G, --threads-per-group N  the Markov model's shape: the starting pairs' steady-state CPI\n"
          "  --p-difference RULE    multi-single (Eq. 6, Table 4.4; default) or single-multi (Table 5.20 as\n"
          "                         printed)\n"
          "  --q-weighting RULE     cycles (Eq. 8, Table 4.5: M = sum f m^2 / sum f m, a mean; default) or\n"
          "                         occurrences (Table 5.21: M = sum f m^2 / sum f)\n"
          "  --format json          {\"p\":{\"events\":[{\"name\",\"multi\",\"single\",\"pec\",\"rejected\"}],\"lowest\",\n"
          "                         \"highest\",\"all\",..},\"q\":{\"events\":[{\"name\",\"count\",\"latency\",\"cycles\",\n"
          "                         \"q\"}],\"mean_latency\",\"lowest\",\"highest\",\"all\",..},\"starting_pairs\":[..],\n"
          "                         \"nearest\":..,\"perf\":{\"multi_file\",\"single_file\",\"events\":[{\"name\",\n"
          "                         \"meaning\",\"unit\",\"multi\",\"single\",\"use\",\"default_use\",\"latency\"}],\n"
          "                         \"cpi\",\"cpi_note\",\"p_missing\",\"q_missing\"} (null without --perf)}; p or q\n"
          "                         null without its events\n"
          "  --format csv           one row per event and one per total: kind (perf_event, suspend, p, stall,\n"
          "                         q),name,multi,single,count,latency (M on the q row),stall_cycles,value\n"
          "                         (PEC, p, q_i or q),note (lowest, highest, rejected; a perf_event's\n"
          "                         \"use: meaning\")\n"
          "  --json                 the same as --format json; without either, tables (--format text)\n";

} // namespace

const Command kCountersCommand{"counters", "p and q of the Markov model from performance counters", kHelp,
                               runCounters};

} // namespace crossroof::cli
