// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_import.h"

#include "core/traces/memory_demand.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/perf_stat.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>

namespace crossroof::core {

namespace {

constexpr const char *kWhitespace = " \t\r\n\v\f";
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

/// Fields of one header or record line, split on the first of tab, comma or semicolon that occurs, else on
/// runs of blanks.
std::vector<std::string> splitFields(std::string_view line)
{
    std::vector<std::string> fields;
    for (char sep : {'\t', ',', ';'}) {
        if (line.find(sep) == std::string_view::npos)
            continue;
        std::size_t start = 0;
        while (true) {
            const std::size_t end = line.find(sep, start);
            const std::size_t length = end == std::string_view::npos ? end : end - start;
            std::string_view f = trimBlanks(line.substr(start, length), kWhitespace);
            if (f.size() >= 2 && f.front() == '"' && f.back() == '"')
                f = f.substr(1, f.size() - 2);
            fields.emplace_back(f);
            if (end == std::string_view::npos)
                return fields;
            start = end + 1;
        }
    }
    std::size_t i = 0;
    while (true) {
        i = line.find_first_not_of(kWhitespace, i);
        if (i == std::string_view::npos)
            return fields;
        const std::size_t end = line.find_first_of(kWhitespace, i);
        fields.emplace_back(line.substr(i, end == std::string_view::npos ? end : end - i));
        if (end == std::string_view::npos)
            return fields;
        i = end;
    }
}

/// The file name without its last extension ("perf_result.tsv" -> "perf_result").
std::string baseName(const std::string &path)
{
    return std::filesystem::path(path).stem().string();
}

std::string deviceKey(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return c == '-' ? '_' : char(std::tolower(c)); });
    return s;
}

bool endsWithNoCase(std::string_view s, std::string_view suffix)
{
    const auto same = [](char a, char b) { return std::tolower(unsigned(a)) == std::tolower(unsigned(b)); };
    return s.size() >= suffix.size()
            && std::equal(suffix.begin(), suffix.end(), s.end() - std::ptrdiff_t(suffix.size()), same);
}

std::vector<MeasuredTrace> fromStream(const std::vector<StreamTrace> &stream, const std::string &path,
                                      TraceFormat format, const std::string &preferredDevice)
{
    // Only one GPU's kernels are shown at first: the profile's GPU where the file has it.
    std::string shown = stream.empty() ? std::string() : stream.front().gpu;
    const std::string preferred = deviceKey(preferredDevice);
    for (const auto &s : stream) {
        if (!preferred.empty() && deviceKey(s.gpu) == preferred) {
            shown = s.gpu;
            break;
        }
    }
    std::vector<MeasuredTrace> out;
    for (const auto &s : stream) {
        MeasuredTrace t;
        t.name = s.gpu + " " + s.kernel;
        t.source = path;
        t.kind = TraceKind::BandwidthVsWarps;
        t.x = s.warps_per_sm;
        t.y = s.gbs;
        t.visible = s.gpu == shown;
        t.origin = TraceOrigin {format, out.size(), {}};
        out.push_back(std::move(t));
    }
    return out;
}

MeasuredTrace fromNcu(const NcuReport &report, const std::string &path)
{
    MeasuredTrace t;
    t.name = baseName(path) + " kernels"; // two ncu files are told apart by name
    t.source = path;
    t.kind = TraceKind::KernelPoints;
    t.origin = TraceOrigin {TraceFormat::NcuCsv, 0, {}};
    bool anyZ = false;
    for (const auto &k : report.kernels) {
        if (!k.warps_per_sm || !k.dram_gbs)
            continue;
        t.x.push_back(*k.warps_per_sm);
        t.y.push_back(*k.dram_gbs);
        const auto z = k.intensity();
        anyZ = anyZ || (z && *z > 0);
        t.extra.push_back(z && *z > 0 ? *z : std::numeric_limits<double>::quiet_NaN());
        t.labels.push_back(k.id == k.name ? k.short_name : k.short_name + " [" + k.id + "]");
    }
    if (t.x.empty()) {
        throw InputError(
                path
                + ": no kernel has both the achieved warps per SM and the DRAM throughput in bytes/s "
                  "(profile with ncu --csv --metrics "
                  "sm__warps_active.avg.per_cycle_active,dram__bytes.sum.per_second)");
    }
    if (!anyZ)
        t.extra.clear();
    return t;
}

MeasuredTrace fromPerfStat(const PerfStat &stat, const std::string &path)
{
    const MemoryDemand demand = memoryDemandFromPerfStat(stat);
    MeasuredTrace t;
    t.name = baseName(path) + " memory traffic";
    t.source = path;
    t.kind = TraceKind::BytesPerInterval;
    t.origin = TraceOrigin {TraceFormat::PerfStat, 0, {}};
    t.x = demand.times;
    t.extra = demand.seconds;
    t.labels = {"reads", "writes"};
    t.y = demand.read_bytes;
    t.y.insert(t.y.end(), demand.write_bytes.begin(), demand.write_bytes.end());
    return t;
}

/// The traces of PATH read as FORMAT (not GenericTable), validated.
std::vector<MeasuredTrace> readAs(const std::string &path, TraceFormat format,
                                  const std::string &preferredDevice)
{
    std::vector<MeasuredTrace> out;
    switch (format) {
    case TraceFormat::GpuStream:
        out = fromStream(readGpuStream(path), path, format, preferredDevice);
        break;
    case TraceFormat::GpuStreamCsv:
        out = fromStream(readGpuStreamCsv(path), path, format, preferredDevice);
        break;
    case TraceFormat::NcuCsv:
        out.push_back(fromNcu(readNcuCsv(path), path));
        break;
    case TraceFormat::PerfStat:
        out.push_back(fromPerfStat(readPerfStat(path), path));
        break;
    case TraceFormat::GenericTable:
        break;
    }
    for (const auto &t : out)
        validateTrace(t, path);
    return out;
}

/// Whether FIELDS read as an interval record of `perf stat -x` whatever its first field holds: an event name
/// among the first fields, followed by the counter's run time and the percentage of it measured (0 to 100).
/// A table's header has no numbers, and its rows rarely have six fields in this order.
bool looksLikePerfRecord(const std::vector<std::string> &fields)
{
    if (fields.size() < 6)
        return false;
    for (std::size_t i = 1; i <= 4 && i + 2 < fields.size(); ++i) {
        if (fields[i].empty() || parseTableNumber(fields[i], '.', false))
            continue;
        const auto runTime = parseTableNumber(fields[i + 1], '.', false);
        const auto percent = parseTableNumber(fields[i + 2], '.', false);
        if (runTime && percent && *percent >= 0 && *percent <= 100)
            return true;
    }
    return false;
}

} // namespace

TraceFormat detectTraceFormat(const std::string &path)
{
    constexpr std::size_t kHead = 64 * 1024;
    std::string head;
    if (isStream(path)) {
        // Read once and kept, so the reader chosen here parses the same text.
        head = readTextFile(path, kCsvMaxBytes, "trace files").substr(0, kHead);
    } else {
        std::ifstream file(path, std::ios::binary);
        if (!file)
            return TraceFormat::GenericTable;
        head.assign(kHead, '\0');
        file.read(head.data(), std::streamsize(head.size()));
        head.resize(std::size_t(file.gcount()));
    }
    if (head.find('\0') != std::string::npos)
        return TraceFormat::GenericTable;
    // ncu's own messages before its table, or instead of it when nothing was profiled.
    for (const char *ncuMessage : {"==PROF==", "==ERROR==", "==WARNING=="}) {
        if (head.find(ncuMessage) != std::string::npos)
            return TraceFormat::NcuCsv;
    }
    std::string_view first;
    std::string_view rest = head;
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = trimBlanks(rest.substr(0, end), kWhitespace);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const auto has = [&line](std::string_view text) { return line.find(text) != std::string_view::npos; };
        if (has("Kernel Name") && (has("Metric Name") || has("ID")))
            return TraceFormat::NcuCsv;
        if (first.empty() && !line.empty() && line.front() != '#')
            first = line;
    }
    while (first.rfind(kUtf8Bom, 0) == 0) // a second byte order mark, left by concatenating files
        first.remove_prefix(kUtf8Bom.size());
    if (first.empty())
        return TraceFormat::GenericTable;
    if (first.rfind("blockSize", 0) == 0) // gpu-stream's header, its '|' columns damaged or not
        return TraceFormat::GpuStream;
    const std::vector<std::string> fields = splitFields(first);
    // Nsight Compute's metric names ("dram__bytes.sum", "sm__warps_active..."), whatever became of the
    // "Kernel Name" column.
    const bool ncuMetrics = std::any_of(fields.begin(), fields.end(), [](const std::string &f) {
        for (std::string_view unit : {"dram__", "sm__", "smsp__", "lts__", "l1tex__", "gpu__", "launch__"}) {
            if (f.rfind(unit, 0) == 0)
                return true;
        }
        return false;
    });
    if (ncuMetrics)
        return TraceFormat::NcuCsv;
    // perf stat writes no header: its first record starts with a number (the interval time or the value), or,
    // in a damaged interval record, at least has its event, run time and percentage, so that its reader says
    // what is wrong instead of the file passing for a table.
    const bool numberFirst = parseTableNumber(fields.front(), '.', false).has_value();
    const bool perCpu = fields.size() >= 2 && fields[1].rfind("CPU", 0) == 0; // perf stat -A
    if ((numberFirst && (fields.size() >= 4 || perCpu)) || looksLikePerfRecord(fields))
        return TraceFormat::PerfStat;
    const auto has = [&fields](std::string_view name) {
        return std::find(fields.begin(), fields.end(), name) != fields.end();
    };
    const bool gbsColumn = std::any_of(fields.begin(), fields.end(), [](const std::string &f) {
        return f.size() >= 4 && f.compare(f.size() - 4, 4, "_GBs") == 0;
    });
    if (has("gpu") && gbsColumn) // its reader names a missing warps_per_sm column
        return TraceFormat::GpuStreamCsv;
    return TraceFormat::GenericTable;
}

TraceFile readTraceFile(const std::string &path, const std::string &preferredDevice)
{
    return readTraceFileAs(path, std::nullopt, preferredDevice);
}

TraceFile readTraceFileAs(const std::string &path, std::optional<TraceFormat> format,
                          const std::string &preferredDevice)
{
    if (endsWithNoCase(path, ".ncu-rep"))
        throw InputError(ncuReportMessage(path));
    TraceFile out;
    out.format = format ? *format : detectTraceFormat(path);
    if (out.format == TraceFormat::GenericTable)
        out.table = readCsv(path);
    else
        out.traces = readAs(path, out.format, preferredDevice);
    return out;
}

MeasuredTrace traceFromTable(const CsvTable &table, const TraceMapping &mapping)
{
    const std::string &source = table.source();
    const auto column = [&table](const std::string &name) -> std::optional<std::size_t> {
        if (name.empty())
            return std::nullopt;
        return table.column(name);
    };
    const bool bytes = mapping.kind == TraceKind::BytesPerInterval;
    if (mapping.y.empty())
        throw InputError(source + ": choose the column that holds y");
    if (mapping.x.empty() && !bytes)
        throw InputError(source + ": choose the column that holds x");
    const auto xc = column(mapping.x);
    const std::size_t yc = *column(mapping.y);
    const auto ec = column(mapping.extra);
    const auto lc = column(mapping.label);

    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < table.rowCount(); ++r)
        rows.push_back(r);
    std::string where;
    if (const auto fc = column(mapping.filter_column)) {
        const std::string wanted(trimBlanks(mapping.filter_value, kWhitespace));
        const auto wantedNumber = parseTableNumber(wanted, table.decimalSeparator());
        std::vector<std::size_t> kept;
        std::vector<std::string> seen;
        for (std::size_t r : rows) {
            const std::string cell(trimBlanks(table.cell(r, *fc), " \t"));
            const auto v = parseTableNumber(cell, table.decimalSeparator());
            if (cell == wanted || (wantedNumber && v && *v == *wantedNumber))
                kept.push_back(r);
            else if (seen.size() < 12 && std::find(seen.begin(), seen.end(), cell) == seen.end())
                seen.push_back(cell);
        }
        if (kept.empty()) {
            std::string list;
            for (const auto &s : seen)
                list += (list.empty() ? "" : ", ") + s;
            throw InputError(source + ": no rows where " + mapping.filter_column + " = " + wanted
                             + " (values of that column: " + list + ")");
        }
        rows = std::move(kept);
        where = " where " + mapping.filter_column + " = " + wanted;
    }

    const auto value = [&table](std::size_t r, std::size_t c) {
        const double v = table.number(r, c);
        if (v < 0)
            throw InputError(table.where(r, c) + ": must not be negative (got "
                             + std::string(table.cell(r, c)) + ")");
        return v;
    };
    MeasuredTrace t;
    t.kind = mapping.kind;
    t.source = source;
    t.name = baseName(source) + ": " + mapping.y + where;
    t.origin = TraceOrigin {TraceFormat::GenericTable, 0, mapping};
    std::vector<double> second;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t r = rows[i];
        t.x.push_back(xc ? value(r, *xc) : double(i + 1));
        t.y.push_back(value(r, yc));
        if (ec) {
            if (mapping.kind == TraceKind::KernelPoints && trimBlanks(table.cell(r, *ec), " \t").empty()) {
                t.extra.push_back(std::numeric_limits<double>::quiet_NaN()); // Z not measured
            } else {
                const double v = value(r, *ec);
                if (v == 0 && mapping.kind != TraceKind::BytesPerInterval)
                    throw InputError(table.where(r, *ec) + ": must be > 0");
                (bytes ? second : t.extra).push_back(v);
            }
        }
        if (lc && !bytes)
            t.labels.emplace_back(trimBlanks(table.cell(r, *lc), " \t"));
        if (bytes && xc && i > 0 && t.x[i] <= t.x[i - 1])
            throw InputError(table.where(r, *xc) + ": times must increase from row to row");
    }
    if (bytes) {
        // Each unit lasts from the previous time to its own; the first as long as the second.
        for (std::size_t i = 0; i < t.x.size(); ++i) {
            const double len = i > 0 ? t.x[i] - t.x[i - 1]
                                     : (t.x.size() > 1 ? t.x[1] - t.x[0] : (t.x[0] > 0 ? t.x[0] : 1.0));
            t.extra.push_back(len);
        }
        t.labels.push_back(mapping.y);
        if (ec) {
            t.labels.push_back(mapping.extra);
            t.y.insert(t.y.end(), second.begin(), second.end());
        }
        t.name = baseName(source) + ": bytes" + where;
    }
    validateTrace(t, source);
    return t;
}

MeasuredTrace rereadTrace(const std::string &path, const TraceOrigin &origin)
{
    if (origin.format == TraceFormat::GenericTable)
        return traceFromTable(readCsv(path), origin.mapping);
    std::vector<MeasuredTrace> traces = readAs(path, origin.format, {});
    if (origin.index >= traces.size()) {
        throw InputError(path + ": holds " + std::to_string(traces.size()) + " traces, not the "
                         + std::to_string(origin.index + 1)
                         + " it held when it was imported (has it changed?)");
    }
    return std::move(traces[origin.index]);
}

} // namespace crossroof::core
