// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/measurement_files.h"

#include "core/calibration/kernel_family.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/traces/ncu_csv.h"

#include <cmath>

namespace crossroof::core {

namespace {

std::string at(const std::string &source, int line)
{
    return source + ":" + std::to_string(line) + ": ";
}

} // namespace

StreamCurve readStreamCurve(const std::string &path)
{
    const CsvTable table = readCsv(path);
    const std::size_t warps = table.column("warps_per_sm");
    const std::size_t gbs = table.column("read_gbs");
    StreamCurve curve;
    curve.source = table.source();
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        StreamRow row;
        row.warps = table.number(r, warps);
        row.line = table.line(r);
        if (!(row.warps >= 1) || row.warps != std::floor(row.warps))
            throw InputError(table.where(r, warps) + ": must be a whole number >= 1 (got "
                             + formatNumber(row.warps) + ")");
        row.gbs = measuredGbs(table, r, gbs);
        curve.rows.push_back(row);
    }
    return curve;
}

LatencyMeasurements readLatencyFile(const std::string &path)
{
    const CsvTable table = readCsv(path);
    const std::size_t footprint = table.column("footprint_bytes");
    const std::size_t load = table.column("load");
    const std::size_t cycles = table.column("cycles_per_hop");
    LatencyMeasurements lat;
    lat.source = table.source();
    double cgSmall = INFINITY, cgLarge = 0, ldSmall = INFINITY;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const std::string kind(trimBlanks(table.cell(r, load)));
        const double c = table.number(r, cycles);
        const int line = table.line(r);
        if (!(c > 0))
            throw InputError(table.where(r, cycles) + ": must be > 0 (got " + formatNumber(c) + ")");
        if (kind == "fma") {
            lat.dependent_issue = c;
            lat.fma_line = line;
            continue;
        }
        const double bytes = table.number(r, footprint);
        if (!(bytes > 0))
            throw InputError(table.where(r, footprint) + ": must be > 0 (got " + formatNumber(bytes) + ")");
        if (kind == "ld.cg") {
            if (bytes < cgSmall) {
                cgSmall = bytes;
                lat.l2_cycles = c;
                lat.l2_line = line;
            }
            if (bytes > cgLarge) {
                cgLarge = bytes;
                lat.dram_cycles = c;
                lat.dram_line = line;
            }
        } else if (kind == "ld" && bytes < ldSmall) {
            ldSmall = bytes;
            lat.l1_cycles = c;
            lat.l1_line = line;
        }
    }
    if (lat.dram_cycles <= 0 || lat.l1_cycles <= 0)
        throw InputError(lat.source + ": needs 'ld.cg' rows (L2, DRAM) and 'ld' rows (L1)");
    if (cgSmall == cgLarge) // one ld.cg footprint: it is the DRAM latency, not an L2 one
        lat.l2_cycles.reset();
    return lat;
}

KernelSet readKernelSet(const std::string &path, double warpSize)
{
    const NcuReport report = readNcuCsv(path);
    KernelSet set;
    set.source = report.source;
    for (const NcuKernel &k : report.kernels) {
        const std::string where = at(set.source, k.line) + "kernel " + k.id + " (" + k.short_name + "): ";
        if (!k.problem.empty()) {
            set.skipped.push_back(where + k.problem);
            continue;
        }
        std::vector<std::string> missing;
        std::string problem;
        const std::optional<KernelWorkload> w = kernelWorkload(k, warpSize, missing, problem);
        if (!missing.empty()) {
            std::string list;
            for (const std::string &metric : missing)
                list += (list.empty() ? "" : ",") + metric;
            set.skipped.push_back(where + "missing " + list + " (add them with ncu --metrics " + list + ")");
            continue;
        }
        if (!w) {
            set.skipped.push_back(where + problem);
            continue;
        }
        if (!(*k.dram_gbs > 0)) {
            set.skipped.push_back(where + "dram__bytes.sum.per_second is 0: no DRAM throughput to fit");
            continue;
        }
        if (const auto [min, max] = measuredGbsRange(); *k.dram_gbs < min || *k.dram_gbs > max) {
            set.skipped.push_back(where + "dram__bytes.sum.per_second is " + formatNumber(*k.dram_gbs)
                                  + " GB/s, outside R's range (" + formatNumber(min) + " to " + formatNumber(max)
                                  + " GB/s): nothing a fit can match");
            continue;
        }
        set.kernels.push_back({k.id, k.short_name, k.line, *w, *k.dram_gbs});
    }
    if (set.kernels.empty()) {
        throw InputError(set.source + ": no kernel can be used for a calibration"
                         + (set.skipped.empty() ? std::string() : " (" + set.skipped.front() + ")"));
    }
    return set;
}

} // namespace crossroof::core
