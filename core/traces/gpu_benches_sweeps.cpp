// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/gpu_benches_sweeps.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/gpu_benches_text.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace crossroof::core {

namespace {

using detail::BenchText;
using detail::BenchToken;
using detail::benchTokens;
using detail::shownToken;

/// Calls ROW(line number, line, tokens) for each line that is not blank, a '#' comment or a `clock:` line.
template <typename Row>
void eachRow(std::string_view text, Row row)
{
    LineReader lines(text);
    while (const auto next = lines.next()) {
        const std::string_view raw = *next;
        const auto first = raw.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || raw[first] == '#')
            continue;
        const auto tokens = benchTokens(raw);
        if (tokens.front().text == "clock:")
            continue;
        row(lines.number(), raw, tokens);
    }
}

/// A value of a gpu-cache row and its unit: "4 kB", "424ms", "1.5%", "9098.8 GB/s".
struct Item
{
    double value = 0;
    std::string_view unit;
    std::size_t offset = 0;
};

std::vector<Item> items(const BenchText &p, int line, std::string_view raw, const std::vector<BenchToken> &t)
{
    std::vector<Item> out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        for (std::string_view glued : {"ms", "%"}) {
            if (t[i].text.size() > glued.size() && t[i].text.ends_with(glued)) {
                out.push_back({p.number(line, raw, t[i], std::string("value in ") + std::string(glued), glued),
                               glued, t[i].offset});
                break;
            }
        }
        if (!out.empty() && out.back().offset == t[i].offset)
            continue;
        const double v = p.number(line, raw, t[i], "value");
        if (i + 1 >= t.size() || (t[i + 1].text != "kB" && t[i + 1].text != "GB/s"))
            p.fail(line, raw, t[i].offset, "'" + shownToken(t[i].text) + "' has no unit (kB, ms, %, GB/s)");
        out.push_back({v, t[i + 1].text, t[i].offset});
        ++i;
    }
    return out;
}

std::string noRows(const std::string &source, std::string_view what)
{
    return source + ": no " + std::string(what) + " rows";
}

} // namespace

GpuCacheSweep parseGpuCache(std::string_view text, const std::string &gpu, const std::string &source)
{
    const BenchText p(source, "gpu-cache files");
    p.checkSize(text);
    GpuCacheSweep s;
    s.gpu = gpu;
    s.source = source;
    std::optional<bool> l2;
    eachRow(text, [&](int line, std::string_view raw, const std::vector<BenchToken> &t) {
        if (t.front().text == "data" && t.size() > 1 && t[1].text == "set")
            return; // the header
        const auto v = items(p, line, raw, t);
        const bool twoSizes = v.size() > 1 && v[1].unit == "kB";
        const std::size_t first = twoSizes ? 2 : 1;
        if (v.empty() || v[0].unit != "kB" || v.size() < first + 3 || v[first].unit != "ms"
            || v[first + 1].unit != "%" || v[first + 2].unit != "GB/s") {
            p.fail(line, raw, t.front().offset,
                   "expected 'DATASET kB [TOTAL kB] TIMEms SPREAD% BANDWIDTH GB/s ...' (a gpu-cache or "
                   "gpu-l2-cache row)");
        }
        if (l2 && *l2 != twoSizes) {
            p.fail(line, raw, t.front().offset,
                   twoSizes ? "two data-set sizes, but the rows before have one" : "one data-set size, but the "
                                                                                   "rows before have two");
        }
        l2 = twoSizes;
        s.footprint_kb.push_back(v[first - 1].value);
        if (twoSizes)
            s.block_kb.push_back(v[0].value);
        s.gbs.push_back(v[first + 2].value);
        std::vector<double> counters;
        for (std::size_t i = first + 3; i < v.size(); ++i) {
            if (v[i].unit != "GB/s")
                p.fail(line, raw, v[i].offset, "expected a counter in GB/s");
            counters.push_back(v[i].value);
        }
        s.counters_gbs.push_back(std::move(counters));
        s.lines.push_back(line);
    });
    if (s.gbs.empty())
        throw InputError(noRows(source, "gpu-cache (data set kB, time, spread, GB/s)"));
    s.l2 = l2.value_or(false);
    return s;
}

GpuCacheSweep readGpuCache(const std::string &path)
{
    return parseGpuCache(readTextFile(path, kGpuBenchesMaxBytes, "gpu-cache files"), detail::benchGpuName(path),
                         path);
}

GpuL2Stream parseGpuL2Stream(std::string_view text, const std::string &gpu, const std::string &source)
{
    const BenchText p(source, "gpu-l2-stream files");
    p.checkSize(text);
    GpuL2Stream s;
    s.gpu = gpu;
    s.source = source;
    // The last line, where no newline ends the file: a row cut off by a stopped run.
    const int cutLine = text.empty() || text.back() == '\n'
                                ? 0
                                : int(std::count(text.begin(), text.end(), '\n')) + 1;
    eachRow(text, [&](int line, std::string_view raw, const std::vector<BenchToken> &) {
        const auto bar = raw.find('|');
        const auto left = benchTokens(raw, 0, bar == std::string_view::npos ? raw.size() : bar);
        if (bar == std::string_view::npos || left.size() != 5) {
            p.fail(line, raw, left.empty() ? 0 : left.front().offset,
                   "expected 'blockSize blocksPerSM threads dataset(kB) occ% | GB/s: ...' (a gpu-l2-stream row)");
        }
        GpuL2Stream::Row r;
        r.line = line;
        r.block = p.number(line, raw, left[0], "blockSize");
        r.blocks_per_sm = p.number(line, raw, left[1], "blocksPerSM");
        r.threads = p.number(line, raw, left[2], "threads");
        r.footprint_kb = p.number(line, raw, left[3], "dataset (kB)");
        p.number(line, raw, left[4], "occupancy", "%");
        if (r.block < 1 || r.blocks_per_sm < 1 || r.threads < r.block * r.blocks_per_sm) {
            p.fail(line, raw, left[0].offset,
                   "blockSize and blocksPerSM must be >= 1 and their product at most the threads");
        }
        const auto right = benchTokens(raw, bar + 1, raw.size());
        if (right.empty() || right.front().text != "GB/s:")
            p.fail(line, raw, right.empty() ? bar : right.front().offset, "expected 'GB/s:' after '|'");
        const std::size_t values = right.size() - 1;
        if ((values == 0 || values % 3 != 0 || values > 3 * kCsvMaxColumns) && !(line == cutLine && s.kernels)) {
            p.fail(line, raw, right.front().offset,
                   std::to_string(values) + " values; expected three (min, median, max) per kernel");
        }
        if (s.kernels && line == cutLine && values < 3 * s.kernels) {
            s.cut_off_line = line; // the run was stopped while it wrote this row
            return;
        }
        if (s.kernels && values / 3 != s.kernels) {
            p.fail(line, raw, right.front().offset,
                   std::to_string(values / 3) + " kernels, but the first row (line "
                           + std::to_string(s.rows.front().line) + ") has " + std::to_string(s.kernels));
        }
        s.kernels = values / 3;
        for (std::size_t k = 0; k < s.kernels; ++k) {
            for (std::size_t j = 0; j < 3; ++j) {
                const double v = p.number(line, raw, right[1 + 3 * k + j], "kernel " + std::to_string(k + 1));
                if (j == 1)
                    r.median_gbs.push_back(v);
            }
        }
        if (s.rows.empty())
            s.sm_count = r.threads / (r.block * r.blocks_per_sm);
        s.rows.push_back(std::move(r));
    });
    if (s.rows.empty())
        throw InputError(noRows(source, "gpu-l2-stream"));
    return s;
}

GpuL2Stream readGpuL2Stream(const std::string &path)
{
    return parseGpuL2Stream(readTextFile(path, kGpuBenchesMaxBytes, "gpu-l2-stream files"),
                            detail::benchGpuName(path), path);
}

GpuRoofline parseGpuRoofline(std::string_view text, const std::string &gpu, const std::string &source)
{
    const BenchText p(source, "gpu-roofline files");
    p.checkSize(text);
    GpuRoofline s;
    s.gpu = gpu;
    s.source = source;
    eachRow(text, [&](int line, std::string_view raw, const std::vector<BenchToken> &t) {
        if (trimBlanks(raw, " \t\r") == "-- Finished Building --"
            || (t.size() == 1 && parseTableNumber(t.front().text, '.', false)))
            return; // the builds the program lists before measuring
        const auto before = [&](std::string_view unit, const std::string &name) {
            for (std::size_t i = 1; i < t.size(); ++i) {
                if (t[i].text == unit)
                    return p.number(line, raw, t[i - 1], name);
            }
            p.fail(line, raw, t.front().offset,
                   "no '" + std::string(unit) + "' (a gpu-roofline row: DEV BLOCKS blocks ITS its X Fl/B Y GB/s "
                           "Z GF/s CLOCK Mhz ...)");
        };
        const double dev = p.number(line, raw, t.front(), "device");
        const double intensity = before("Fl/B", "intensity (Fl/B)");
        const double gbs = before("GB/s", "bandwidth (GB/s)");
        const double gflops = before("GF/s", "performance (GF/s)");
        double clock = 0;
        if (std::any_of(t.begin(), t.end(), [](const BenchToken &b) { return b.text == "Mhz"; }))
            clock = before("Mhz", "clock (MHz)");
        if (dev != std::floor(dev) || dev > 1024)
            p.fail(line, raw, t.front().offset, "device: must be a whole number (got " + shownToken(t[0].text) + ")");
        auto it = std::find_if(s.devices.begin(), s.devices.end(),
                               [&](const GpuRoofline::Device &d) { return d.index == int(dev); });
        if (it == s.devices.end()) {
            s.devices.push_back({});
            it = s.devices.end() - 1;
            it->index = int(dev);
        }
        it->flops_per_byte.push_back(intensity);
        it->gbs.push_back(gbs);
        it->gflops.push_back(gflops);
        it->clock_mhz.push_back(clock);
        it->lines.push_back(line);
    });
    if (s.devices.empty())
        throw InputError(noRows(source, "gpu-roofline (... Fl/B ... GB/s ... GF/s)"));
    return s;
}

GpuRoofline readGpuRoofline(const std::string &path)
{
    return parseGpuRoofline(readTextFile(path, kGpuBenchesMaxBytes, "gpu-roofline files"),
                            detail::benchGpuName(path), path);
}

double GpuRoofline::ridge(const Device &d)
{
    const double bw = *std::max_element(d.gbs.begin(), d.gbs.end());
    const double perf = *std::max_element(d.gflops.begin(), d.gflops.end());
    const double ridge = bw > 0 ? perf / bw : 0;
    return std::isfinite(ridge) ? ridge : 0; // a file of denormal bandwidths has no ridge to draw
}

GpuStrides parseGpuStrides(std::string_view text, const std::string &gpu, const std::string &source)
{
    const BenchText p(source, "gpu-strides files");
    p.checkSize(text);
    GpuStrides s;
    s.gpu = gpu;
    s.source = source;
    eachRow(text, [&](int line, std::string_view raw, const std::vector<BenchToken> &t) {
        if (t.size() < 6 || (t[0].text != "float" && t[0].text != "double")
            || (t[1].text != "stride" && t[1].text != "block")) {
            p.fail(line, raw, t.front().offset,
                   "expected 'float|double stride|block ARG ARG2 CYCLES B/CYCLE ...' (a gpu-strides row)");
        }
        const std::string name = std::string(t[0].text) + " " + std::string(t[1].text);
        auto it = std::find_if(s.series.begin(), s.series.end(),
                               [&](const GpuStrides::Series &x) { return x.name == name; });
        if (it == s.series.end()) {
            s.series.push_back({name, {}, {}, {}, {}});
            it = s.series.end() - 1;
        }
        it->arg.push_back(p.number(line, raw, t[2], "stride or width"));
        p.number(line, raw, t[3], "second argument");
        it->cycles.push_back(p.number(line, raw, t[4], "cycles"));
        it->bytes_per_cycle.push_back(p.number(line, raw, t[5], "B/cycle"));
        for (std::size_t i = 6; i < t.size(); ++i)
            p.number(line, raw, t[i], "metric");
        it->lines.push_back(line);
    });
    if (s.series.empty())
        throw InputError(noRows(source, "gpu-strides"));
    return s;
}

GpuStrides readGpuStrides(const std::string &path)
{
    return parseGpuStrides(readTextFile(path, kGpuBenchesMaxBytes, "gpu-strides files"), detail::benchGpuName(path),
                           path);
}

} // namespace crossroof::core
