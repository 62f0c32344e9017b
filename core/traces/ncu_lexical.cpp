// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/ncu_lexical.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace crossroof::core::detail::ncu {

std::string shown(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

std::optional<double> decimalPrefix(char c)
{
    switch (c) {
    case 'K':
    case 'k':
        return 1e3;
    case 'M':
        return 1e6;
    case 'G':
        return 1e9;
    case 'T':
        return 1e12;
    case 'P':
        return 1e15;
    default:
        return std::nullopt;
    }
}

std::optional<double> countScale(std::string_view unit, std::string_view base)
{
    if (unit.empty() || unit == base)
        return 1.0;
    if (unit.size() == base.size() + 1 && unit.substr(1) == base)
        return decimalPrefix(unit[0]);
    return std::nullopt;
}

std::optional<double> byteScale(std::string_view unit)
{
    if (unit.empty() || unit == "byte")
        return 1.0;
    if (!unit.ends_with("byte"))
        return std::nullopt;
    const std::string_view prefix = unit.substr(0, unit.size() - 4);
    if (prefix.size() == 1)
        return decimalPrefix(prefix[0]);
    if (prefix.size() == 2 && prefix[1] == 'i') {
        const auto p = decimalPrefix(prefix[0]);
        if (!p)
            return std::nullopt;
        return std::pow(1024.0, std::round(std::log10(*p) / 3));
    }
    return std::nullopt;
}

std::optional<double> timeScale(std::string_view unit)
{
    constexpr std::array<std::pair<std::string_view, double>, 8> kUnits {{
            {"ns", 1},
            {"nsecond", 1},
            {"us", 1e3},
            {"usecond", 1e3},
            {"ms", 1e6},
            {"msecond", 1e6},
            {"s", 1e9},
            {"second", 1e9},
    }};
    for (const auto &[u, f] : kUnits) {
        if (u == unit)
            return f;
    }
    return std::nullopt;
}

std::optional<double> frequencyScale(std::string_view unit)
{
    if (unit.starts_with("cycle/")) {
        const auto t = timeScale(unit.substr(6));
        if (!t)
            return std::nullopt;
        return 1e9 / *t;
    }
    if (unit.size() < 2 || (unit.substr(unit.size() - 2) != "hz" && unit.substr(unit.size() - 2) != "Hz"))
        return std::nullopt;
    if (unit.size() == 2)
        return 1.0;
    if (unit.size() == 3)
        return decimalPrefix(unit[0] == 'm' ? 'M' : unit[0] == 'g' ? 'G' : unit[0]);
    return std::nullopt;
}

bool notCollected(std::string_view text)
{
    return text.empty() || text == "n/a" || text == "N/A" || text == "no data" || text == "-";
}

Tables splitTables(std::string_view text, const std::string &source)
{
    struct Line
    {
        std::string_view text;
        int number = 0;
        bool continued = false; ///< starts inside a quoted field of the line before
    };
    std::vector<Line> lines;
    bool inQuote = false;
    int openLine = 0, openColumn = 0;
    LineReader reader(text);
    while (const auto line = reader.next()) {
        lines.push_back({*line, reader.number(), inQuote});
        for (std::size_t i = 0; i < line->size(); ++i) {
            if ((*line)[i] != '"')
                continue;
            inQuote = !inQuote;
            if (inQuote) {
                openLine = reader.number();
                openColumn = int(i) + 1;
            }
        }
    }
    Tables out;
    if (inQuote) {
        out.truncated = source + ":" + std::to_string(openLine) + ":" + std::to_string(openColumn)
                        + ": the quote opened here is not closed";
        out.truncated_line = openLine;
        while (!lines.empty() && lines.back().number >= openLine)
            lines.pop_back();
    }
    // ncu quotes every field, so its header is the first line with a quoted "Kernel Name"; else the first line
    // that mentions Kernel Name at all.
    bool quoted = true;
    auto first = std::find_if(lines.begin(), lines.end(), [](const Line &l) {
        return !l.continued && l.text.find("\"Kernel Name\"") != std::string_view::npos;
    });
    if (first == lines.end()) {
        quoted = false;
        first = std::find_if(lines.begin(), lines.end(),
                             [](const Line &l) { return l.text.find("Kernel Name") != std::string_view::npos; });
    }
    if (first == lines.end()) {
        // Not ncu output: the table as it is, for CsvTable and the parser to say what is wrong.
        return Tables {{std::string(text)}, {1}, {}, 0};
    }
    std::vector<std::string_view> headers;
    std::size_t current = 0;
    struct Kept
    {
        std::size_t table;
        const Line *line;
    };
    std::vector<Kept> kept; ///< the lines of the tables, each with its table
    for (auto it = first; it != lines.end(); ++it) {
        const std::string_view trimmed = trimBlanks(it->text);
        // The first header opens the first table even when it sits inside a quote of the line before.
        const bool header = it == first
            || (!it->continued && quoted && trimmed.starts_with("\"")
                && trimmed.find("\"Kernel Name\"") != std::string_view::npos);
        if (header) {
            const auto known = std::find(headers.begin(), headers.end(), trimmed);
            current = std::size_t(known - headers.begin());
            if (known == headers.end()) {
                if (headers.size() == kMaxTables) {
                    throw InputError(source + ":" + std::to_string(it->number) + ": more than "
                                     + std::to_string(kMaxTables)
                                     + " different ncu header lines; split the file by run");
                }
                headers.push_back(trimmed);
                out.texts.emplace_back();
                out.header_lines.push_back(it->number);
            }
        } else if (!it->continued && (trimmed.starts_with("==") || (quoted && !trimmed.empty()
                                                                    && !trimmed.starts_with("\"")))) {
            continue; // profiler messages and the program's own output
        }
        kept.push_back({current, &*it});
    }
    // Each table's text keeps its lines where they were in the file (the lines of others and the skipped ones
    // stay as empty lines), so that its messages give the file's line numbers. Sized first: a table grown line
    // by line reached twice the file's size.
    std::vector<std::size_t> sizes(out.texts.size(), 0);
    std::vector<int> written(out.texts.size(), 0); ///< lines written to each table so far
    for (const Kept &k : kept) {
        sizes[k.table] += std::size_t(k.line->number - written[k.table]) + k.line->text.size();
        written[k.table] = k.line->number;
    }
    std::fill(written.begin(), written.end(), 0);
    for (std::size_t t = 0; t < out.texts.size(); ++t)
        out.texts[t].reserve(sizes[t]);
    for (const Kept &k : kept) {
        std::string &table = out.texts[k.table];
        table.append(std::size_t(k.line->number - 1 - written[k.table]), '\n');
        table.append(k.line->text);
        table.push_back('\n');
        written[k.table] = k.line->number;
    }
    return out;
}

} // namespace crossroof::core::detail::ncu
