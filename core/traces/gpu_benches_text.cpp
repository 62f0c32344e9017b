// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/gpu_benches_text.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

namespace crossroof::core::detail {

std::vector<BenchToken> benchTokens(std::string_view line, std::size_t from, std::size_t to)
{
    std::vector<BenchToken> out;
    std::size_t i = from;
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (i < to) {
        while (i < to && blank(line[i]))
            ++i;
        if (i >= to)
            break;
        const std::size_t start = i;
        while (i < to && !blank(line[i]))
            ++i;
        out.push_back({line.substr(start, i - start), start});
    }
    return out;
}

std::string shownToken(std::string_view t)
{
    constexpr std::size_t kMax = 40;
    return t.size() <= kMax ? std::string(t) : std::string(t.substr(0, kMax)) + "...";
}

void BenchText::fail(int line, std::string_view text, std::size_t offset, const std::string &problem) const
{
    int column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80)
            ++column;
    }
    throw InputError(m_source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + problem);
}

double BenchText::number(int line, std::string_view text, const BenchToken &t, const std::string &name,
                         std::string_view unit) const
{
    const std::string field = brief(name, 40);
    std::string_view digits = t.text;
    if (!unit.empty() && digits.size() > unit.size() && digits.ends_with(unit))
        digits.remove_suffix(unit.size());
    const auto v = parseTableNumber(digits, '.', false);
    if (!v)
        fail(line, text, t.offset, field + ": '" + shownToken(t.text) + "' is not a number");
    if (!std::isfinite(*v))
        fail(line, text, t.offset, field + ": '" + shownToken(t.text) + "' is not a finite number");
    if (*v < 0)
        fail(line, text, t.offset, field + ": must not be negative (got " + shownToken(t.text) + ")");
    return *v;
}

void BenchText::checkSize(std::string_view text) const
{
    if (text.size() > kGpuBenchesMaxBytes) {
        throw InputError(m_source + ": " + std::to_string(text.size()) + " bytes, over the "
                         + std::to_string(kGpuBenchesMaxBytes / (1024 * 1024)) + " MiB limit for "
                         + std::string(m_what));
    }
    checkText(text, m_source, m_what);
}

std::string benchGpuName(const std::string &path)
{
    std::string stem = std::filesystem::path(path).stem().string();
    // Longest names first, so that "l2-stream" is not taken for "stream".
    static constexpr std::array<std::string_view, 7> kBenches {"l2-stream", "l2-cache", "roofline", "latency",
                                                               "strides", "stream", "cache"};
    for (std::string_view prefix : {"gpu-", "cuda-", "hip-", ""}) {
        for (std::string_view bench : kBenches) {
            const std::string name = std::string(prefix) + std::string(bench);
            if (stem.size() > name.size() + 1 && stem.starts_with(name)
                && (stem[name.size()] == '_' || stem[name.size()] == '-')) {
                return stem.substr(name.size() + 1);
            }
        }
    }
    return stem;
}

namespace {

bool isNumber(std::string_view t)
{
    return parseTableNumber(t, '.', false).has_value();
}

std::size_t count(const std::vector<BenchToken> &tokens, std::string_view word)
{
    return std::size_t(std::count_if(tokens.begin(), tokens.end(),
                                     [&](const BenchToken &t) { return t.text == word; }));
}

} // namespace

std::optional<TraceFormat> gpuBenchesFormat(std::string_view text)
{
    constexpr int kMaxLines = 400; // gpu-roofline may open with a list of its builds
    bool clock = false;
    LineReader lines(text);
    int seen = 0;
    while (const auto next = lines.next()) {
        if (++seen > kMaxLines)
            break;
        const std::string_view line = trimBlanks(*next, " \t\r");
        if (line.empty() || line.front() == '#')
            continue;
        const auto t = benchTokens(line);
        const std::string_view first = t.front().text;
        if (first == "clock:") {
            clock = true;
            continue;
        }
        const bool bar = line.find('|') != std::string_view::npos;
        if (first == "blockSize" || (first == "block" && bar))
            return TraceFormat::GpuStream;
        if (line.find("Fl/B") != std::string_view::npos && count(t, "its") == 1)
            return TraceFormat::GpuRoofline;
        if (line == "-- Finished Building --" || (t.size() == 1 && isNumber(first)))
            continue; // gpu-roofline's builds before its rows
        if (t.size() >= 2 && (first == "float" || first == "double")
            && (t[1].text == "stride" || t[1].text == "block"))
            return TraceFormat::GpuStrides;
        if (line.starts_with("data set")) {
            if (line.find("DRAM read") != std::string_view::npos)
                return TraceFormat::GpuCache;
            continue; // gpu-l2-cache's header names fewer columns than its rows have: the rows decide
        }
        if (bar && line.find("GB/s:") != std::string_view::npos) {
            const auto left = benchTokens(line, 0, line.find('|'));
            return left.size() == 5 ? std::optional(TraceFormat::GpuL2Stream) : std::nullopt;
        }
        const std::size_t kb = count(t, "kB");
        if (kb > 0 && count(t, "GB/s") > 0)
            return kb >= 2 ? TraceFormat::GpuL2Cache : TraceFormat::GpuCache;
        const bool numbers = std::all_of(t.begin(), t.end(), [](const BenchToken &b) { return isNumber(b.text); });
        // After a clock line any row of numbers is gpu-latency's, its reader says what is wrong with it.
        if (numbers && (t.size() == 5 || clock))
            return TraceFormat::GpuLatency;
        return std::nullopt;
    }
    return clock ? std::optional(TraceFormat::GpuLatency) : std::nullopt;
}

} // namespace crossroof::core::detail
