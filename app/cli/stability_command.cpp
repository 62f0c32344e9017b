// SPDX-License-Identifier: GPL-3.0-or-later
// stability-map, hysteresis and advise: the X-model's bistability and tuning (MODEL.md 1.5, 1.6).
#include "core/xmodel/advisor.h"
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "trace_selection.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/xmodel/hysteresis.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/stability_map.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>

namespace crossroof::cli {

namespace {

using core::InputError;

constexpr std::size_t kMaxMapCells = std::size_t(1) << 20;

/// --profile and --set, as xgraph reads them, checked as a whole.
ModelInputs validatedInputs(const Args &args)
{
    ModelInputs in = modelInputs(args);
    core::validate(in.params);
    return in;
}

Json optional(const std::optional<double> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const auto pos = text.find(sep, start);
        parts.push_back(
                text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos)
            return parts;
        start = pos + 1;
    }
}

/// Whether TEXT is a number (core::parseNumber); if so, V is set to it.
bool parseNumber(std::string_view text, double &v)
{
    const std::optional<double> n = core::parseNumber(text);
    if (n)
        v = *n;
    return n.has_value();
}

/// Runs body and puts "option '--NAME': " in front of its InputError.
template<typename Fn>
auto forOption(const std::string &name, Fn &&body)
{
    try {
        return body();
    } catch (const InputError &e) {
        throw InputError("option '--" + name + "': " + e.what());
    }
}

// ---- stability-map ----

core::MapAxis parseAxis(const std::string &option, const std::string &text)
{
    const auto parts = split(text, ':');
    core::MapAxis axis;
    double count = 0;
    const bool shape = (parts.size() == 4 || parts.size() == 5) && !parts[0].empty()
                       && parseNumber(parts[1], axis.min) && parseNumber(parts[2], axis.max)
                       && parseNumber(parts[3], count);
    if (!shape || (parts.size() == 5 && parts[4] != "log" && parts[4] != "lin"))
        throw InputError("option '--" + option + "': expected KEY:MIN:MAX:COUNT[:log] (got '" + core::quoteForMessage(text) + "')");
    if (!(count >= 1 && count <= core::kMaxMapAxisCount) || count != std::floor(count)) {
        throw InputError("option '--" + option + "': COUNT must be a whole number from 1 to "
                         + std::to_string(core::kMaxMapAxisCount) + " (got '" + std::string(parts[3]) + "')");
    }
    axis.key = std::string(parts[0]);
    axis.count = int(count);
    axis.log = parts.size() == 5 && parts[4] == "log";
    forOption(option, [&] { core::checkAxis(axis); });
    return axis;
}

void printMapText(const ModelInputs &r, const core::StabilityMap &map, std::ostream &out)
{
    auto describe = [](const core::MapAxis &a, const std::vector<double> &v) {
        return a.key + " (" + std::to_string(v.size()) + " values, " + fmt(v.front()) + " .. " + fmt(v.back())
               + (a.log ? ", log" : "") + ")";
    };
    out << "Profile   " << r.profile.name << " (" << r.profile.id << ")\n"
        << "Stability map over x = " << describe(map.x, map.x_values)
        << " and y = " << describe(map.y, map.y_values) << "\n\n";
    std::map<int, std::size_t> histogram;
    double lo = map.operating_gbs.front();
    double hi = lo;
    for (std::size_t c = 0; c < map.stable_count.size(); ++c) {
        ++histogram[map.stable_count[c]];
        lo = std::min(lo, map.operating_gbs[c]);
        hi = std::max(hi, map.operating_gbs[c]);
    }
    const double cells = double(map.stable_count.size());
    for (const auto &[count, cellsWith] : histogram) {
        out << "  " << count << " stable state" << (count == 1 ? " " : "s")
            << (count == 2 ? " (bistable)" : "") << ": " << cellsWith << " cells ("
            << fmt(100.0 * double(cellsWith) / cells, "%.1f") << " %)\n";
    }
    out << "  operating point: " << fmt(lo) << " .. " << fmt(hi) << " GB/s\n";
    if (map.x_values.size() > 100 || map.y_values.size() > 60) {
        out << "\n(the grid is too large to draw here; use --json)\n";
        return;
    }
    out << "\nStable states per cell (y rises upwards, x to the right):\n";
    for (std::size_t j = map.y_values.size(); j-- > 0;) {
        out << fmt(map.y_values[j], "%10.4g") << "  ";
        for (std::size_t i = 0; i < map.x_values.size(); ++i) {
            const int c = map.stable_count[map.index(i, j)];
            out << char(c >= 0 && c <= 9 ? '0' + c : '+');
        }
        out << '\n';
    }
    out << std::string(12, ' ') << "x: " << fmt(map.x_values.front()) << " .. " << fmt(map.x_values.back())
        << '\n';
}

void runStabilityMap(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, withMeasuredCurves({{"json"}, {"profile", "x", "y", "threads", "format"}, {"set"}}));
    const OutputFormat format = outputFormat(args);
    const ModelInputs r = validatedInputs(args);
    for (const char *name : {"x", "y"}) {
        if (!args.has(name))
            throw InputError("option '--" + std::string(name) + "' is required (KEY:MIN:MAX:COUNT[:log])");
    }
    const core::MapAxis x = parseAxis("x", args.value("x"));
    const core::MapAxis y = parseAxis("y", args.value("y"));
    if (x.key == y.key)
        throw InputError("option '--y': the axes need two different keys (both are '" + x.key + "')");
    if (std::size_t(x.count) * std::size_t(y.count) > kMaxMapCells) {
        throw InputError("option '--y': " + std::to_string(x.count) + " x " + std::to_string(y.count)
                         + " cells, at most " + std::to_string(kMaxMapCells));
    }
    const int threads = int(args.integer("threads", 2, 1, 64));

    core::StabilityMapper mapper(r.params, x, y);
    mapper.compute(1, threads);
    const core::StabilityMap &map = mapper.map();
    if (format == OutputFormat::Text) {
        printMapText(r, map, out);
        return;
    }
    if (format == OutputFormat::Csv) {
        // One row per cell, y outer and x inner: the order of the JSON grids read row by row.
        writeCsvRow(out, {csvParameterColumn(map.x.key), csvParameterColumn(map.y.key), "stable_count",
                          "operating_gbs"});
        for (std::size_t j = 0; j < map.y_values.size(); ++j) {
            for (std::size_t i = 0; i < map.x_values.size(); ++i) {
                const std::size_t c = map.index(i, j);
                writeCsvRow(out, {csvNumber(map.x_values[i]), csvNumber(map.y_values[j]),
                                  csvInteger(map.stable_count[c]), csvNumber(map.operating_gbs[c])});
            }
        }
        return;
    }
    auto grid = [&](auto member) {
        Json rows = Json::array();
        for (std::size_t j = 0; j < map.y_values.size(); ++j) {
            Json row = Json::array();
            for (std::size_t i = 0; i < map.x_values.size(); ++i)
                row.push_back((map.*member)[map.index(i, j)]);
            rows.push_back(std::move(row));
        }
        return rows;
    };
    Json j;
    j["x"] = {{"key", map.x.key}, {"values", map.x_values}, {"log", map.x.log}};
    j["y"] = {{"key", map.y.key}, {"values", map.y_values}, {"log", map.y.log}};
    j["stable_count"] = grid(&core::StabilityMap::stable_count);
    j["operating_gbs"] = grid(&core::StabilityMap::operating_gbs);
    j["parameters"] = parametersJson(r.params);
    j["profile"] = r.profile.id;
    out << jsonOutput(j, -1) << '\n';
}

constexpr const char *kMapHelp
        = "Usage: crossroof-cli stability-map [--profile ID|PATH] [--set KEY=VALUE]...\n"
          "           --x KEY:MIN:MAX:COUNT[:log] --y KEY:MIN:MAX:COUNT[:log] [--threads N]\n"
          "           [--format text|json|csv] [--json]\n\n"
          "Counts the stable equilibria of the X-model (1 = unique, 2 = bistable, ...) and the\n"
          "operating-point MS throughput over a grid of two parameters (docs/MODEL.md 1.6). Region\n"
          "edges are tangencies of f and G.\n\n"
          "  --profile ID|PATH  a bundled profile id or a profile JSON file; default: the default profile\n"
          "  --set KEY=VALUE    override a parameter (repeatable), as for xgraph\n"
          "  --supply FILE      a measured f(k) in place of the analytic curve, as for xgraph, with\n"
          "                     --supply-x, --supply-y, --supply-where and --supply-series\n"
          "  --demand FILE      a measured g(x) likewise, with --demand-x, --demand-y, --demand-where\n"
          "                     and --demand-series\n"
          "  --x, --y SPEC      KEY:MIN:MAX:COUNT[:log] for any numeric key (n Z E R L M L_c S_s L_s h\n"
          "                     alpha beta bypass ...): COUNT values from MIN to MAX, evenly or (:log) geometrically\n"
          "                     spaced; whole-number keys such as n are rounded. At most 4096 values per\n"
          "                     axis and 1048576 cells\n"
          "  --threads N        worker threads (default 2)\n"
          "  --format json      {\"x\":{\"key\":..,\"values\":[..]},\"y\":{..},\"stable_count\":[[..]],\n"
          "                     \"operating_gbs\":[[..]]}, stable_count[j][i] at y index j, x index i\n"
          "  --format csv       CSV, one row per cell (y outer, x inner): the x key and the y key with\n"
          "                     their units (e.g. n_warps,Z_inst_per_req),stable_count,operating_gbs\n"
          "  --json             the same as --format json; without either, a summary and (for small\n"
          "                     grids) the map in digits (--format text)\n";

// ---- hysteresis ----

void printHysteresisText(const ModelInputs &r, const core::HysteresisResult &h, std::ostream &out)
{
    out << "Profile   " << r.profile.name << " (" << r.profile.id << ")\n"
        << "Hysteresis sweep of " << h.key << " up from " << fmt(h.values.front()) << " to "
        << fmt(h.values.back()) << " and down again (docs/MODEL.md 1.6)\n\n";
    char buf[128];
    std::snprintf(buf, sizeof buf, "%14s %10s %10s %7s\n", h.key.c_str(), "up GB/s", "down GB/s", "stable");
    out << buf;
    for (std::size_t i = 0; i < h.values.size(); ++i) {
        const bool differs = std::abs(h.up_gbs[i] - h.down_gbs[i]) > 1e-9 * std::max(h.up_gbs[i], 1e-300);
        out << fmt(h.values[i], "%14.6g") << fmt(h.up_gbs[i], " %10.3f") << fmt(h.down_gbs[i], " %10.3f");
        std::snprintf(buf, sizeof buf, " %7d%s\n", h.stable_count[i], differs ? "  <- branches differ" : "");
        out << buf;
    }
    out << '\n';
    if (h.jumps.empty())
        out << "No jumps: both sweeps follow one branch.\n";
    for (const auto &jump : h.jumps) {
        out << "Jump " << (jump.rising ? "up sweep  " : "down sweep") << " " << h.key << " "
            << fmt(jump.from_value) << " -> " << fmt(jump.to_value) << ": " << fmt(jump.from_gbs) << " -> "
            << fmt(jump.to_gbs) << " GB/s (k " << fmt(jump.from_k) << " -> " << fmt(jump.to_k) << " warps)\n";
    }
}

void runHysteresis(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, withMeasuredCurves({{"json"}, {"profile", "n", "param", "range", "format"}, {"set"}}));
    const OutputFormat format = outputFormat(args);
    const ModelInputs r = validatedInputs(args);
    std::string key = "n";
    std::string option = "n";
    if (args.has("n")) {
        if (args.has("param") || args.has("range"))
            throw InputError("option '--n': use either --n or --param with --range");
    } else if (args.has("param")) {
        key = args.value("param");
        option = "range";
        if (!core::findParameter(key))
            throw InputError("option '--param': unknown parameter '" + core::quoteForMessage(key)
                             + "' (a numeric key of docs/MODEL.md 1.2)");
        if (!args.has("range"))
            throw InputError("option '--range' is required with --param (MIN:MAX:STEP)");
    } else {
        throw InputError("option '--n' is required (MIN:MAX:STEP), or --param KEY with --range MIN:MAX:STEP");
    }
    if (args.has("range") && !args.has("param"))
        throw InputError("option '--range' needs --param KEY");

    const std::string spec = args.value(option);
    const auto parts = split(spec, ':');
    double lo = 0;
    double hi = 0;
    double step = 0;
    if (parts.size() != 3 || !parseNumber(parts[0], lo) || !parseNumber(parts[1], hi)
        || !parseNumber(parts[2], step))
        throw InputError("option '--" + option + "': expected MIN:MAX:STEP (got '" + spec + "')");
    // Counted here, where the option can be named: (MAX - MIN)/STEP may overflow to infinity.
    if (step > 0 && lo <= hi && !((hi - lo) / step < double(core::kMaxSweepValues)))
        throw InputError("option '--" + option + "': STEP " + std::string(parts[2]) + " over " + std::string(parts[0]) + " to " + std::string(parts[1])
                         + " gives more than " + std::to_string(core::kMaxSweepValues) + " values (raise STEP)");
    const std::vector<double> values
            = forOption(option, [&] { return core::sweepValues(key, lo, hi, step); });
    const core::HysteresisResult h = core::sweepHysteresis(r.params, key, values);

    if (format == OutputFormat::Text) {
        printHysteresisText(r, h, out);
        return;
    }
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {csvParameterColumn(h.key), "up_gbs", "down_gbs", "up_k_warps", "down_k_warps",
                          "stable_count"});
        for (std::size_t i = 0; i < h.values.size(); ++i) {
            writeCsvRow(out, {csvNumber(h.values[i]), csvNumber(h.up_gbs[i]), csvNumber(h.down_gbs[i]),
                              csvNumber(h.up_k[i]), csvNumber(h.down_k[i]), csvInteger(h.stable_count[i])});
        }
        return;
    }
    Json j;
    if (key == "n")
        j["n"] = h.values;
    j["up_gbs"] = h.up_gbs;
    j["down_gbs"] = h.down_gbs;
    j["param"] = h.key;
    j["values"] = h.values;
    j["up_k"] = h.up_k;
    j["down_k"] = h.down_k;
    j["stable_count"] = h.stable_count;
    Json jumps = Json::array();
    for (const auto &jump : h.jumps) {
        jumps.push_back({{"direction", jump.rising ? "up" : "down"},
                         {"index", jump.index},
                         {"from_value", jump.from_value},
                         {"to_value", jump.to_value},
                         {"from_k", jump.from_k},
                         {"to_k", jump.to_k},
                         {"from_gbs", jump.from_gbs},
                         {"to_gbs", jump.to_gbs}});
    }
    j["jumps"] = jumps;
    j["parameters"] = parametersJson(r.params);
    j["profile"] = r.profile.id;
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHysteresisHelp
        = "Usage: crossroof-cli hysteresis [--profile ID|PATH] [--set KEY=VALUE]... --n MIN:MAX:STEP\n"
          "           [--format text|json|csv] [--json]\n"
          "       crossroof-cli hysteresis [--profile ID|PATH] [--set KEY=VALUE]... --param KEY\n"
          "           --range MIN:MAX:STEP [--format text|json|csv] [--json]\n\n"
          "Raises a parameter step by step, each step starting from the previous state and following\n"
          "the flow dk/dt = -F(k) to rest, then lowers it again (docs/MODEL.md 1.6). Inside a bistable\n"
          "range the two sweeps can rest on different branches; a jump is where a branch ends at a\n"
          "tangency.\n"
          "When n changes the state keeps k, the warps in the memory system (clamped to [0, n]).\n\n"
          "  --n MIN:MAX:STEP   sweep the resident warps n (whole numbers)\n"
          "  --param KEY        sweep another numeric key instead, over --range MIN:MAX:STEP\n"
          "  --profile, --set   as for xgraph\n"
          "  --supply FILE      a measured f(k) in place of the analytic curve, as for xgraph, with\n"
          "                     --supply-x, --supply-y, --supply-where and --supply-series\n"
          "  --demand FILE      a measured g(x) likewise, with --demand-x, --demand-y, --demand-where\n"
          "                     and --demand-series\n"
          "  --format json      {\"n\":[..],\"up_gbs\":[..],\"down_gbs\":[..]} (\"n\" for n sweeps) with\n"
          "                     \"param\", \"values\", \"up_k\", \"down_k\", \"stable_count\" and "
          "\"jumps\"\n"
          "  --format csv       CSV, one row per value: the swept key with its unit (e.g. n_warps),\n"
          "                     up_gbs,down_gbs,up_k_warps,down_k_warps,stable_count (no jumps: see JSON)\n"
          "  --json             the same as --format json; without either, a table (--format text)\n";

// ---- advise ----

Json adviceJson(const core::TuningAdvice &a)
{
    Json changes = Json::object();
    for (const auto &c : a.changes)
        changes[std::string(c.key)] = c.to;
    Json j;
    j["rank"] = a.applicable ? Json(a.rank) : Json(nullptr);
    j["id"] = a.id;
    j["name"] = a.name;
    j["applicable"] = a.applicable;
    j["reason"] = a.applicable ? Json(nullptr) : Json(a.reason);
    j["changes"] = changes;
    if (a.applicable) {
        j["k"] = a.k;
        j["ms_throughput_gbs"] = a.ms_gbs;
        j["cs_throughput_gops"] = a.cs_gops;
        j["ms_change_gbs"] = a.ms_change_gbs;
        j["ms_change_percent"] = optional(a.ms_change_percent);
        j["cs_change_gops"] = a.cs_change_gops;
        j["cs_change_percent"] = optional(a.cs_change_percent);
        j["stable_count"] = a.stable_count;
        j["low_state"] = {{"k", a.low_k},
                          {"ms_throughput_gbs", a.low_ms_gbs},
                          {"cs_throughput_gops", a.low_cs_gops},
                          {"ms_change_gbs", a.low_ms_change_gbs},
                          {"ms_change_percent", optional(a.low_ms_change_percent)},
                          {"cs_change_gops", a.low_cs_change_gops},
                          {"cs_change_percent", optional(a.low_cs_change_percent)}};
        j["principle"] = a.principle;
        j["why"] = a.why;
        Json ties = Json::array();
        for (std::string_view name : a.ties)
            ties.push_back(std::string(name));
        j["ties_with"] = ties;
        j["tie_reason"] = a.ties.empty() ? Json(nullptr) : Json(a.tie_reason);
    }
    return j;
}

void printAdviceText(const ModelInputs &r, const core::Advice &a, std::ostream &out)
{
    const auto &p = a.params;
    out << "Profile   " << r.profile.name << " (" << r.profile.id << ")\n"
        << "Workload  n=" << fmt(p.n) << " warps, Z=" << fmt(p.Z) << ", E=" << fmt(p.E)
        << ", cache=" << core::cacheModeName(p.cache) << "\n"
        << "Now       k=" << fmt(a.k) << " warps, " << fmt(a.ms_gbs) << " GB/s, " << siQuantity(a.cs_gops, "op/s")
        << (a.stable_count >= 2 ? " (bistable: " + std::to_string(a.stable_count) + " stable states)" : "")
        << '\n';
    if (a.from_low_state) {
        out << "Low state k=" << fmt(a.low_k) << " warps, " << fmt(a.low_ms_gbs) << " GB/s, "
            << siQuantity(a.low_cs_gops, "op/s") << ": where a perturbation beyond the margin leaves the machine\n"
            << "\nTuning operations, ranked by CS throughput gain from the low state (the X-model paper, VI):\n";
    } else {
        out << "\nTuning operations, ranked by CS throughput gain (the X-model paper, VI):\n";
    }
    for (const auto &op : a.operations) {
        if (!op.applicable) {
            out << "   -  " << op.name << ": does not apply (" << op.reason << ")\n";
            continue;
        }
        std::string changes;
        for (const auto &c : op.changes)
            changes += (changes.empty() ? "" : ", ") + core::describeChange(c);
        auto pct = [](const std::optional<double> &v) {
            return v ? " (" + fmt(std::abs(*v) < 1e-7 ? 0.0 : *v, "%+.1f") + " %)" : std::string();
        };
        // A difference of two full evaluations within 1e-9 of the value is round-off, not a change.
        auto change = [](double v, double base, const char *unit) {
            return siQuantity(std::abs(v) <= 1e-9 * std::abs(base) ? 0.0 : v, unit, true);
        };
        out << fmt(op.rank, "%4.0f") << ". " << op.name << ": " << changes << "\n";
        if (a.from_low_state) {
            out << "      from the low state: CS " << change(op.low_cs_change_gops, a.low_cs_gops, "op/s")
                << pct(op.low_cs_change_percent) << ", MS " << change(op.low_ms_change_gbs, a.low_ms_gbs, "B/s")
                << pct(op.low_ms_change_percent) << "; " << op.stable_count << " stable state"
                << (op.stable_count == 1 ? "" : "s") << " after\n"
                << "      from the operating point: ";
        } else {
            out << "      ";
        }
        out << "CS " << change(op.cs_change_gops, a.cs_gops, "op/s") << pct(op.cs_change_percent) << ", MS "
            << change(op.ms_change_gbs, a.ms_gbs, "B/s") << pct(op.ms_change_percent) << "\n"
            << "      Principle " << op.principle << ": " << op.why << "\n";
        if (!op.ties.empty()) {
            std::string names;
            for (std::size_t i = 0; i < op.ties.size(); ++i)
                names += std::string(i == 0 ? "" : i + 1 == op.ties.size() ? " and " : ", ") + std::string(op.ties[i]);
            out << "      Ties with " << names << ": " << op.tie_reason << ".\n";
        }
    }
    const auto &d = a.degradation;
    out << "\nDegradation when warps are added (the X-model paper, III-D-2):\n"
        << (d.bistable ? "  at most " + fmt(d.max_gbs) + " GB/s\n" : std::string());
    if (d.tangency_n) {
        out << "  at least " << fmt(*d.min_drop_gbs) << " GB/s: the fall from " << fmt(*d.tangency_high_gbs)
            << " to " << fmt(*d.tangency_low_gbs)
            << " GB/s where a second stable state appears, n = " << fmt(*d.tangency_n, "%.6g") << '\n';
    } else {
        out << "  no second stable state for n up to " << fmt(std::max(p.n, p.max_warps)) << '\n';
    }
}

void runAdvise(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, withMeasuredCurves({{"json"}, {"profile", "cache-size"}, {"set"}}));
    const ModelInputs r = validatedInputs(args);
    core::AdvisorOptions options;
    if (args.has("cache-size")) {
        const std::string text = args.value("cache-size");
        const double kib = args.number("cache-size", 0);
        if (auto problem = core::checkValue(*core::findParameter("S_s"), kib))
            throw InputError("option '--cache-size': " + *problem);
        if (kib <= r.params.S_s) {
            throw InputError("option '--cache-size': must be above the current S_s = " + fmt(r.params.S_s)
                             + " KiB (got " + text + ")");
        }
        options.cache_size_kib = kib;
    }
    const core::Advice a = core::advise(r.params, options);
    if (!args.flag("json")) {
        printAdviceText(r, a, out);
        return;
    }
    Json j;
    j["parameters"] = parametersJson(r.params);
    j["profile"] = r.profile.id;
    j["current"] = {{"k", a.k},
                    {"ms_throughput_gbs", a.ms_gbs},
                    {"cs_throughput_gops", a.cs_gops},
                    {"stable_count", a.stable_count},
                    {"low_state",
                     a.from_low_state ? Json {{"k", a.low_k},
                                              {"ms_throughput_gbs", a.low_ms_gbs},
                                              {"cs_throughput_gops", a.low_cs_gops}}
                                      : Json(nullptr)},
                    {"ranked_from", a.from_low_state ? "low_state" : "operating_point"}};
    Json ops = Json::array();
    for (const auto &op : a.operations)
        ops.push_back(adviceJson(op));
    j["operations"] = ops;
    const auto &d = a.degradation;
    j["degradation"] = {{"max_gbs", d.bistable ? Json(d.max_gbs) : Json(nullptr)},
                        {"tangency_n", optional(d.tangency_n)},
                        {"tangency_high_gbs", optional(d.tangency_high_gbs)},
                        {"tangency_low_gbs", optional(d.tangency_low_gbs)},
                        {"min_drop_gbs", optional(d.min_drop_gbs)}};
    out << jsonOutput(j) << '\n';
}

constexpr const char *kAdviseHelp
        = "Usage: crossroof-cli advise [--profile ID|PATH] [--set KEY=VALUE]... [--cache-size KIB] "
          "[--json]\n\n"
          "Evaluates the tuning operations of the X-model paper's case study (section VI) for the\n"
          "current parameters, each as the difference of two full model evaluations, and ranks them by\n"
          "CS throughput gain:\n"
          "  thread throttling   the best n in 1..n, every n evaluated\n"
          "  cache bypassing     the best share b of warps that bypass the cache, b up to 0.95\n"
          "  larger cache        S_s doubled (or --cache-size KIB)\n"
          "  faster cache        L_s halved\n"
          "  higher intensity    Z + 25 %\n"
          "  lower ILP           the best E in [E/2, E] (65 values)\n"
          "When the machine is bistable the operating point is its best state, and a perturbation\n"
          "beyond the margin leaves it in the low stable state (largest k): the searches and the\n"
          "ranking then use the gain from the low state, printed beside the gain from the operating\n"
          "point.\n"
          "An operation whose search ends at the current value (n already the best, a parameter at its\n"
          "limit) changes nothing and does not apply. Operations that end at the same CS throughput\n"
          "name each other and say why they tie.\n"
          "Each comes with the principle that explains it (X-model paper, section II). Also prints the\n"
          "degradation bounds of a bistable machine when warps are added: the largest possible fall (the\n"
          "highest state, capped at M/Z, less the lowest f past the cache peak; never negative), and the\n"
          "fall where a second stable state appears; none when no n up to max(n, max_warps) is bistable.\n\n"
          "  --profile, --set    as for xgraph\n"
          "  --supply FILE      a measured f(k) in place of the analytic curve, as for xgraph, with\n"
          "                     --supply-x, --supply-y, --supply-where and --supply-series\n"
          "  --demand FILE      a measured g(x) likewise, with --demand-x, --demand-y, --demand-where\n"
          "                     and --demand-series\n"
          "  --cache-size KIB    the larger cache to try (default twice S_s)\n"
          "  --json              {\"current\":{..},\"operations\":[{\"rank\":..,\"id\":..,\n"
          "                      "
          "\"changes\":{KEY:VALUE},\"cs_change_gops\":..,\"low_state\":{..},\n"
          "                      \"principle\":..,\"why\":..,\"ties_with\":[NAME,..],\n"
          "                      \"tie_reason\":..},..],\"degradation\":{..}}\n";

} // namespace

const Command kStabilityMapCommand {"stability-map", "stable equilibria over a grid of two parameters",
                                    kMapHelp, runStabilityMap};
const Command kHysteresisCommand {"hysteresis", "sweep a parameter up and down, following the stable branch",
                                  kHysteresisHelp, runHysteresis};
const Command kAdviseCommand{"advise", "tuning operations ranked by predicted gain", kAdviseHelp, runAdvise};

} // namespace crossroof::cli
