// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/measurement_files.h"

#include "core/calibration/kernel_family.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/gpu_benches_text.h"
#include "core/traces/ncu_csv.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace crossroof::core {

namespace {

std::string at(const std::string &source, int line)
{
    return source + ":" + std::to_string(line) + ": ";
}



StreamCurve streamCurveFromGpuStream(const std::string &path)
{
    const std::vector<StreamTrace> traces = readGpuStream(path);
    const auto read = std::find_if(traces.begin(), traces.end(), [](const StreamTrace &t) { return t.kernel == "read"; });
    if (read == traces.end()) {
        std::vector<std::string> kernels;
        for (const StreamTrace &t : traces)
            kernels.push_back(t.kernel);
        throw InputError(path + ": a gpu-stream output without a 'read' kernel (kernels: " + briefList(kernels)
                         + "); the stream curve is the read kernel's");
    }
    StreamCurve curve;
    curve.source = path;
    const auto [min, max] = measuredGbsRange();
    for (std::size_t i = 0; i < read->gbs.size(); ++i) {
        const double warps = read->warps_per_sm[i];
        if (!(warps >= 1) || warps != std::floor(warps)) {
            ++curve.left_out;
            continue;
        }
        if (read->gbs[i] < min || read->gbs[i] > max) {
            throw InputError(at(path, read->lines[i]) + "read: " + formatNumber(read->gbs[i]) + " GB/s is outside "
                             + formatNumber(min) + " to " + formatNumber(max) + " GB/s");
        }
        curve.rows.push_back({warps, read->gbs[i], read->lines[i]});
    }
    if (curve.rows.empty())
        throw InputError(path + ": no gpu-stream row with a whole number of warps per SM (>= 1)");
    return curve;
}

LatencyMeasurements latencyFromGpuLatency(const std::string &path)
{
    const GpuLatency latency = readGpuLatency(path);
    const LatencyPlateaus p = latencyPlateaus(latency);
    const auto size = [](double kb) { // gpu-benches' kB are KiB
        return kb < 1024 ? formatNumber(kb) + " kB" : formatNumber(std::round(kb / 1024 * 10) / 10) + " MB";
    };
    const auto how = [&](const std::string &level, const LatencyPlateau &plateau) {
        return "gpu-latency " + level + " plateau, median of " + std::to_string(plateau.rows) + " footprints "
               + size(plateau.from_kb) + " to " + size(plateau.to_kb);
    };
    LatencyMeasurements lat;
    lat.source = path;
    lat.dram_cycles = p.dram.cycles;
    lat.dram_line = p.dram.line;
    lat.dram_how = how("DRAM", p.dram);
    lat.l1_cycles = p.l1.cycles;
    lat.l1_line = p.l1.line;
    lat.l1_how = how("L1", p.l1);
    if (p.l2) {
        lat.l2_cycles = p.l2->cycles;
        lat.l2_line = p.l2->line;
        lat.l2_how = how("L2", *p.l2);
    }
    lat.clock_mhz = latency.clock_mhz;
    lat.clock_line = latency.lines.front();
    return lat;
}

} // namespace

std::optional<TraceFormat> benchFormat(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return std::nullopt;
    std::string head(64 * 1024, '\0');
    file.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(file.gcount()));
    if (head.find('\0') != std::string::npos)
        return std::nullopt;
    return detail::gpuBenchesFormat(head);
}

StreamCurve readStreamCurve(const std::string &path)
{
    if (const auto bench = benchFormat(path)) {
        if (*bench != TraceFormat::GpuStream) {
            throw InputError(path + ": " + std::string(traceFormatTitle(*bench))
                             + ", not a stream curve (warps_per_sm, read_gbs) or gpu-stream output");
        }
        return streamCurveFromGpuStream(path);
    }
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
    if (const auto bench = benchFormat(path)) {
        if (*bench != TraceFormat::GpuLatency) {
            throw InputError(path + ": " + std::string(traceFormatTitle(*bench))
                             + ", not a pointer-chase file (footprint_bytes, load, cycles_per_hop) or gpu-latency "
                               "output");
        }
        return latencyFromGpuLatency(path);
    }
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
