// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/occupancy/runtime_fit.h"
#include "core/occupancy/scheduling.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/traces/csv_table.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

namespace crossroof::cli {

namespace {

using core::InputError;

double number(const Args &args, const std::string &name, double fallback)
{
    if (!args.has(name))
        return fallback;
    const std::string text = args.value(name);
    const std::optional<double> v = core::parseNumber(text);
    if (!v)
        throw InputError("option '--" + name + "': '" + core::quoteForMessage(text) + "' is not a number");
    return *v;
}

/// MIN:MAX[:STEP] as whole numbers of requested blocks; errors name --br.
struct BlockRange
{
    long long lo = 1;
    long long hi = 1;
    long long step = 1;
};
BlockRange blockRange(const std::string &text)
{
    std::vector<std::optional<long long>> parts;
    std::string_view rest(text);
    while (true) {
        const auto colon = rest.find(':');
        parts.push_back(core::parseInteger<long long>(rest.substr(0, colon)));
        if (colon == std::string_view::npos)
            break;
        rest.remove_prefix(colon + 1);
    }
    const bool whole = std::all_of(parts.begin(), parts.end(), [](const auto &p) { return p.has_value(); });
    if (!whole || parts.size() > 3)
        throw InputError("option '--br': expected B_R, MIN:MAX or MIN:MAX:STEP, whole numbers (got '" + core::quoteForMessage(text) + "')");
    BlockRange r{*parts[0], *parts[parts.size() > 1 ? 1 : 0], parts.size() > 2 ? *parts[2] : 1};
    if (r.lo < 1 || r.hi < r.lo || r.hi > core::kMaxRequestedBlocks || r.step < 1) {
        throw InputError("option '--br': need 1 <= MIN <= MAX <= " + std::to_string(core::kMaxRequestedBlocks)
                         + " and STEP >= 1 (got '" + text + "')");
    }
    if ((r.hi - r.lo) / r.step + 1 > core::kMaxZigzagPoints) {
        throw InputError("option '--br': more than " + std::to_string(core::kMaxZigzagPoints)
                         + " values (raise STEP)");
    }
    return r;
}

/// The TMM inputs from the options: the APSP preset (--apsp N,S_D[,C]) or the terms themselves.
core::TmmParams modelParams(const Args &args)
{
    core::TmmParams p;
    p.latency = number(args, "latency", 1);
    p.threads_per_core = number(args, "threads", 1);
    p.cores = number(args, "cores", 480);
    p.sms = args.integer("sms", 15, 1, core::kMaxSms);
    p.active_blocks = args.integer("ba", 1, 1, core::kMaxActiveBlocks);
    if (args.has("apsp")) {
        for (const char *name : {"work", "span", "transactions"}) {
            if (args.has(name))
                throw InputError(std::string("option '--") + name + "': the --apsp preset sets it");
        }
        const std::string spec = args.value("apsp");
        std::vector<std::string> fields;
        std::size_t start = 0;
        while (true) {
            const auto comma = spec.find(',', start);
            fields.push_back(spec.substr(start, comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        const auto vertices = core::parseInteger<long long>(fields[0]);
        const auto subBlock = fields.size() > 1 ? core::parseInteger<long long>(fields[1]) : std::nullopt;
        const std::optional<double> chunk = fields.size() > 2 ? core::parseNumber(fields[2]) : std::optional(32.0);
        if (fields.size() < 2 || fields.size() > 3 || !vertices || !subBlock || !chunk)
            throw InputError("option '--apsp': expected N,S_D[,C] (got '" + spec + "')");
        core::ApspParams a;
        a.vertices = *vertices;
        a.sub_block = *subBlock;
        a.chunk = *chunk;
        a.latency = p.latency;
        a.threads_per_core = p.threads_per_core;
        a.cores = p.cores;
        a.active_blocks = p.active_blocks;
        a.sms = p.sms;
        const core::TmmParams preset = core::apspPreset(a);
        // M = T1 / (S_D * C) from values the user typed: name them, not the infinity they make.
        if (!std::isfinite(preset.transactions)) {
            throw InputError("option '--apsp': N = " + fields[0] + " with S_D * C = " + fields[1] + " * "
                             + fields[2] + " makes M = T1/(S_D*C) more than a double holds; give a larger C");
        }
        return preset;
    }
    for (const char *name : {"work", "transactions"}) {
        if (!args.has(name))
            throw InputError(std::string("option '--") + name + "' is required (or --apsp N,S_D[,C])");
    }
    p.work = number(args, "work", 1);
    p.span = number(args, "span", 0);
    p.transactions = number(args, "transactions", 0);
    return p;
}

void runModel(const Args &args, OutputFormat format, std::ostream &out)
{
    core::TmmParams p = modelParams(args);
    BlockRange range{p.requested_blocks, p.requested_blocks, 1};
    if (args.has("br"))
        range = blockRange(args.value("br"));
    else if (!args.has("apsp"))
        throw InputError("option '--br' is required (the requested blocks: B_R or MIN:MAX[:STEP])");
    std::vector<core::TmmResult> results;
    std::vector<long long> blocks;
    for (long long br = range.lo; br <= range.hi; br += range.step) {
        p.requested_blocks = br;
        blocks.push_back(br);
        results.push_back(core::evaluateTmm(p));
        if (range.hi - br < range.step)
            break;
    }
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"br_blocks", "passes", "f_sched", "work_term", "span_term", "memory_term", "t_p", "time",
                          "bound"});
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto &r = results[i];
            writeCsvRow(out, {csvInteger(blocks[i]), csvInteger(r.passes), csvNumber(r.f_sched),
                              csvNumber(r.work_term), csvNumber(r.span_term), csvNumber(r.memory_term),
                              csvNumber(r.t_p), csvNumber(r.time), std::string(core::tmmBoundName(r.bound))});
        }
        return;
    }
    if (format == OutputFormat::Text) {
        out << "TMM runtime (Eq. 1, 6-8): T_P = max(T1/P, T_inf, M*L/(T*P)), time = T_P * f_sched\n"
            << "T1 = " << fmt(p.work, "%.6g") << ", T_inf = " << fmt(p.span, "%.6g") << ", M = "
            << fmt(p.transactions, "%.6g") << ", L = " << fmt(p.latency, "%.6g") << ", T = "
            << fmt(p.threads_per_core, "%.6g") << ", P = " << fmt(p.cores, "%.6g") << ", S = " << p.sms
            << ", B_a = " << p.active_blocks << "\n\n";
        char line[160];
        std::snprintf(line, sizeof line, "%12s %9s %9s %14s %14s  %s\n", "B_r", "passes", "f_sched", "T_P", "time",
                      "bound");
        out << line;
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto &r = results[i];
            std::snprintf(line, sizeof line, "%12lld %9lld %9.4f %14s %14s  %s\n", blocks[i], r.passes, r.f_sched,
                          fmt(r.t_p, "%.6g").c_str(), fmt(r.time, "%.6g").c_str(),
                          std::string(core::tmmBoundName(r.bound)).c_str());
            out << line;
        }
        return;
    }
    Json points = Json::array();
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto &r = results[i];
        points.push_back({{"br", blocks[i]},
                          {"passes", r.passes},
                          {"f_sched", r.f_sched},
                          {"work_term", r.work_term},
                          {"span_term", r.span_term},
                          {"memory_term", r.memory_term},
                          {"t_p", r.t_p},
                          {"time", r.time},
                          {"bound", core::tmmBoundName(r.bound)}});
    }
    Json j;
    j["parameters"] = {{"work", p.work},
                       {"span", p.span},
                       {"transactions", p.transactions},
                       {"latency", p.latency},
                       {"threads_per_core", p.threads_per_core},
                       {"cores", p.cores},
                       {"sms", p.sms},
                       {"active_blocks", p.active_blocks}};
    j["points"] = points;
    out << jsonOutput(j) << '\n';
}

/// Refuses a fit whose coefficients, quality or any prediction overflowed a double (times or sqrt(B_r)/T
/// near its limit: the fit squares them), naming the cell of the largest such value, before anything is
/// printed. COLUMNS: the table's columns of T and of the time.
void checkFitIsFinite(const core::RuntimeFit &fit, const std::vector<core::RuntimeSample> &samples,
                      const core::CsvTable &table, std::pair<std::size_t, std::size_t> columns)
{
    bool finite = std::isfinite(fit.a1) && std::isfinite(fit.a0) && std::isfinite(fit.r2) && std::isfinite(fit.rmse);
    for (const auto &s : samples) {
        const double predicted = fit.predict(s.requested_blocks, s.threads_per_core);
        finite = finite && std::isfinite(predicted) && std::isfinite(s.time - predicted);
    }
    if (finite)
        return;
    std::size_t row = 0;
    std::size_t column = columns.second;
    double largest = -1;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double x = std::abs(core::runtimeAbscissa(samples[i].requested_blocks, samples[i].threads_per_core));
        const double t = std::abs(samples[i].time);
        if (std::max(x, t) > largest) {
            largest = std::max(x, t);
            row = i;
            column = t >= x ? columns.second : columns.first;
        }
    }
    const std::string what = column == columns.second ? "the time " : "sqrt(B_r)/T of threads per core ";
    throw InputError(table.where(row, column) + ": " + what + core::quoteForMessage(table.cell(row, column))
                     + " is too large for the fit (its squares overflow a double); give the times in a unit "
                       "that keeps them smaller");
}

void runFit(const Args &args, OutputFormat format, std::ostream &out)
{
    for (const char *name : {"work", "span", "transactions", "latency", "threads", "cores", "sms", "ba", "br", "apsp"}) {
        if (args.has(name))
            throw InputError(std::string("option '--") + name + "' does not go with '--fit' (a fit needs only the runtimes)");
    }
    const core::CsvTable table = core::readCsv(args.value("fit"));
    const std::size_t brColumn = table.column(args.value("br-column", "requested_blocks"));
    const std::size_t tColumn = table.column(args.value("threads-column", "threads_per_core"));
    const std::size_t timeColumn = table.column(args.value("time-column", "time"));
    std::vector<core::RuntimeSample> samples;
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        core::RuntimeSample s{table.number(row, brColumn), table.number(row, tColumn), table.number(row, timeColumn)};
        if (s.requested_blocks < 0)
            throw InputError(table.where(row, brColumn) + ": requested blocks must be >= 0");
        if (s.threads_per_core <= 0)
            throw InputError(table.where(row, tColumn) + ": threads per core must be > 0");
        if (!std::isfinite(core::runtimeAbscissa(s.requested_blocks, s.threads_per_core))) {
            throw InputError(table.where(row, tColumn) + ": threads per core "
                             + core::quoteForMessage(table.cell(row, tColumn))
                             + " is too small: sqrt(B_r)/T is beyond a double's range");
        }
        samples.push_back(s);
    }
    const core::RuntimeFit fit = core::fitRuntime(samples);
    checkFitIsFinite(fit, samples, table, {tColumn, timeColumn});
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"br_blocks", "threads_per_core", "abscissa", "time", "predicted", "residual"});
        for (const auto &s : samples) {
            const double predicted = fit.predict(s.requested_blocks, s.threads_per_core);
            writeCsvRow(out, {csvNumber(s.requested_blocks), csvNumber(s.threads_per_core),
                              csvNumber(core::runtimeAbscissa(s.requested_blocks, s.threads_per_core)),
                              csvNumber(s.time), csvNumber(predicted), csvNumber(s.time - predicted)});
        }
        return;
    }
    if (format == OutputFormat::Text) {
        out << "Eq. 15 fit of " << fit.points << " runtimes: time = a1 * sqrt(B_r)/T + a0\n"
            << "  a1   = " << fmt(fit.a1, "%.6g") << "\n"
            << "  a0   = " << fmt(fit.a0, "%.6g") << "\n"
            << "  r^2  = " << fmt(fit.r2, "%.6g") << "\n"
            << "  RMSE = " << fmt(fit.rmse, "%.6g") << " (the unit of the times)\n";
        return;
    }
    Json list = Json::array();
    for (const auto &s : samples) {
        const double predicted = fit.predict(s.requested_blocks, s.threads_per_core);
        list.push_back({{"br", s.requested_blocks},
                        {"threads_per_core", s.threads_per_core},
                        {"abscissa", core::runtimeAbscissa(s.requested_blocks, s.threads_per_core)},
                        {"time", s.time},
                        {"predicted", predicted},
                        {"residual", s.time - predicted}});
    }
    Json j;
    j["a1"] = fit.a1;
    j["a0"] = fit.a0;
    j["r2"] = fit.r2;
    j["rmse"] = fit.rmse;
    j["points"] = fit.points;
    j["samples"] = list;
    out << jsonOutput(j) << '\n';
}

void runTmm(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"},
                           {"work", "span", "transactions", "latency", "threads", "cores", "sms", "ba", "br", "apsp",
                            "fit", "br-column", "threads-column", "time-column", "format"},
                           {}});
    const OutputFormat format = outputFormat(args);
    if (args.has("fit")) {
        runFit(args, format, out);
        return;
    }
    for (const char *name : {"br-column", "threads-column", "time-column"}) {
        if (args.has(name))
            throw InputError(std::string("option '--") + name + "' goes with '--fit'");
    }
    runModel(args, format, out);
}

constexpr const char *kHelp
        = "Usage: crossroof-cli tmm (--work T1 --transactions M [--span T_INF] | --apsp N,S_D[,C])\n"
          "                          [--latency L] [--threads T] [--cores P] [--sms S] [--ba B_A]\n"
          "                          [--br B_R|MIN:MAX[:STEP]] [--format text|json|csv] [--json]\n"
          "       crossroof-cli tmm --fit FILE [--br-column NAME] [--threads-column NAME]\n"
          "                          [--time-column NAME] [--format text|json|csv] [--json]\n\n"
          "The TMM time model of the occupancy paper (docs/MODEL.md 2.2): T_P = max(T1/P, T_inf,\n"
          "M*L/(T*P)) and time = T_P * f_sched(B_r), in the paper's steps, for each requested block count;\n"
          "or, with --fit, the Eq. 15 calibration time = a1 * sqrt(B_r)/T + a0 of measured runtimes.\n\n"
          "  --work T1, --span T_INF, --transactions M   the work, the critical path and the memory\n"
          "                         transactions (span default 0)\n"
          "  --apsp N,S_D[,C]       the all-pairs shortest paths preset (Eq. 10-14): T1 = n^3 lg n,\n"
          "                         M = T1/(S_D*C), B_r = (N/S_D)^2; C defaults to 32\n"
          "  --latency L            steps per slow-memory access (default 1)\n"
          "  --threads T            threads per core (default 1)\n"
          "  --cores P              cores (default 480)\n"
          "  --sms S                SMs, P/Q (default 15)\n"
          "  --ba B_A               active blocks per SM (default 1; see 'crossroof-cli occupancy')\n"
          "  --br B_R|MIN:MAX[:STEP]  requested blocks (required without --apsp, at most 1000000 values)\n"
          "  --fit FILE             a CSV of measured runs with the columns requested_blocks,\n"
          "                         threads_per_core and time (other names with the --*-column options)\n"
          "  --format json          model: {\"parameters\":{..},\"points\":[{\"br\",\"passes\",\"f_sched\",\n"
          "                         \"work_term\",\"span_term\",\"memory_term\",\"t_p\",\"time\",\"bound\"}]};\n"
          "                         fit: {\"a1\",\"a0\",\"r2\",\"rmse\",\"points\",\"samples\":[{\"br\",\n"
          "                         \"threads_per_core\",\"abscissa\",\"time\",\"predicted\",\"residual\"}]}\n"
          "  --format csv           model: br_blocks,passes,f_sched,work_term,span_term,memory_term,t_p,\n"
          "                         time,bound; fit: br_blocks,threads_per_core,abscissa,time,predicted,\n"
          "                         residual\n"
          "  --json                 the same as --format json; without either, a table (--format text)\n";

} // namespace

const Command kTmmCommand{"tmm", "TMM runtime against requested blocks, and the Eq. 15 runtime fit", kHelp, runTmm};

} // namespace crossroof::cli
