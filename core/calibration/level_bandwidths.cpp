// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/level_bandwidths.h"

#include "core/calibration/measurement_files.h"
#include "core/support/error.h"
#include "core/support/statistics.h"
#include "core/support/text.h"
#include "core/traces/gpu_benches_sweeps.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace crossroof::core {

namespace {

/// Rows within this factor of a run's median belong to it.
constexpr double kPlateauSpread = 1.25;

std::string describe(const char *level, const BandwidthPlateau &p)
{
    return std::string(level) + " plateau, median of " + std::to_string(p.rows) + " rows " + formatNumber(p.from_kb)
           + "-" + formatNumber(p.to_kb) + " kB";
}

std::string capacityHow(const char *level, const BandwidthPlateau &p, const BandwidthPlateau &next)
{
    return "the " + std::string(level) + " runs out above " + formatNumber(p.capacity_kb)
           + " kB (the last footprint at or above " + formatNumber(std::sqrt(p.gbs * next.gbs))
           + " GB/s, the geometric mean of " + formatNumber(p.gbs) + " and " + formatNumber(next.gbs) + " GB/s)";
}

/// Refuses PATH unless it is the gpu-benches output EXPECTED (naming what it is instead).
void expectFormat(const std::string &path, TraceFormat expected, const char *option)
{
    const auto format = benchFormat(path);
    if (format && *format != expected) {
        throw InputError(path + ": " + std::string(traceFormatTitle(*format)) + ", not "
                         + std::string(traceFormatTitle(expected)) + " (what " + option + " takes)");
    }
}

} // namespace

std::vector<BandwidthPlateau> bandwidthPlateaus(const std::vector<double> &kb, const std::vector<double> &gbs,
                                                const std::vector<int> &lines)
{
    // Runs of rows within kPlateauSpread of the run's median so far.
    std::vector<std::pair<std::size_t, std::size_t>> runs; // [first, last]
    std::vector<double> run;
    for (std::size_t i = 0; i < gbs.size(); ++i) {
        if (!run.empty()) {
            const double m = median(run);
            if (gbs[i] > m * kPlateauSpread || gbs[i] < m / kPlateauSpread) {
                runs.emplace_back(i - run.size(), i - 1);
                run.clear();
            }
        }
        run.push_back(gbs[i]);
    }
    if (!run.empty())
        runs.emplace_back(gbs.size() - run.size(), gbs.size() - 1);

    std::vector<BandwidthPlateau> out;
    std::vector<std::size_t> ends;
    for (const auto &[first, last] : runs) {
        if (last - first + 1 < kMinPlateauRows)
            continue;
        BandwidthPlateau p;
        p.gbs = median(std::vector<double>(gbs.begin() + std::ptrdiff_t(first), gbs.begin() + std::ptrdiff_t(last) + 1));
        if (!(p.gbs > 0)) // rows of 0 GB/s measure nothing
            continue;
        p.from_kb = kb[first];
        p.to_kb = kb[last];
        p.line = lines[first];
        p.rows = last - first + 1;
        out.push_back(p);
        ends.push_back(last);
    }
    // Each level's capacity: from its last row on, the rows still at or above the midpoint (in log) to the next.
    for (std::size_t l = 0; l + 1 < out.size(); ++l) {
        const double threshold = std::sqrt(out[l].gbs * out[l + 1].gbs);
        std::size_t i = ends[l];
        while (i + 1 < gbs.size() && gbs[i + 1] >= threshold)
            ++i;
        out[l].capacity_kb = kb[i];
        out[l].capacity_line = lines[i];
    }
    return out;
}

LevelMeasurements readCacheLevels(const std::string &path)
{
    expectFormat(path, TraceFormat::GpuCache, "--cache");
    const GpuCacheSweep sweep = readGpuCache(path);
    if (sweep.l2) {
        throw InputError(path + ": " + std::string(traceFormatTitle(TraceFormat::GpuL2Cache))
                         + ", not " + std::string(traceFormatTitle(TraceFormat::GpuCache)) + " (what --cache takes)");
    }
    const std::vector<BandwidthPlateau> p = bandwidthPlateaus(sweep.footprint_kb, sweep.gbs, sweep.lines);
    if (p.size() < 2) {
        throw InputError(path + ": the bandwidth shows " + (p.empty() ? std::string("no level") : "one level only")
                         + " of " + std::to_string(kMinPlateauRows)
                         + " data sets or more within a factor 1.25 of each other: no step from the L1 to the L2");
    }
    LevelMeasurements m;
    m.source = path;
    m.tool = "gpu-cache";
    m.settings.push_back({"R_l1", p[0].gbs, p[0].line, describe("L1", p[0])});
    m.settings.push_back({"S_s", p[0].capacity_kb, p[0].capacity_line, capacityHow("L1", p[0], p[1])});
    m.settings.push_back({"R_l2", p[1].gbs, p[1].line, describe("L2", p[1])});
    if (p.size() >= 3) {
        const BandwidthPlateau &dram = p.back();
        m.settings.push_back({"S_2", p[1].capacity_kb, p[1].capacity_line,
                              capacityHow("L2", p[1], p[2]) + "; every SM reads the same data set"});
        m.settings.push_back({"R_dram", dram.gbs, dram.line, describe("DRAM", dram)});
        if (p.size() > 3)
            m.notes.push_back(path + ": " + std::to_string(p.size() - 3)
                              + " levels between the L2 and the last one (DRAM) are not used");
    } else {
        m.notes.push_back(path + ": the data sets (up to " + formatNumber(sweep.footprint_kb.back())
                          + " kB) stay in the L2: no DRAM level, so neither R_dram nor the L2 capacity S_2");
    }
    return m;
}

LevelMeasurements readL2StreamLevels(const std::string &path)
{
    expectFormat(path, TraceFormat::GpuL2Stream, "--l2-stream");
    const GpuL2Stream s = readGpuL2Stream(path);
    // Each kernel's best over the occupancies, per footprint in ascending order.
    struct Best {
        double gbs = -1;
        int line = 0;
    };
    std::map<double, std::vector<Best>> byFootprint;
    for (const GpuL2Stream::Row &row : s.rows) {
        std::vector<Best> &best = byFootprint[row.footprint_kb];
        best.resize(s.kernels);
        for (std::size_t k = 0; k < s.kernels; ++k) {
            if (row.median_gbs[k] > best[k].gbs)
                best[k] = {row.median_gbs[k], row.line};
        }
    }
    std::vector<std::vector<BandwidthPlateau>> levels(s.kernels);
    std::vector<double> kb;
    for (const auto &[f, best] : byFootprint)
        kb.push_back(f);
    for (std::size_t k = 0; k < s.kernels; ++k) {
        std::vector<double> gbs;
        std::vector<int> lines;
        for (const auto &[f, best] : byFootprint) {
            gbs.push_back(best[k].gbs);
            lines.push_back(best[k].line);
        }
        levels[k] = bandwidthPlateaus(kb, gbs, lines);
    }
    // The L2: the kernel with the highest first level.
    std::size_t fastest = s.kernels;
    for (std::size_t k = 0; k < s.kernels; ++k) {
        if (!levels[k].empty() && (fastest == s.kernels || levels[k].front().gbs > levels[fastest].front().gbs))
            fastest = k;
    }
    if (fastest == s.kernels) {
        throw InputError(path + ": no kernel's bandwidth stays within a factor 1.25 over "
                         + std::to_string(kMinPlateauRows) + " footprints or more (the file has " + std::to_string(kb.size())
                         + "): no level to measure");
    }
    LevelMeasurements m;
    m.source = path;
    m.tool = "gpu-l2-stream";
    const std::string kernel = "kernel " + std::to_string(fastest + 1);
    const std::vector<BandwidthPlateau> &l2 = levels[fastest];
    m.settings.push_back({"R_l2", l2.front().gbs, l2.front().line,
                          describe("L2", l2.front()) + " of " + kernel + " (the fastest there), each its best occupancy"});
    if (l2.size() >= 2) {
        m.settings.push_back({"S_2", l2.front().capacity_kb, l2.front().capacity_line,
                              capacityHow("L2", l2.front(), l2[1]) + " for " + kernel
                                      + ", the footprint as the file prints it"});
    }
    // The DRAM: the highest last level of the kernels that fall from their first.
    std::optional<std::size_t> dram;
    for (std::size_t k = 0; k < s.kernels; ++k) {
        if (levels[k].size() >= 2 && (!dram || levels[k].back().gbs > levels[*dram].back().gbs))
            dram = k;
    }
    if (dram) {
        const BandwidthPlateau &d = levels[*dram].back();
        m.settings.push_back({"R_dram", d.gbs, d.line,
                              describe("DRAM", d) + " of kernel " + std::to_string(*dram + 1)
                                      + " (the highest of the kernels' last levels)"});
    } else {
        m.notes.push_back(path + ": the footprints (up to " + formatNumber(kb.back())
                          + " kB) stay in the L2: no DRAM level, so neither R_dram nor the L2 capacity S_2");
    }
    if (s.cut_off_line > 0)
        m.notes.push_back(path + ":" + std::to_string(s.cut_off_line) + ": a row cut off by a stopped run, left out");
    return m;
}

} // namespace crossroof::core
