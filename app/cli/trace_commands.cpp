// SPDX-License-Identifier: GPL-3.0-or-later
// fit-trace and bandwidth-curve: measured traces against the models (CLI.md).
#include "args.h"
#include "command_support.h"
#include "core/bandwidth/bandwidth_curve.h"
#include "commands.h"
#include "trace_selection.h"
#include "core/traces/csv_table.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/traces/memory_demand.h"
#include "core/traces/perf_stat.h"
#include "core/profiles/profile_library.h"
#include "core/traces/trace_fit.h"
#include "core/traces/trace_import.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

std::string requiredValue(const Args &args, const std::string &name)
{
    if (!args.has(name))
        throw InputError("option '--" + name + "' is required");
    const std::string v = args.value(name);
    if (v.empty())
        throw InputError("option '--" + name + "' must not be empty");
    return v;
}

double positiveNumber(const Args &args, const std::string &name)
{
    const std::string text = requiredValue(args, name);
    const double v = args.number(name, 0);
    if (!(v > 0))
        throw InputError("option '--" + name + "': must be a finite number > 0 (got '" + core::quoteForMessage(text) + "')");
    return v;
}

/// CacheFit::parameters as JSON: key, value, standard error (null where not determined at all), range and
/// flags; a per-trace key carries its trace's index.
Json fittedParametersJson(const core::CacheFit &fit)
{
    Json list = Json::array();
    for (const core::FittedParameter &f : fit.parameters) {
        Json j {{"key", f.key}, {"value", f.value}, {"lo", f.lo}, {"hi", f.hi}, {"held", f.held},
                {"at_bound", f.at_bound}, {"determined", f.determined}};
        j["sigma"] = std::isfinite(f.sigma) ? Json(f.sigma) : Json(nullptr);
        if (f.trace >= 0)
            j["trace"] = f.trace;
        list.push_back(j);
    }
    return list;
}

void runFitTrace(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"trace", "x", "y", "model", "profile", "format", "series", "hold", "group"},
                    {"where", "set"}});
    const std::string path = requiredValue(args, "trace");
    // --x/--y name the columns of a table; without them the format is detected (or --format) and the
    // importer gives warps per SM and GB/s.
    std::optional<core::TraceFormat> format;
    if (args.has("format")) {
        const std::string key = args.value("format");
        format = key == "csv" ? std::optional(core::TraceFormat::GenericTable) : core::traceFormatFromKey(key);
        if (!format) {
            throw InputError("option '--format': must be csv, table, gpu-stream, gpu-stream-csv, gpu-latency, "
                             "gpu-cache, gpu-l2-cache, gpu-l2-stream, gpu-roofline, gpu-strides, ncu-csv or perf-stat "
                             "(got '" + key + "')");
        }
    } else if (args.has("x") || args.has("y")) {
        format = core::TraceFormat::GenericTable;
    }
    const core::TraceFile file = core::readTraceFileAs(path, format);
    const bool table = file.format == core::TraceFormat::GenericTable;
    if (!table && (args.has("x") || args.has("y") || args.has("where")))
        throw InputError(path + ": options '--x', '--y' and '--where' go with a table (--format csv)");
    if (table && args.has("series"))
        throw InputError("option '--series' goes with gpu-stream and ncu files, not a table");
    const std::string xName = table ? requiredValue(args, "x") : "warps per SM";
    const std::string yName = table ? requiredValue(args, "y") : "GB/s";
    const std::string model = args.value("model", "roofline");
    std::optional<core::CacheMode> cacheMode;
    if (model == "fixed")
        cacheMode = core::CacheMode::Fixed;
    else if (model == "locality")
        cacheMode = core::CacheMode::Locality;
    else if (model == "two-level")
        cacheMode = core::CacheMode::TwoLevel;
    else if (model != "roofline")
        throw InputError("option '--model': must be roofline, fixed, locality or two-level (got '" + model
                         + "')");
    if (!cacheMode && (args.has("profile") || args.has("set") || args.has("hold") || args.has("group")))
        throw InputError("options '--profile', '--set', '--hold' and '--group' go with --model fixed, locality or "
                         "two-level");
    if (!table && args.has("group"))
        throw InputError("option '--group' goes with a table (--format csv)");

    std::vector<double> x, y;
    std::string selection;
    // --group COLUMN: the selected rows, one trace per value of COLUMN in order of first appearance.
    std::vector<std::string> groupNames;
    std::vector<std::vector<double>> groupX, groupY;
    if (table) {
        const core::CsvTable &t = *file.table;
        const std::size_t xColumn = t.column(xName);
        const std::size_t yColumn = t.column(yName);
        // The rule of the GUI's table import (core::traceFromTable): no negative warps or throughputs, each
        // refused with its line and column rather than later, by point number, by the fit.
        const auto value = [&t](std::size_t r, std::size_t c) {
            const double v = t.number(r, c);
            if (v < 0)
                throw InputError(t.where(r, c) + ": must not be negative (got " + core::brief(t.cell(r, c)) + ")");
            if (v > core::kMaxFitValue) {
                throw InputError(t.where(r, c) + ": " + core::brief(t.cell(r, c)) + " is too large to fit (at most "
                                 + core::formatNumber(core::kMaxFitValue) + ": its square would overflow)");
            }
            return v;
        };
        const std::optional<std::size_t> groupColumn
                = args.has("group") ? std::optional(t.column(requiredValue(args, "group"))) : std::nullopt;
        for (std::size_t r : selectRows(t, args.all("where"))) {
            x.push_back(value(r, xColumn));
            y.push_back(value(r, yColumn));
            if (groupColumn) {
                const std::string name = std::string(core::trimBlanks(t.cell(r, *groupColumn)));
                auto at = std::find(groupNames.begin(), groupNames.end(), name);
                if (at == groupNames.end()) {
                    groupNames.push_back(name);
                    groupX.emplace_back();
                    groupY.emplace_back();
                    at = groupNames.end() - 1;
                }
                groupX[std::size_t(at - groupNames.begin())].push_back(x.back());
                groupY[std::size_t(at - groupNames.begin())].push_back(y.back());
            }
        }
        for (const std::string &w : args.all("where"))
            selection += (selection.empty() ? "" : ", ") + w;
    } else {
        const core::MeasuredTrace &trace = pickSeries(file, path, args.value("series", ""));
        x = trace.x;
        y = trace.y;
        selection = "series '" + trace.name + "'";
    }

    if (!cacheMode) {
        core::RooflineFit fit;
        try {
            fit = core::fitRoofline(x, y);
        } catch (const InputError &e) {
            throw InputError(path + ": " + e.what());
        }
        if (args.flag("json")) {
            Json j;
            j["R_gbs"] = fit.R_gbs;
            j["slope_gbs_per_warp"] = fit.slope_gbs_per_warp;
            j["delta"] = fit.delta;
            j["rmse"] = fit.rmse;
            j["r2"] = fit.r2;
            j["points"] = fit.points;
            j["model"] = "roofline";
            j["rising_points"] = fit.rising_points;
            j["residuals"] = fit.residuals;
            out << jsonOutput(j) << '\n';
            return;
        }
        out << "Roofline fit y = min(s*k, R) of '" << yName << "' against '" << xName << "'\n"
            << "Trace     " << path << (selection.empty() ? "" : " where " + selection) << ", " << fit.points
            << " points\n"
            << "Plateau   R = " << fmt(fit.R_gbs) << " GB/s\n"
            << "Slope     s = " << fmt(fit.slope_gbs_per_warp) << " GB/s per warp\n"
            << "Knee      delta = R/s = " << fmt(fit.delta) << " warps (" << fit.rising_points
            << " points on the slope)\n"
            << "Quality   rmse = " << fmt(fit.rmse) << " GB/s, r^2 = " << fmt(fit.r2, "%.5f") << '\n';
        return;
    }

    const ModelInputs in = modelInputs(args);
    const core::HardwareProfile &prof = in.profile;
    const core::XModelParams &params = in.params;
    if (*cacheMode == core::CacheMode::TwoLevel && prof.kind == "cpu")
        throw InputError("option '--profile': " + prof.id + " is a CPU; --model two-level fits a GPU's L1 and L2 (give a GPU profile)");
    std::vector<core::FitTrace> traces;
    if (groupNames.empty()) {
        traces.push_back({x, y, {}});
    } else {
        for (std::size_t g = 0; g < groupNames.size(); ++g)
            traces.push_back({groupX[g], groupY[g], args.value("group") + "=" + groupNames[g]});
    }
    core::CacheFitOptions options;
    if (args.has("hold")) {
        const std::string list = requiredValue(args, "hold");
        for (std::size_t begin = 0; begin <= list.size();) {
            const std::size_t comma = std::min(list.find(',', begin), list.size());
            options.hold.emplace_back(core::trimBlanks(std::string_view(list).substr(begin, comma - begin)));
            begin = comma + 1;
        }
    }
    core::CacheFit fit;
    try {
        fit = core::fitCacheModel(traces, params, *cacheMode, options);
    } catch (const InputError &e) {
        throw InputError(path + ": " + e.what());
    }
    const auto &p = fit.params;
    if (args.flag("json")) {
        Json j;
        j["model"] = model;
        j["L_s"] = p.L_s;
        if (*cacheMode == core::CacheMode::Fixed) {
            j["h"] = p.h;
        } else {
            j["alpha"] = p.alpha;
            j["beta"] = p.beta;
        }
        if (*cacheMode == core::CacheMode::TwoLevel) {
            j["L_2"] = p.L_2;
            j["S_s"] = p.S_s;
            j["S_2"] = p.S_2;
            j["alpha_2"] = p.alpha_2;
            j["R_dram"] = p.R_dram;
            j["R_l2"] = p.R_l2;
        }
        j["rmse"] = fit.rmse;
        j["r2"] = fit.r2;
        j["points"] = fit.points;
        j["fit_points"] = fit.fit_points;
        j["converged"] = fit.converged;
        j["iterations"] = fit.iterations;
        j["at_bounds"] = fit.at_bounds;
        j["profile"] = prof.id;
        j["R_gbs"] = p.R;
        j["L"] = p.L;
        j["residuals"] = fit.residuals;
        j["parameters"] = fittedParametersJson(fit);
        j["warnings"] = fit.warnings;
        if (!groupNames.empty()) {
            Json list = Json::array();
            for (std::size_t g = 0; g < traces.size(); ++g) {
                list.push_back({{"name", traces[g].name}, {"points", traces[g].k.size()}, {"r2", fit.trace_r2[g]},
                                {"beta", fit.trace_beta[g]}});
            }
            j["traces"] = list;
        }
        out << jsonOutput(j) << '\n';
        return;
    }
    out << "Cache fit (" << model << ") of '" << yName << "' against '" << xName << "', profile " << prof.id
        << " (R = " << fmt(p.R) << " GB/s, L = " << fmt(p.L) << " cycles)\n"
        << "Trace     " << path << (selection.empty() ? "" : " where " + selection) << ", " << fit.points
        << " points"
        << (fit.fit_points < fit.points ? ", fitted on " + std::to_string(fit.fit_points) + " of them spread over k"
                                        : std::string())
        << "\n"
        << "Fitted    L_s = " << fmt(p.L_s) << " cycles";
    if (*cacheMode == core::CacheMode::Fixed)
        out << ", h = " << fmt(p.h);
    else
        out << ", alpha = " << fmt(p.alpha) << ", beta = " << fmt(p.beta) << " KiB";
    if (*cacheMode == core::CacheMode::TwoLevel) {
        out << "\n          L_2 = " << fmt(p.L_2) << " cycles, S_2 = " << fmt(p.S_2)
            << " KiB (S_s = " << fmt(p.S_s) << " KiB), alpha_2 = " << fmt(p.alpha_2)
            << "\n          L = " << fmt(p.L) << " cycles, R = " << fmt(p.R)
            << " GB/s, L2 R_l2 = " << fmt(p.R_l2) << " GB/s, plateau R_dram = " << fmt(p.R_dram) << " GB/s";
    }
    out << '\n'
        << "Quality   rmse = " << fmt(fit.rmse) << " GB/s, r^2 = " << fmt(fit.r2, "%.5f")
        << (fit.converged ? "" : " (not converged)") << '\n';
    if (!fit.at_bounds.empty()) {
        out << "At bound ";
        for (const auto &key : fit.at_bounds)
            out << ' ' << key;
        out << " (the data push the model to the edge of its range)\n";
    }
    for (std::size_t g = 0; g < traces.size() && traces.size() > 1; ++g) {
        out << (g == 0 ? "Traces    " : "          ") << traces[g].name << ": " << traces[g].k.size()
            << " points, beta = " << fmt(fit.trace_beta[g]) << " KiB, r^2 = " << fmt(fit.trace_r2[g], "%.5f") << '\n';
    }
    out << "Errors   ";
    for (const core::FittedParameter &f : fit.parameters) {
        if (f.trace > 0)
            continue;
        out << ' ' << f.key << (f.held ? " held" : std::isfinite(f.sigma) ? " +-" + fmt(f.sigma) : " undetermined");
    }
    out << '\n';
    for (const std::string &w : fit.warnings)
        out << "Warning   " << w << '\n';
}

constexpr const char *kFitTraceHelp
        = "Usage: crossroof-cli fit-trace --trace FILE [--x COLUMN --y COLUMN [--where COLUMN=VALUE]...]\n"
          "                               [--format FORMAT] [--series NAME]\n"
          "                               [--model roofline|fixed|locality|two-level] [--profile ID|PATH]\n"
          "                               [--set KEY=VALUE]... [--hold KEYS] [--group COLUMN]\n"
          "                               [--json]\n\n"
          "Fits a memory-system curve to a measured trace: y in GB/s for the device against x in warps per "
          "SM.\n"
          "The trace is any file the GUI imports: a CSV/TSV/semicolon/whitespace table with a header (e.g.\n"
          "gpu-benches' stream_vs_warps_per_sm.csv) with --x and --y, or, detected without them, gpu-benches\n"
          "gpu-stream or gpu-l2-stream output (either generation) or an Nsight Compute CSV export (achieved\n"
          "warps per SM and DRAM GB/s of each kernel).\n\n"
          "  --trace FILE       the measurements\n"
          "  --format FORMAT    csv (a table), gpu-stream, gpu-stream-csv, gpu-l2-stream or ncu-csv; default:\n"
          "                     detected (a file whose content is another format is refused, naming it)\n"
          "  --series NAME      the series to fit: its name or the kernel's own (triad); default: the first\n"
          "  --x COLUMN         warps per SM (k), for a table\n"
          "  --y COLUMN         throughput, GB/s, for a table\n"
          "  --where COL=VALUE  keep only rows whose COL equals VALUE (repeatable; all must hold)\n"
          "  --model roofline   least squares of y = min(s*k, R), the global optimum (default)\n"
          "  --model fixed      fit L_s and h of the constant-hit-rate cache curve (docs/MODEL.md 1.3),\n"
          "                     machine fixed\n"
          "  --model locality   fit L_s, alpha and beta of the locality cache curve (Eq. 5), machine fixed\n"
          "  --model two-level  fit the two-level cache curve (docs/MODEL.md 1.3): L_s, L_2, L, R, R_l2,\n"
          "                     R_dram (the plateau), beta, S_2, alpha and alpha_2; S_s and the device shape\n"
          "                     from the profile\n"
          "  --profile ID|PATH  the machine for the cache models (R, L, S_s, device shape); default profile\n"
          "  --set KEY=VALUE    override a machine parameter for the cache models (repeatable;\n"
          "                     keys as for xgraph)\n"
          "  --hold KEYS        keep these keys (comma-separated, e.g. R,L) at the profile's values in a\n"
          "                     cache fit; the keys a mode does not fit are held anyway\n"
          "  --group COLUMN     fit the selected rows as one trace per value of COLUMN, one machine: every\n"
          "                     key shared but beta, each trace's own (a table and a cache model)\n"
          "  --json             JSON output: R_gbs, slope_gbs_per_warp, delta, rmse, r2, points\n"
          "                     (docs/CLI.md), plus model, rising_points and residuals\n\n"
          "A cache model is fitted on at most 2048 points of a longer trace (two-level: 64), spread over\n"
          "its k (the text says so, and the JSON's fit_points); rmse, r^2 and the residuals cover every\n"
          "point. Cache fits stay within physical bounds (docs/MODEL.md 5), give each key's standard error\n"
          "and warn of a degenerate result: a key on a bound or not determined, levels out of order, a\n"
          "plateau above the profile's DRAM peak.\n";

/// The trace's format: --input-format, or (as before --format named the output) --format perf-stat.
std::string inputFormat(const Args &args)
{
    const bool legacy = args.value("format") == "perf-stat";
    if (args.has("input-format") && legacy)
        throw InputError("option '--format': perf-stat is an input format; use --input-format alone");
    return legacy ? std::string("perf-stat") : args.value("input-format", "");
}

std::vector<double> traceColumn(const Args &args, const std::string &path, const std::string &column)
{
    std::string format = inputFormat(args);
    if (format.empty()) {
        const core::TraceFormat detected = core::detectTraceFormat(path);
        if (detected == core::TraceFormat::PerfStat)
            format = "perf-stat";
        else if (detected == core::TraceFormat::GenericTable || detected == core::TraceFormat::GpuStreamCsv)
            format = "csv";
        else
            throw InputError(path + ": a " + std::string(core::traceFormatKey(detected))
                             + " file has no bytes per time unit; bandwidth-curve reads a table or perf stat "
                               "-I output");
    }
    if (format == "csv")
        return core::readCsv(path).numbers(column);
    if (format != "perf-stat")
        throw InputError("option '--input-format': must be csv or perf-stat (got '" + format + "')");
    const core::PerfStat stat = core::readPerfStat(path);
    if (column == "imc-bytes")
        return core::memoryDemandFromPerfStat(stat).bytes;
    if (!stat.interval_mode)
        throw InputError(path + ": not interval output; a trace needs perf stat -I");
    return stat.event(column).perInterval();
}

/// Several connections (--column and --limit given in pairs): which one limits each unit (MODEL.md 4).
void printDominance(const Args &args, const std::string &path, long long window, OutputFormat format,
                    std::ostream &out)
{
    const std::vector<std::string> &columns = args.all("column");
    const std::vector<std::string> &limits = args.all("limit");
    if (limits.size() != columns.size()) {
        throw InputError("options '--column' and '--limit' go in pairs: " + std::to_string(columns.size())
                         + " columns, " + std::to_string(limits.size()) + " limits");
    }
    std::vector<core::Connection> connections;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const auto v = core::parseTableNumber(limits[i], '.', false);
        if (!v || !std::isfinite(*v) || *v <= 0)
            throw InputError("option '--limit': must be a finite number > 0 (got '" + limits[i] + "')");
        if (columns[i].empty())
            throw InputError("option '--column' must not be empty");
        connections.push_back({columns[i], traceColumn(args, path, columns[i]), *v});
    }
    core::Dominance d;
    try {
        d = core::dominance(connections, std::size_t(window));
    } catch (const InputError &e) {
        throw InputError(path + ": " + e.what());
    }
    const auto dominantName = [&](int c) { return c < 0 ? std::string() : columns[std::size_t(c)]; };
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"unit", "dominant", "ratio"});
        for (std::size_t i = 0; i < d.dominant.size(); ++i)
            writeCsvRow(out, {csvInteger((long long)(i + 1)), csvText(dominantName(d.dominant[i])), csvNumber(d.ratio[i])});
        return;
    }
    if (format == OutputFormat::Json) {
        Json list = Json::array();
        for (std::size_t c = 0; c < connections.size(); ++c) {
            list.push_back({{"column", columns[c]},
                            {"limit", connections[c].limit},
                            {"units", d.units[c]},
                            {"extra_units", d.extra_units[c]}});
        }
        Json dominant = Json::array();
        for (int c : d.dominant)
            dominant.push_back(c < 0 ? Json(nullptr) : Json(columns[std::size_t(c)]));
        Json j;
        j["connections"] = list;
        j["dominant"] = dominant;
        j["ratio"] = d.ratio;
        j["slowdown"] = d.slowdown;
        j["free_units"] = d.free_units;
        j["units"] = d.dominant.size();
        j["window"] = window;
        out << jsonOutput(j) << '\n';
        return;
    }
    out << "Dominant bandwidth limitation in " << path << ", window " << window << " units, "
        << d.dominant.size() << " units\n";
    for (std::size_t c = 0; c < connections.size(); ++c) {
        out << "  " << columns[c] << " (limit " << fmt(connections[c].limit) << " bytes/unit): limits "
            << d.units[c] << " units, " << fmt(d.extra_units[c]) << " extra units\n";
    }
    out << "  no connection over its limit in " << d.free_units << " units\n"
        << "Slowdown  " << fmt(d.slowdown, "%.4f") << "\n";
}

void runBandwidthCurve(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"trace", "window", "format", "input-format"}, {"column", "limit"}});
    const OutputFormat format = args.value("format") == "perf-stat"
                                        ? (args.flag("json") ? OutputFormat::Json : OutputFormat::Text)
                                        : outputFormat(args);
    const std::string path = requiredValue(args, "trace");
    const long long window = args.integer("window", 1, 1, 1000000000LL);
    if (args.all("column").size() > 1) {
        printDominance(args, path, window, format, out);
        return;
    }
    if (args.all("limit").size() > 1)
        throw InputError("option '--limit': one limit per '--column' (one column given)");
    const std::string column = requiredValue(args, "column");
    const double limit = positiveNumber(args, "limit");
    const std::vector<double> bytes = traceColumn(args, path, column);
    core::BandwidthCurve curve;
    try {
        curve = core::bandwidthCurve(bytes, std::size_t(window), limit);
    } catch (const InputError &e) {
        throw InputError(path + ": column '" + column + "': " + e.what());
    }
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"rank", "sorted_bytes_per_unit"});
        for (std::size_t i = 0; i < curve.sorted.size(); ++i)
            writeCsvRow(out, {csvInteger((long long)(i + 1)), csvNumber(curve.sorted[i])});
        return;
    }
    if (format == OutputFormat::Json) {
        Json j;
        j["sorted"] = curve.sorted;
        j["slowdown"] = curve.slowdown;
        j["units"] = curve.units;
        j["window"] = window;
        j["limit"] = curve.limit;
        j["area_bytes"] = curve.area;
        j["total_bytes"] = curve.total_bytes;
        j["units_over_limit"] = curve.units_over_limit;
        j["peak"] = curve.peak;
        j["mean"] = curve.mean;
        out << jsonOutput(j) << '\n';
        return;
    }
    out << "Bandwidth curve of '" << column << "' in " << path << ", window " << window << " units\n"
        << "Units     " << curve.units << ", " << curve.units_over_limit << " over the limit of "
        << fmt(limit) << " bytes/unit\n"
        << "Demand    peak " << fmt(curve.peak) << ", mean " << fmt(curve.mean) << " bytes/unit; area "
        << fmt(curve.area) << " bytes (raw total " << fmt(curve.total_bytes) << ")\n"
        << "Slowdown  " << fmt(curve.slowdown, "%.4f") << " under the limit\n"
        << "Sorted demand (share of units: bytes/unit):\n";
    for (int q = 0; q <= 10; ++q) {
        const std::size_t i = std::min(curve.units - 1, std::size_t(q * double(curve.units - 1) / 10 + 0.5));
        out << "  " << fmt(q * 10.0, "%3.0f") << " %  " << fmt(curve.sorted[i]) << '\n';
    }
}

constexpr const char *kBandwidthCurveHelp
        = "Usage: crossroof-cli bandwidth-curve --trace FILE --column COLUMN [--window W] --limit "
          "BYTES_PER_UNIT\n"
          "                                     [--column COLUMN --limit BYTES_PER_UNIT]...\n"
          "                                     [--input-format csv|perf-stat] [--format text|json|csv]\n"
          "                                     [--json]\n\n"
          "Bandwidth curve (docs/MODEL.md 4): smooths the bytes per time unit with a centred sliding mean\n"
          "over W units (the trace mirrored at its ends, so that the area stays the bytes moved), sorts\n"
          "the units by demand (descending) and derives the slowdown under a bandwidth\n"
          "limit B: sum max(1, d/B) / units. With several columns (connections, each with its own limit,\n"
          "in the order given) it finds the dominant limitation: per unit the connection with the largest\n"
          "demand/limit above 1, and the slowdown sum max(1, ratio) / units.\n\n"
          "  --trace FILE       a table with a header (CSV, TSV, ...), one row per time unit\n"
          "  --column COLUMN    bytes moved per unit; with --input-format perf-stat an event name (summed over "
          "CPUs per\n"
          "                     interval) or 'imc-bytes' (memory-controller CAS reads + writes x 64 B);\n"
          "                     repeatable, one --limit each\n"
          "  --window W         smoothing window in units (default 1: no smoothing)\n"
          "  --limit B          bandwidth limit in bytes per unit\n"
          "  --input-format F   the trace: csv or perf-stat (perf stat -x -I output); default: detected.\n"
          "                     (--format perf-stat is still read as --input-format perf-stat)\n"
          "  --format json      JSON output: sorted, slowdown, units (docs/CLI.md), plus window, limit,\n"
          "                     area_bytes, total_bytes, units_over_limit, peak, mean; with several\n"
          "                     columns {\"connections\":[{\"column\",\"limit\",\"units\",\"extra_units\"}],\n"
          "                     \"dominant\":[COLUMN or null per unit],\"ratio\":[..],\"slowdown\",\"free_units\",..}\n"
          "  --format csv       CSV, the sorted demand, one row per unit: rank,sorted_bytes_per_unit\n"
          "                     (rank 1 = the highest demand; the summary values are in the JSON only);\n"
          "                     with several columns unit,dominant,ratio\n"
          "  --json             the same as --format json; without either, a summary (--format text)\n";

} // namespace

const Command kFitTraceCommand {"fit-trace", "least-squares fit of a memory curve to a measured trace",
                                kFitTraceHelp, runFitTrace};
const Command kBandwidthCurveCommand {"bandwidth-curve", "sorted bandwidth demand and slowdown under a limit",
                                      kBandwidthCurveHelp, runBandwidthCurve};

} // namespace crossroof::cli
