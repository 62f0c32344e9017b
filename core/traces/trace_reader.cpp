// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_reader.h"

#include "core/support/text.h"
#include "core/traces/csv_table.h"

#include <array>
#include <filesystem>

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

bool anyFile(const TraceFileHead &)
{
    return true;
}

TraceFile readTable(const std::string &path, const std::string &)
{
    return {TraceFormat::GenericTable, {}, readCsv(path), std::nullopt, nullptr};
}

} // namespace

TraceFileHead traceFileHead(std::string_view text)
{
    TraceFileHead head;
    head.text = text;
    std::string_view rest = text;
    while (!rest.empty() && head.first_line.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = trimBlanks(rest.substr(0, end), kWhitespace);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (!line.empty() && line.front() != '#')
            head.first_line = line;
    }
    while (head.first_line.starts_with(kUtf8Bom)) // a second byte order mark, left by concatenating files
        head.first_line.remove_prefix(kUtf8Bom.size());
    if (!head.first_line.empty())
        head.fields = splitFields(head.first_line);
    return head;
}

std::span<const TraceReader *const> traceReaders()
{
    static constexpr std::array<const TraceReader *, 11> kReaders {
            &detail::kNcuCsvReader,       &detail::kGpuStreamReader,   &detail::kGpuLatencyReader,
            &detail::kGpuCacheReader,     &detail::kGpuL2CacheReader,  &detail::kGpuL2StreamReader,
            &detail::kGpuRooflineReader,  &detail::kGpuStridesReader,  &detail::kPerfStatReader,
            &detail::kGpuStreamCsvReader, &detail::kTableReader};
    return kReaders;
}

const TraceReader &traceReader(TraceFormat format)
{
    for (const TraceReader *reader : traceReaders()) {
        if (reader->format == format)
            return *reader;
    }
    return detail::kTableReader;
}

namespace detail {

const TraceReader kTableReader {TraceFormat::GenericTable, anyFile, readTable};

std::string traceFileStem(const std::string &path)
{
    return std::filesystem::path(path).stem().string();
}

} // namespace detail

} // namespace crossroof::core
