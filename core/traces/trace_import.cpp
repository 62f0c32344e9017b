// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_import.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_file_cache.h"
#include "core/traces/trace_reader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>

namespace crossroof::core {

namespace {

constexpr const char *kWhitespace = " \t\r\n\v\f";

bool endsWithNoCase(std::string_view s, std::string_view suffix)
{
    const auto same = [](char a, char b) { return std::tolower(unsigned(a)) == std::tolower(unsigned(b)); };
    return s.size() >= suffix.size()
            && std::equal(suffix.begin(), suffix.end(), s.end() - std::ptrdiff_t(suffix.size()), same);
}

/// PATH read by READER, its traces validated.
TraceFile readWith(const TraceReader &reader, const std::string &path, const std::string &preferredDevice)
{
    TraceFile out = reader.read(path, preferredDevice);
    for (const auto &t : out.traces)
        validateTrace(t, path);
    return out;
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
    // Binary data is read as a table, whose reader says what is wrong.
    if (head.find('\0') != std::string::npos)
        return TraceFormat::GenericTable;
    const TraceFileHead fileHead = traceFileHead(head);
    for (const TraceReader *reader : traceReaders()) {
        if (reader->recognizes(fileHead))
            return reader->format;
    }
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
    const TraceFormat detected = detectTraceFormat(path);
    // A format asked for that the content contradicts is refused naming both, never read as garbage; any
    // file may be read as a table.
    // Only formats recognised by a sure sign count (gpu-benches' lines, ncu's header): perf stat's and the tidy
    // CSV's recognisers are lenient, so that their readers name what is wrong in a damaged file.
    const bool sure = detected != TraceFormat::GenericTable && detected != TraceFormat::PerfStat
                      && detected != TraceFormat::GpuStreamCsv;
    if (format && *format != TraceFormat::GenericTable && sure && detected != *format) {
        throw InputError(path + ": " + std::string(traceFormatTitle(detected)) + ", not "
                         + std::string(traceFormatTitle(*format)));
    }
    return readWith(traceReader(format ? *format : detected), path, preferredDevice);
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
    rows.reserve(table.rowCount());
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
    t.name = detail::traceFileStem(source) + ": " + mapping.y + where;
    t.origin = TraceOrigin {TraceFormat::GenericTable, 0, mapping};
    std::vector<double> second;
    // Room for every row at once, rather than growing by copies (a table of 16 million rows).
    t.x.reserve(rows.size());
    t.y.reserve(ec && bytes ? 2 * rows.size() : rows.size());
    if (ec || bytes)
        t.extra.reserve(rows.size()); // Z, or each interval's length
    if (ec && bytes)
        second.reserve(rows.size());
    if (lc && !bytes)
        t.labels.reserve(rows.size());
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
        t.name = detail::traceFileStem(source) + ": bytes" + where;
    }
    validateTrace(t, source);
    return t;
}

MeasuredTrace rereadTrace(const std::string &path, const TraceOrigin &origin)
{
    return TraceFileCache().reread(path, origin);
}

} // namespace crossroof::core
