// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What a measured trace holds, and so on which plot it belongs.
enum class TraceKind {
    /// x = warps per SM, y = device GB/s: an f(k) trace for the X-graph (x-model.txt, Fig. 12).
    BandwidthVsWarps,
    /// x = warps per SM, y = GB/s, extra = Z per kernel (or empty), labels = kernel names (Fig. 11).
    KernelPoints,
    /// x = requested blocks B_r, y = runtime (s), extra = threads per core T per run (or empty: T = 1),
    /// labels optional (Eq. 15).
    Runtimes,
    /// Bytes moved per time unit on one or more connections (MODEL.md 4); see MeasuredTrace.
    BytesPerInterval
};

std::string_view traceKindName(TraceKind kind);
std::optional<TraceKind> traceKindFromName(std::string_view name);

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

    bool operator==(const MeasuredTrace &) const = default;
};

/// Points (units for BytesPerInterval) of the trace.
std::size_t pointCount(const MeasuredTrace &trace);
/// Connections of a BytesPerInterval trace (labels.size()); 0 for the other kinds.
std::size_t connectionCount(const MeasuredTrace &trace);
/// Bytes per unit of connection C of a BytesPerInterval trace.
std::span<const double> connectionBytes(const MeasuredTrace &trace, std::size_t connection);

/// Checks the shape rules above (lengths, finite numbers, no negative bytes or times, at least one point);
/// throws InputError "LABEL: field 'PREFIXNAME': problem".
void validateTrace(const MeasuredTrace &trace, const std::string &label, const std::string &prefix = {});

/// The trace as one JSON object: {"id", "name", "source", "kind", "visible", "x", "y", "extra", "labels"}.
std::string traceToJson(const MeasuredTrace &trace);
/// Parses and validates one trace object (as traceToJson() writes it; "extra", "labels" and "visible" are
/// optional). Errors name LABEL and the field with PREFIX in front ("s.crossroof: field 'traces[1].x': ...").
MeasuredTrace traceFromJson(std::string_view json, const std::string &label, const std::string &prefix = {});

} // namespace crossroof::core
