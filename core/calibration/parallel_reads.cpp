// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/parallel_reads.h"

#include "core/calibration/kernel_family.h"
#include "core/support/error.h"
#include "core/support/statistics.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace crossroof::core {

namespace {

/// The cell as a whole number in [LO, HI], or an InputError naming its place.
double wholeNumber(const CsvTable &table, std::size_t row, std::size_t column, double lo, double hi)
{
    const double v = table.number(row, column);
    if (!(v >= lo && v <= hi) || v != std::floor(v))
        throw InputError(table.where(row, column) + ": must be a whole number "
                         + (std::isinf(hi) ? ">= " + formatNumber(lo)
                                           : "from " + formatNumber(lo) + " to " + formatNumber(hi))
                         + " (got " + formatExact(v) + ")");
    return v;
}

double positive(const CsvTable &table, std::size_t row, std::size_t column)
{
    const double v = table.number(row, column);
    if (!(v > 0))
        throw InputError(table.where(row, column) + ": must be > 0 (got " + formatExact(v) + ")");
    return v;
}

const ParallelRow *peakRow(const std::vector<const ParallelRow *> &rows)
{
    const ParallelRow *best = nullptr;
    for (const ParallelRow *r : rows) {
        if (!best || r->gbs > best->gbs)
            best = r;
    }
    return best;
}

ReadLevelSummary summarise(const std::vector<const ParallelRow *> &rows, double smCount, double clockGhz)
{
    ReadLevelSummary s;
    s.peak = *peakRow(rows);
    std::vector<double> all;
    std::map<double, std::vector<double>> byM;
    for (const ParallelRow *r : rows) {
        if (r->gbs > kLatencyBoundShare * s.peak.gbs)
            continue;
        const double cycles = impliedLatency(*r, smCount, clockGhz);
        all.push_back(cycles);
        byM[r->loads_in_flight].push_back(cycles);
    }
    s.latency_rows = all.size();
    if (!all.empty())
        s.latency = median(all);
    double lo = INFINITY, hi = 0;
    for (const auto &[m, cycles] : byM) {
        const double c = median(cycles);
        s.by_m.push_back({m, c, cycles.size()});
        lo = std::min(lo, c);
        hi = std::max(hi, c);
    }
    if (s.by_m.size() >= 2)
        s.m_spread = hi / lo;
    return s;
}

std::string spreadWarning(const std::string &source, std::string_view level, const ReadLevelSummary &s)
{
    const auto lo = std::min_element(s.by_m.begin(), s.by_m.end(),
                                     [](const auto &a, const auto &b) { return a.cycles < b.cycles; });
    const auto hi = std::max_element(s.by_m.begin(), s.by_m.end(),
                                     [](const auto &a, const auto &b) { return a.cycles < b.cycles; });
    char spread[32];
    std::snprintf(spread, sizeof spread, "%.2f", s.m_spread);
    return source + ": the latency-bound " + std::string(level) + " rows imply "
           + formatNumber(std::round(lo->cycles)) + " cycles per load with "
           + formatNumber(lo->loads_in_flight) + " in flight but " + formatNumber(std::round(hi->cycles))
           + " with " + formatNumber(hi->loads_in_flight) + " (" + spread
           + " times): the loads did not overlap as loads_in_flight says, so m is not honoured";
}

} // namespace

std::string_view readLevelName(ReadLevel level)
{
    return level == ReadLevel::L2 ? "l2" : "dram";
}

std::string ParallelRow::label() const
{
    return std::string(readLevelName(level)) + " " + formatNumber(bytes_per_thread) + " B x "
           + formatNumber(loads_in_flight) + ", " + formatNumber(warps) + (warps == 1 ? " warp" : " warps");
}

ParallelReads readParallelFile(const std::string &path, std::optional<double> l2Bytes)
{
    const CsvTable table = readCsv(path);
    const std::size_t level = table.column("level");
    const std::size_t bytes = table.column("bytes_per_thread");
    const std::size_t inFlight = table.column("loads_in_flight");
    const std::size_t warps = table.column("warps_per_sm");
    const std::size_t footprint = table.column("footprint_bytes");
    const std::size_t gbs = table.column("read_gbs");
    ParallelReads reads;
    reads.source = table.source();
    // The last row of each series (level, bytes, loads in flight): its warps and line.
    std::map<std::tuple<ReadLevel, double, double>, std::pair<double, int>> last;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        ParallelRow row;
        const std::string name(trimBlanks(table.cell(r, level)));
        if (name == "dram")
            row.level = ReadLevel::Dram;
        else if (name == "l2")
            row.level = ReadLevel::L2;
        else
            throw InputError(table.where(r, level) + ": must be dram or l2 (got '" + brief(name, 40) + "')");
        row.bytes_per_thread = wholeNumber(table, r, bytes, 1, 2048);
        row.loads_in_flight = wholeNumber(table, r, inFlight, 1, 256);
        row.warps = wholeNumber(table, r, warps, 1, INFINITY);
        row.footprint_bytes = positive(table, r, footprint);
        row.gbs = measuredGbs(table, r, gbs);
        row.line = table.line(r);
        if (l2Bytes && row.level == ReadLevel::L2 && row.footprint_bytes > *l2Bytes)
            throw InputError(table.where(r, footprint) + ": an l2 row's footprint must fit in the L2 of "
                             + formatExact(*l2Bytes) + " B (got " + formatExact(row.footprint_bytes) + ")");
        if (l2Bytes && row.level == ReadLevel::Dram && row.footprint_bytes < 4 * *l2Bytes)
            throw InputError(table.where(r, footprint)
                             + ": a dram row's footprint must be at least 4 times the L2 " + "of "
                             + formatExact(*l2Bytes) + " B (got " + formatExact(row.footprint_bytes) + ")");
        const auto key = std::make_tuple(row.level, row.bytes_per_thread, row.loads_in_flight);
        if (const auto it = last.find(key); it != last.end() && row.warps <= it->second.first) {
            const std::string series = "the series " + std::string(readLevelName(row.level)) + ", "
                                       + formatNumber(row.bytes_per_thread) + " B per thread, "
                                       + formatNumber(row.loads_in_flight) + " in flight";
            throw InputError(table.where(r, warps) + ": "
                             + (row.warps == it->second.first
                                        ? "repeats warps_per_sm = " + formatNumber(row.warps) + " of line "
                                                  + std::to_string(it->second.second) + " (" + series + ")"
                                        : "warps_per_sm = " + formatNumber(row.warps) + " comes after "
                                                  + formatNumber(it->second.first) + " on line "
                                                  + std::to_string(it->second.second) + " (" + series
                                                  + "): a series' rows must go up in warps"));
        }
        last[key] = {row.warps, row.line};
        reads.rows.push_back(row);
    }
    if (std::none_of(reads.rows.begin(), reads.rows.end(),
                     [](const ParallelRow &row) { return row.level == ReadLevel::Dram; }))
        throw InputError(reads.source + ": no dram row (level = dram): the DRAM byte bandwidth needs them");
    return reads;
}

double levelPeakGbs(const ParallelReads &reads, ReadLevel level)
{
    double peak = 0;
    for (const ParallelRow &row : reads.rows) {
        if (row.level == level)
            peak = std::max(peak, row.gbs);
    }
    return peak;
}

bool isLatencyBound(const ParallelReads &reads, const ParallelRow &row)
{
    return row.gbs <= kLatencyBoundShare * levelPeakGbs(reads, row.level);
}

double impliedLatency(const ParallelRow &row, double smCount, double clockGhz)
{
    return row.warps * row.loads_in_flight * smCount * row.requestBytes() * clockGhz / row.gbs;
}

ParallelAnalysis analyseParallelReads(const ParallelReads &reads, double smCount, double clockGhz)
{
    ParallelAnalysis a;
    a.source = reads.source;
    std::vector<const ParallelRow *> dram, l2;
    for (const ParallelRow &row : reads.rows)
        (row.level == ReadLevel::Dram ? dram : l2).push_back(&row);
    if (dram.empty())
        throw InputError(reads.source + ": no dram row (level = dram): the DRAM byte bandwidth needs them");
    a.dram = summarise(dram, smCount, clockGhz);
    if (!l2.empty())
        a.l2 = summarise(l2, smCount, clockGhz);

    std::map<double, std::vector<const ParallelRow *>> byWidth;
    for (const ParallelRow *row : dram)
        byWidth[row->bytes_per_thread].push_back(row);
    for (auto &[width, rows] : byWidth) {
        WidthSaturation w;
        w.bytes_per_thread = width;
        w.peak = *peakRow(rows);
        std::stable_sort(rows.begin(), rows.end(), [](const ParallelRow *x, const ParallelRow *y) {
            return std::tie(x->loads_in_flight, x->warps) < std::tie(y->loads_in_flight, y->warps);
        });
        for (const ParallelRow *row : rows) {
            if (row->gbs >= 0.95 * w.peak.gbs) {
                w.saturating = *row;
                break;
            }
        }
        a.widths.push_back(w);
    }

    if (!a.dram.latency) {
        a.warnings.push_back(reads.source
                             + ": no dram row is below half the highest read throughput: no "
                               "latency-bound rows to check m with");
    }
    if (a.dram.m_spread > kHonouredSpread) {
        a.m_honoured = false;
        a.warnings.push_back(spreadWarning(reads.source, "dram", a.dram));
    }
    if (a.l2 && a.l2->m_spread > kHonouredSpread) {
        a.m_honoured = false;
        a.warnings.push_back(spreadWarning(reads.source, "l2", *a.l2));
    }
    if (a.l2 && a.l2->peak.gbs <= a.dram.peak.gbs) {
        a.warnings.push_back(reads.source + ":" + std::to_string(a.l2->peak.line)
                             + ": the l2 rows reach no more than the dram rows ("
                             + formatNumber(a.l2->peak.gbs) + " against " + formatNumber(a.dram.peak.gbs)
                             + " GB/s): their footprint may not have stayed in the L2");
    }
    return a;
}

} // namespace crossroof::core
