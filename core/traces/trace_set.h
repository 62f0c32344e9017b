// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/measured_curve.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What a measured trace holds, and so on which plot it belongs.
enum class TraceKind {
    /// x = warps per SM, y = device GB/s: an f(k) trace for the X-graph (the X-model paper, Fig. 12).
    BandwidthVsWarps,
    /// x = warps per SM, y = GB/s, extra = Z per kernel (or empty), labels = kernel names (Fig. 11).
    KernelPoints,
    /// x = requested blocks B_r, y = runtime (s), extra = threads per core T per run (or empty: T = 1),
    /// labels optional (Eq. 15).
    Runtimes,
    /// Bytes moved per time unit on one or more connections (MODEL.md 4); see MeasuredTrace.
    BytesPerInterval,
    /// x = footprint (kB), y = cycles per dependent load (gpu-latency): L1, L2 and DRAM show as plateaus.
    LatencyVsFootprint,
    /// x = footprint (kB), y = GB/s (gpu-cache, gpu-l2-cache): the cache levels' bandwidths and capacities.
    BandwidthVsFootprint,
    /// x = arithmetic intensity (Fl/B), y = GF/s (gpu-roofline): a measured roofline and its ridge.
    PerformanceVsIntensity,
    /// x = stride or block width (elements), y = cycles per warp load (gpu-strides).
    CyclesVsStride
};

std::string_view traceKindName(TraceKind kind);
std::optional<TraceKind> traceKindFromName(std::string_view name);

/// The file formats Crossroof reads measurements from (core/traces/trace_import.h).
enum class TraceFormat {
    GpuStream,    ///< gpu-benches' gpu-stream output, stream/<gpu>.txt
    GpuStreamCsv, ///< the tidy stream_vs_warps_per_sm.csv (gpu, warps_per_sm, <kernel>_GBs)
    GpuLatency,   ///< gpu-benches' gpu-latency output (footprint against cycles per load)
    GpuCache,     ///< gpu-benches' gpu-cache output (bandwidth against the data set)
    GpuL2Cache,   ///< gpu-benches' gpu-l2-cache output (bandwidth against the total footprint)
    GpuL2Stream,  ///< gpu-benches' gpu-l2-stream output (bandwidth against occupancy, per footprint)
    GpuRoofline,  ///< gpu-benches' gpu-roofline output (GF/s and GB/s against Fl/B)
    GpuStrides,   ///< gpu-benches' gpu-strides output (cycles per load against the stride)
    NcuCsv,       ///< ncu --csv (details, summary or raw page)
    PerfStat,     ///< perf stat -x SEP -I MS with memory-controller CAS events
    GenericTable  ///< any CSV/TSV/whitespace table with a header: needs a column mapping
};

/// The name a session writes for FORMAT: gpu-stream, gpu-stream-csv, gpu-latency, gpu-cache, gpu-l2-cache,
/// gpu-l2-stream, gpu-roofline, gpu-strides, ncu-csv, perf-stat, table.
std::string_view traceFormatKey(TraceFormat format);
/// What FORMAT is, for messages: "a gpu-benches roofline output", "perf stat output", ...
std::string_view traceFormatTitle(TraceFormat format);
std::optional<TraceFormat> traceFormatFromKey(std::string_view key);

/// How the columns of a generic table become a trace.
struct TraceMapping
{
    TraceKind kind = TraceKind::BandwidthVsWarps;
    std::string x;             ///< column; may be empty for bytes-per-interval (then unit i ends at i+1 s)
    std::string y;             ///< column
    std::string extra;         ///< optional: Z (kernel points), T (runtimes), a second connection (bytes)
    std::string label;         ///< optional: a name per point (kernel points, runtimes)
    std::string filter_column; ///< optional: keep only rows where this column equals filter_value
    std::string filter_value;
    bool operator==(const TraceMapping &) const = default;
};

/// How a trace was read from its file: enough to read it again (a session that links its traces).
struct TraceOrigin
{
    TraceFormat format = TraceFormat::GenericTable;
    std::size_t index = 0; ///< which of the file's traces (a gpu-stream file gives one per kernel)
    TraceMapping mapping;  ///< GenericTable only
    bool operator==(const TraceOrigin &) const = default;
};

/// A measured series loaded from a file, kept with the file it came from so every overlay can name it.
///
/// BytesPerInterval packs its connections into the flat vectors: x = end time of each of the U units (s),
/// extra = length of each unit (s), labels = the C connection names, y = C*U bytes, connection by
/// connection (y[c*U + u]). connectionCount() and connectionBytes() read them back.
/// For KernelPoints a NaN in extra means "Z not measured" (written as null in JSON).
struct MeasuredTrace
{
    std::string id;     ///< unique within a session ("t3"); assigned by whoever collects traces
    std::string name;   ///< what the legend and lists show ("v100 init")
    std::string source; ///< the file it was read from
    TraceKind kind = TraceKind::BandwidthVsWarps;
    std::vector<double> x, y;
    std::vector<double> extra;
    std::vector<std::string> labels;
    bool visible = true;
    /// How it was read from `source`; none for a trace made some other way, which a session can only embed.
    std::optional<TraceOrigin> origin;

    bool operator==(const MeasuredTrace &) const = default;
};

/// TRACE (throughput against warps) as a measured curve that can stand in for f(k) or g(x), in order of x;
/// its source is "the trace NAME (ID)". Throws InputError naming the trace for a trace of another kind, fewer
/// than 3 points, repeated warps or a negative throughput.
std::shared_ptr<const MeasuredCurve> measuredCurveFromTrace(const MeasuredTrace &trace);

/// Points (units for BytesPerInterval) of the trace.
std::size_t pointCount(const MeasuredTrace &trace);
/// Connections of a BytesPerInterval trace (labels.size()); 0 for the other kinds.
std::size_t connectionCount(const MeasuredTrace &trace);
/// Bytes per unit of connection C of a BytesPerInterval trace.
std::span<const double> connectionBytes(const MeasuredTrace &trace, std::size_t connection);

/// Checks the shape rules above (lengths, finite numbers, no negative bytes or times, at least one point);
/// throws InputError "LABEL: field 'PREFIXNAME': problem".
void validateTrace(const MeasuredTrace &trace, const std::string &label, const std::string &prefix = {});

/// The trace as one JSON object: {"id", "name", "source", "kind", "visible", "origin", "x", "y", "extra",
/// "labels"}, with "origin" {"format", "index", "mapping"} (the mapping for tables only) when there is one.
std::string traceToJson(const MeasuredTrace &trace);
/// Parses and validates one trace object (as traceToJson() writes it; "extra", "labels", "visible" and
/// "origin" are optional). Errors name LABEL and the field with PREFIX in front ("s.crossroof: field
/// 'traces[1].x': ...").
MeasuredTrace traceFromJson(std::string_view json, const std::string &label, const std::string &prefix = {});

/// The JSON object of ORIGIN, as traceToJson() writes it; the text of one JSON object.
std::string traceOriginToJson(const TraceOrigin &origin);
/// Parses one origin object; errors name LABEL and the field with PREFIX in front ("traces[1].origin.").
TraceOrigin traceOriginFromJson(std::string_view json, const std::string &label,
                                const std::string &prefix = {});

} // namespace crossroof::core
