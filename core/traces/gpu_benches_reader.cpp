// SPDX-License-Identifier: GPL-3.0-or-later
// gpu-benches' results as trace readers, each recognised by its content (gpuBenchesFormat()): gpu-stream (one
// bandwidth-vs-warps trace per kernel) and its tidy CSV (a "gpu" column and columns ending in "_GBs"; one
// trace per GPU and kernel), gpu-latency, gpu-cache, gpu-l2-cache, gpu-l2-stream (one bandwidth-vs-warps
// trace per kernel and footprint), gpu-roofline and gpu-strides.
#include "core/support/text.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/gpu_benches_sweeps.h"
#include "core/traces/gpu_benches_text.h"
#include "core/traces/trace_reader.h"

#include "core/support/error.h"

#include <algorithm>
#include <optional>
#include <cctype>

namespace crossroof::core {

namespace {

std::string deviceKey(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return c == '-' ? '_' : char(std::tolower(c)); });
    return s;
}

TraceFile fromStream(const std::vector<StreamTrace> &stream, const std::string &path, TraceFormat format,
                     const std::string &preferredDevice)
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
    TraceFile out;
    out.format = format;
    for (const auto &s : stream) {
        MeasuredTrace t;
        t.name = s.gpu + " " + s.kernel;
        t.source = path;
        t.kind = TraceKind::BandwidthVsWarps;
        t.x = s.warps_per_sm;
        t.y = s.gbs;
        t.visible = s.gpu == shown;
        t.origin = TraceOrigin {format, out.traces.size(), {}};
        out.traces.push_back(std::move(t));
        if (s.gpu == shown && !out.device) {
            out.device.emplace();
            out.device->name = s.gpu;
            if (s.sm_count > 0)
                out.device->sm_count = s.sm_count;
        }
    }
    return out;
}

bool recognizesStreamText(const TraceFileHead &head)
{
    // gpu-stream's header of either generation, its '|' columns damaged or not
    return detail::gpuBenchesFormat(head.text) == TraceFormat::GpuStream;
}

TraceFile readStreamText(const std::string &path, const std::string &preferredDevice)
{
    return fromStream(readGpuStream(path), path, TraceFormat::GpuStream, preferredDevice);
}

bool recognizesStreamCsv(const TraceFileHead &head)
{
    const auto &fields = head.fields;
    const bool gbsColumn = std::any_of(fields.begin(), fields.end(), [](const std::string &f) {
        return f.size() >= 4 && f.compare(f.size() - 4, 4, "_GBs") == 0;
    });
    // Its reader names a missing warps_per_sm column.
    return gbsColumn && std::find(fields.begin(), fields.end(), "gpu") != fields.end();
}

TraceFile readStreamCsv(const std::string &path, const std::string &preferredDevice)
{
    return fromStream(readGpuStreamCsv(path), path, TraceFormat::GpuStreamCsv, preferredDevice);
}

MeasuredTrace curve(const std::string &name, const std::string &path, TraceKind kind, TraceFormat format,
                    std::size_t index, std::vector<double> x, std::vector<double> y)
{
    MeasuredTrace t;
    t.name = name;
    t.source = path;
    t.kind = kind;
    t.x = std::move(x);
    t.y = std::move(y);
    t.origin = TraceOrigin {format, index, {}};
    return t;
}

TraceFile benchFile(TraceFormat format, const std::string &gpu, std::optional<double> smCount = std::nullopt)
{
    TraceFile out;
    out.format = format;
    out.device.emplace();
    out.device->name = gpu;
    if (smCount && *smCount > 0)
        out.device->sm_count = *smCount;
    return out;
}

template <TraceFormat F>
bool recognizesBench(const TraceFileHead &head)
{
    return detail::gpuBenchesFormat(head.text) == F;
}

TraceFile readLatency(const std::string &path, const std::string &)
{
    const GpuLatency lat = readGpuLatency(path);
    TraceFile out = benchFile(TraceFormat::GpuLatency, lat.gpu);
    out.traces.push_back(curve(lat.gpu + " latency", path, TraceKind::LatencyVsFootprint, TraceFormat::GpuLatency, 0,
                               lat.chain_kb, lat.cycles));
    return out;
}

TraceFile readCache(const std::string &path, TraceFormat format)
{
    const GpuCacheSweep c = readGpuCache(path);
    if (c.l2 != (format == TraceFormat::GpuL2Cache)) {
        throw InputError(path + ": " + std::string(traceFormatTitle(c.l2 ? TraceFormat::GpuL2Cache : TraceFormat::GpuCache))
                         + ", not " + std::string(traceFormatTitle(format)));
    }
    TraceFile out = benchFile(format, c.gpu);
    out.traces.push_back(curve(c.gpu + (c.l2 ? " l2-cache" : " cache"), path, TraceKind::BandwidthVsFootprint, format,
                               0, c.footprint_kb, c.gbs));
    return out;
}

TraceFile readL2Stream(const std::string &path, const std::string &)
{
    const GpuL2Stream s = readGpuL2Stream(path);
    TraceFile out = benchFile(TraceFormat::GpuL2Stream, s.gpu, s.sm_count);
    // One curve per kernel and footprint, in order of footprint; the first footprint's are shown at first.
    std::vector<double> footprints;
    for (const auto &r : s.rows) {
        if (std::find(footprints.begin(), footprints.end(), r.footprint_kb) == footprints.end())
            footprints.push_back(r.footprint_kb);
    }
    for (const double f : footprints) {
        for (std::size_t k = 0; k < s.kernels; ++k) {
            std::vector<double> x, y;
            for (const auto &r : s.rows) {
                if (r.footprint_kb == f) {
                    x.push_back(r.warpsPerSm());
                    y.push_back(r.median_gbs[k]);
                }
            }
            MeasuredTrace t = curve(s.gpu + " kernel " + std::to_string(k + 1) + ", " + formatNumber(f) + " kB", path,
                                    TraceKind::BandwidthVsWarps, TraceFormat::GpuL2Stream, out.traces.size(),
                                    std::move(x), std::move(y));
            t.visible = f == footprints.front();
            out.traces.push_back(std::move(t));
        }
    }
    return out;
}

TraceFile readRoofline(const std::string &path, const std::string &)
{
    const GpuRoofline r = readGpuRoofline(path);
    TraceFile out = benchFile(TraceFormat::GpuRoofline, r.gpu);
    for (const auto &d : r.devices) {
        std::string name = r.gpu + " roofline";
        if (r.devices.size() > 1)
            name += " GPU " + std::to_string(d.index);
        out.traces.push_back(curve(name, path, TraceKind::PerformanceVsIntensity, TraceFormat::GpuRoofline,
                                   out.traces.size(), d.flops_per_byte, d.gflops));
    }
    return out;
}

TraceFile readStrides(const std::string &path, const std::string &)
{
    const GpuStrides s = readGpuStrides(path);
    TraceFile out = benchFile(TraceFormat::GpuStrides, s.gpu);
    for (const auto &series : s.series) {
        out.traces.push_back(curve(s.gpu + " " + series.name, path, TraceKind::CyclesVsStride, TraceFormat::GpuStrides,
                                   out.traces.size(), series.arg, series.cycles));
    }
    return out;
}

} // namespace

namespace detail {

const TraceReader kGpuStreamReader {TraceFormat::GpuStream, recognizesStreamText, readStreamText};
const TraceReader kGpuStreamCsvReader {TraceFormat::GpuStreamCsv, recognizesStreamCsv, readStreamCsv};
const TraceReader kGpuLatencyReader {TraceFormat::GpuLatency, recognizesBench<TraceFormat::GpuLatency>, readLatency};
const TraceReader kGpuCacheReader {TraceFormat::GpuCache, recognizesBench<TraceFormat::GpuCache>,
                                   [](const std::string &path, const std::string &) {
                                       return readCache(path, TraceFormat::GpuCache);
                                   }};
const TraceReader kGpuL2CacheReader {TraceFormat::GpuL2Cache, recognizesBench<TraceFormat::GpuL2Cache>,
                                     [](const std::string &path, const std::string &) {
                                         return readCache(path, TraceFormat::GpuL2Cache);
                                     }};
const TraceReader kGpuL2StreamReader {TraceFormat::GpuL2Stream, recognizesBench<TraceFormat::GpuL2Stream>,
                                      readL2Stream};
const TraceReader kGpuRooflineReader {TraceFormat::GpuRoofline, recognizesBench<TraceFormat::GpuRoofline>,
                                      readRoofline};
const TraceReader kGpuStridesReader {TraceFormat::GpuStrides, recognizesBench<TraceFormat::GpuStrides>, readStrides};

} // namespace detail

} // namespace crossroof::core
