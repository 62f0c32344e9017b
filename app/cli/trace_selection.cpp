// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_selection.h"

#include "core/support/error.h"
#include "core/traces/trace_set.h"

#include <algorithm>

namespace crossroof::cli {

using core::InputError;

std::vector<std::size_t> selectRows(const core::CsvTable &table, const std::vector<std::string> &filters)
{
    std::vector<std::size_t> rows(table.rowCount());
    for (std::size_t r = 0; r < rows.size(); ++r)
        rows[r] = r;
    for (const std::string &filter : filters) {
        const auto eq = filter.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("option '--where': expected COLUMN=VALUE (got '" + filter + "')");
        const std::size_t column = table.column(filter.substr(0, eq));
        const std::string wanted = filter.substr(eq + 1);
        const auto wantedNumber = core::parseTableNumber(wanted, table.decimalSeparator());
        const auto matches = [&](std::size_t r) {
            const std::string_view cell = table.cell(r, column);
            const auto first = cell.find_first_not_of(" \t");
            const auto last = cell.find_last_not_of(" \t");
            const std::string_view trimmed = first == std::string_view::npos
                                                     ? std::string_view()
                                                     : cell.substr(first, last - first + 1);
            if (trimmed == wanted)
                return true;
            if (!wantedNumber)
                return false;
            const auto v = core::parseTableNumber(trimmed, table.decimalSeparator());
            return v && *v == *wantedNumber;
        };
        std::vector<std::size_t> kept;
        for (std::size_t r : rows) {
            if (matches(r))
                kept.push_back(r);
        }
        if (kept.empty()) {
            std::vector<std::string> values;
            for (std::size_t r : rows) {
                std::string v(table.cell(r, column));
                if (std::find(values.begin(), values.end(), v) == values.end())
                    values.push_back(std::move(v));
            }
            std::string list;
            for (std::size_t i = 0; i < values.size() && i < 12; ++i)
                list += (i ? ", " : "") + values[i];
            if (values.size() > 12)
                list += ", ...";
            throw InputError(table.source() + ": no rows where " + filter + " (values of '"
                             + table.header()[column] + "': " + list + ")");
        }
        rows = std::move(kept);
    }
    return rows;
}

const core::MeasuredTrace &pickSeries(const core::TraceFile &file, const std::string &path,
                                      const std::string &series)
{
    std::string names;
    // SERIES is a trace's name ("v100 triad") or the kernel's own name in it ("triad"), if only one has it.
    const core::MeasuredTrace *byKernel = nullptr;
    int kernelMatches = 0;
    for (const core::MeasuredTrace &t : file.traces) {
        if (t.kind != core::TraceKind::BandwidthVsWarps && t.kind != core::TraceKind::KernelPoints)
            continue;
        if (series.empty() || t.name == series)
            return t;
        if (t.name.ends_with(" " + series) && kernelMatches++ == 0)
            byKernel = &t;
        names += (names.empty() ? "" : ", ") + t.name;
    }
    if (kernelMatches == 1)
        return *byKernel;
    if (names.empty()) {
        throw InputError(path + ": a " + std::string(core::traceFormatKey(file.format))
                         + " file holds no throughput against warps per SM to fit");
    }
    throw InputError(path + ": no series '" + series + "' (series: " + names + ")");
}

Args::Spec withMeasuredCurves(Args::Spec spec)
{
    for (const std::string prefix : {"supply", "demand"}) {
        for (const char *suffix : {"", "-x", "-y", "-series"})
            spec.values.push_back(prefix + suffix);
        spec.repeatable.push_back(prefix + "-where");
    }
    return spec;
}

std::shared_ptr<const core::MeasuredCurve> measuredCurveOption(const Args &args, const std::string &prefix)
{
    if (!args.has(prefix))
        return nullptr;
    const std::string path = args.value(prefix);
    if (path.empty())
        throw InputError("option '--" + prefix + "' must not be empty");
    const bool table = args.has(prefix + "-x") || args.has(prefix + "-y");
    const core::TraceFile file
            = core::readTraceFileAs(path, table ? std::optional(core::TraceFormat::GenericTable) : std::nullopt);
    std::vector<core::CurvePoint> points;
    if (file.format == core::TraceFormat::GenericTable) {
        if (!args.has(prefix + "-x") || !args.has(prefix + "-y")) {
            throw InputError(path + ": a table needs the columns of its curve: --" + prefix + "-x COLUMN and --"
                             + prefix + "-y COLUMN");
        }
        const core::CsvTable &t = *file.table;
        const std::size_t xColumn = t.column(args.value(prefix + "-x"));
        const std::size_t yColumn = t.column(args.value(prefix + "-y"));
        for (std::size_t r : selectRows(t, args.all(prefix + "-where")))
            points.push_back({t.number(r, xColumn), t.number(r, yColumn), t.line(r)});
    } else {
        if (args.has(prefix + "-where"))
            throw InputError("option '--" + prefix + "-where" + "' goes with a table (--" + prefix + "-x/-y)");
        const core::MeasuredTrace &trace = pickSeries(file, path, args.value(prefix + "-series", ""));
        for (std::size_t i = 0; i < trace.x.size(); ++i)
            points.push_back({trace.x[i], trace.y[i], 0});
        if (trace.kind == core::TraceKind::KernelPoints) {
            // Kernels come in launch order: as a curve they are taken in order of warps.
            std::stable_sort(points.begin(), points.end(),
                             [](const core::CurvePoint &a, const core::CurvePoint &b) { return a.x < b.x; });
        }
    }
    return std::make_shared<const core::MeasuredCurve>(std::move(points), path);
}

} // namespace crossroof::cli
