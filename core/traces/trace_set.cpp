// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_set.h"

#include <algorithm>

#include "core/support/error.h"
#include "core/support/json_reader.h"
#include "core/support/text.h"
#include "core/support/utf8.h"
#include "core/traces/trace_json.h"

#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace crossroof::core {

namespace {

using detail::json;
using detail::JsonReader;

constexpr std::array<std::pair<TraceKind, std::string_view>, 8> kKindNames {{
        {TraceKind::BandwidthVsWarps, "bandwidth-vs-warps"},
        {TraceKind::KernelPoints, "kernel-points"},
        {TraceKind::Runtimes, "runtimes"},
        {TraceKind::BytesPerInterval, "bytes-per-interval"},
        {TraceKind::LatencyVsFootprint, "latency-vs-footprint"},
        {TraceKind::BandwidthVsFootprint, "bandwidth-vs-footprint"},
        {TraceKind::PerformanceVsIntensity, "performance-vs-intensity"},
        {TraceKind::CyclesVsStride, "cycles-vs-stride"},
}};

struct FormatNames
{
    TraceFormat format;
    std::string_view key;
    std::string_view title;
};

constexpr std::array<FormatNames, 11> kFormatKeys {{
        {TraceFormat::GpuStream, "gpu-stream", "a gpu-benches stream output"},
        {TraceFormat::GpuStreamCsv, "gpu-stream-csv", "a stream bandwidth table (gpu, warps_per_sm, <kernel>_GBs)"},
        {TraceFormat::GpuLatency, "gpu-latency", "a gpu-benches latency output"},
        {TraceFormat::GpuCache, "gpu-cache", "a gpu-benches cache output"},
        {TraceFormat::GpuL2Cache, "gpu-l2-cache", "a gpu-benches l2-cache output"},
        {TraceFormat::GpuL2Stream, "gpu-l2-stream", "a gpu-benches l2-stream output"},
        {TraceFormat::GpuRoofline, "gpu-roofline", "a gpu-benches roofline output"},
        {TraceFormat::GpuStrides, "gpu-strides", "a gpu-benches strides output"},
        {TraceFormat::NcuCsv, "ncu-csv", "an Nsight Compute CSV export"},
        {TraceFormat::PerfStat, "perf-stat", "perf stat output"},
        {TraceFormat::GenericTable, "table", "a table"},
}};

constexpr std::array kTraceKeys {"id",     "name", "source", "kind",  "visible",
                                 "origin", "x",    "y",      "extra", "labels"};
constexpr std::array kOriginKeys {"format", "index", "mapping"};
constexpr std::array kMappingKeys {"kind", "x", "y", "extra", "label", "filter_column", "filter_value"};

TraceKind readKind(const JsonReader &r, const json &obj)
{
    const std::string kind = r.string(obj, "kind", "kind", true);
    const auto k = traceKindFromName(kind);
    if (!k)
        r.fail("kind", "must be bandwidth-vs-warps, kernel-points, runtimes, bytes-per-interval, "
                       "latency-vs-footprint, bandwidth-vs-footprint, performance-vs-intensity or cycles-vs-stride "
                       "(got '" + kind + "')");
    return *k;
}

nlohmann::ordered_json originObject(const TraceOrigin &o)
{
    nlohmann::ordered_json j;
    j["format"] = std::string(traceFormatKey(o.format));
    j["index"] = o.index;
    if (o.format == TraceFormat::GenericTable) {
        const TraceMapping &m = o.mapping;
        j["mapping"] = {{"kind", std::string(traceKindName(m.kind))},
                        {"x", m.x},
                        {"y", m.y},
                        {"extra", m.extra},
                        {"label", m.label},
                        {"filter_column", m.filter_column},
                        {"filter_value", m.filter_value}};
    }
    return j;
}

TraceOrigin readOrigin(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", kOriginKeys, "an origin field");
    TraceOrigin o;
    const std::string format = r.string(obj, "format", "format", true);
    const auto f = traceFormatFromKey(format);
    if (!f)
        r.fail("format",
               "must be gpu-stream, gpu-stream-csv, ncu-csv, perf-stat or table (got '" + format + "')");
    o.format = *f;
    o.index = std::size_t(r.integer(obj, "index", "index", 0, 1000000, 0));
    const auto it = obj.find("mapping");
    if (o.format != TraceFormat::GenericTable) {
        if (it != obj.end())
            r.fail("mapping", "is only for format table");
        return o;
    }
    if (it == obj.end())
        r.fail("mapping", "is missing (a table needs its column mapping)");
    const JsonReader m = r.nested("mapping.");
    m.checkKeys(*it, "", kMappingKeys, "a mapping field");
    o.mapping.kind = readKind(m, *it);
    o.mapping.x = m.string(*it, "x", "x", false);
    o.mapping.y = m.string(*it, "y", "y", true);
    o.mapping.extra = m.string(*it, "extra", "extra", false);
    o.mapping.label = m.string(*it, "label", "label", false);
    o.mapping.filter_column = m.string(*it, "filter_column", "filter_column", false);
    o.mapping.filter_value = m.string(*it, "filter_value", "filter_value", false);
    return o;
}

std::string indexed(const char *field, std::size_t i)
{
    return std::string(field) + "[" + std::to_string(i) + "]";
}

/// Every value finite (NaN allowed where NAN_OK) and, where NONNEGATIVE, >= 0.
void checkValues(const JsonReader &r, const char *field, const std::vector<double> &v, bool nonNegative,
                 bool nanOk = false)
{
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (nanOk && std::isnan(v[i]))
            continue;
        if (!std::isfinite(v[i]))
            r.fail(indexed(field, i), "must be a finite number");
        if (nonNegative && v[i] < 0)
            r.fail(indexed(field, i), "must be >= 0 (got " + formatExact(v[i]) + ")");
    }
}

std::vector<double> readNumbers(const JsonReader &r, const json &obj, const char *key, bool required,
                                bool nullIsNan)
{
    const auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            r.fail(key, "is missing");
        return {};
    }
    if (!it->is_array())
        r.fail(key, std::string("must be an array of numbers (got ") + it->type_name() + ")");
    std::vector<double> out;
    out.reserve(it->size());
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json &v = (*it)[i];
        if (v.is_null() && nullIsNan)
            out.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (v.is_number())
            out.push_back(v.get<double>());
        else
            r.fail(indexed(key, i), std::string("must be a number (got ") + v.type_name() + ")");
    }
    return out;
}

} // namespace

std::string_view traceKindName(TraceKind kind)
{
    for (const auto &[k, name] : kKindNames) {
        if (k == kind)
            return name;
    }
    return {};
}

std::optional<TraceKind> traceKindFromName(std::string_view name)
{
    for (const auto &[k, n] : kKindNames) {
        if (n == name)
            return k;
    }
    return std::nullopt;
}

std::string_view traceFormatKey(TraceFormat format)
{
    for (const FormatNames &f : kFormatKeys) {
        if (f.format == format)
            return f.key;
    }
    return {};
}

std::string_view traceFormatTitle(TraceFormat format)
{
    for (const FormatNames &f : kFormatKeys) {
        if (f.format == format)
            return f.title;
    }
    return {};
}

std::optional<TraceFormat> traceFormatFromKey(std::string_view key)
{
    for (const FormatNames &f : kFormatKeys) {
        if (f.key == key)
            return f.format;
    }
    return std::nullopt;
}

std::shared_ptr<const MeasuredCurve> measuredCurveFromTrace(const MeasuredTrace &trace)
{
    const std::string what = "the trace " + trace.name + " (" + trace.id + ")";
    if (trace.kind != TraceKind::BandwidthVsWarps && trace.kind != TraceKind::KernelPoints)
        throw InputError(what + " holds no throughput against warps, so it cannot stand in for a curve");
    std::vector<CurvePoint> points;
    for (std::size_t i = 0; i < trace.x.size() && i < trace.y.size(); ++i)
        points.push_back({trace.x[i], trace.y[i], 0});
    std::stable_sort(points.begin(), points.end(), [](const CurvePoint &a, const CurvePoint &b) { return a.x < b.x; });
    return std::make_shared<const MeasuredCurve>(std::move(points), what);
}

std::size_t pointCount(const MeasuredTrace &trace)
{
    return trace.x.size();
}

std::size_t connectionCount(const MeasuredTrace &trace)
{
    return trace.kind == TraceKind::BytesPerInterval ? trace.labels.size() : 0;
}

std::span<const double> connectionBytes(const MeasuredTrace &trace, std::size_t connection)
{
    const std::size_t units = trace.x.size();
    if (trace.kind != TraceKind::BytesPerInterval || (connection + 1) * units > trace.y.size())
        return {};
    return std::span<const double>(trace.y).subspan(connection * units, units);
}

void validateTrace(const MeasuredTrace &t, const std::string &label, const std::string &prefix)
{
    const JsonReader r(label, prefix);
    if (t.name.empty())
        r.fail("name", "must not be empty");
    const std::size_t n = t.x.size();
    if (n == 0)
        r.fail("x", "must hold at least one value");
    checkValues(r, "x", t.x, true);
    switch (t.kind) {
    case TraceKind::LatencyVsFootprint:
    case TraceKind::BandwidthVsFootprint:
    case TraceKind::PerformanceVsIntensity:
    case TraceKind::CyclesVsStride:
    case TraceKind::BandwidthVsWarps:
    case TraceKind::KernelPoints:
        if (t.y.size() != n)
            r.fail("y", "must hold as many values as x (" + std::to_string(n) + "; got "
                                + std::to_string(t.y.size()) + ")");
        checkValues(r, "y", t.y, true);
        if (!t.extra.empty() && t.extra.size() != n)
            r.fail("extra", "must be empty or hold one Z per point (" + std::to_string(n) + "; got "
                                    + std::to_string(t.extra.size()) + ")");
        if (t.kind != TraceKind::KernelPoints && !t.extra.empty())
            r.fail("extra", "must be empty for a " + std::string(traceKindName(t.kind)) + " trace");
        checkValues(r, "extra", t.extra, true, true);
        for (std::size_t i = 0; i < t.extra.size(); ++i) {
            if (t.extra[i] == 0)
                r.fail(indexed("extra", i), "must be a Z > 0 or null (got 0)");
        }
        break;
    case TraceKind::Runtimes:
        if (t.y.size() != n)
            r.fail("y", "must hold as many values as x (" + std::to_string(n) + "; got "
                                + std::to_string(t.y.size()) + ")");
        checkValues(r, "y", t.y, true);
        if (!t.extra.empty() && t.extra.size() != n)
            r.fail("extra", "must be empty or hold one T per run (" + std::to_string(n) + "; got "
                                    + std::to_string(t.extra.size()) + ")");
        checkValues(r, "extra", t.extra, true);
        for (std::size_t i = 0; i < t.extra.size(); ++i) {
            if (t.extra[i] <= 0)
                r.fail(indexed("extra", i), "must be threads per core T > 0");
        }
        break;
    case TraceKind::BytesPerInterval:
        if (t.labels.empty())
            r.fail("labels", "must name at least one connection");
        if (t.y.size() != n * t.labels.size())
            r.fail("y", "must hold " + std::to_string(n) + " units for each of the "
                                + std::to_string(t.labels.size()) + " connections ("
                                + std::to_string(n * t.labels.size()) + " values; got "
                                + std::to_string(t.y.size()) + ")");
        checkValues(r, "y", t.y, true);
        if (t.extra.size() != n)
            r.fail("extra", "must hold the length in seconds of each of the " + std::to_string(n)
                                    + " units (got " + std::to_string(t.extra.size()) + ")");
        checkValues(r, "extra", t.extra, true);
        for (std::size_t i = 0; i < n; ++i) {
            if (t.extra[i] <= 0)
                r.fail(indexed("extra", i), "must be an interval length > 0 s");
        }
        return;
    }
    if (!t.labels.empty() && t.labels.size() != n)
        r.fail("labels", "must be empty or hold one label per point (" + std::to_string(n) + "; got "
                                 + std::to_string(t.labels.size()) + ")");
}

std::string traceToJson(const MeasuredTrace &t)
{
    nlohmann::ordered_json j;
    j["id"] = t.id;
    j["name"] = t.name;
    j["source"] = t.source;
    j["kind"] = std::string(traceKindName(t.kind));
    j["visible"] = t.visible;
    if (t.origin)
        j["origin"] = originObject(*t.origin);
    j["x"] = t.x;
    j["y"] = t.y;
    // NaN (a kernel whose Z was not measured) has no JSON form: null.
    nlohmann::ordered_json extra = nlohmann::ordered_json::array();
    for (double v : t.extra) {
        if (std::isnan(v))
            extra.push_back(nullptr);
        else
            extra.push_back(v);
    }
    j["extra"] = std::move(extra);
    j["labels"] = t.labels;
    escapeInvalidUtf8InJson(j); // a source path in Latin-1: "\xe9", not a failed save
    return j.dump();
}

MeasuredTrace traceFromJson(std::string_view text, const std::string &label, const std::string &prefix)
{
    return detail::traceFromJsonValue(detail::parseJsonText(text, label), label, prefix);
}

MeasuredTrace detail::traceFromJsonValue(const json &doc, const std::string &label, const std::string &prefix)
{
    const JsonReader r(label, prefix);
    if (!doc.is_object()) {
        if (prefix.empty())
            throw InputError(label + ": a trace must be a JSON object");
        JsonReader(label).fail(prefix.substr(0, prefix.size() - 1), "must be a JSON object (a trace)");
    }
    r.checkKeys(doc, "", kTraceKeys, "a trace field");
    MeasuredTrace t;
    t.id = r.string(doc, "id", "id", true);
    t.name = r.string(doc, "name", "name", true);
    t.source = r.string(doc, "source", "source", false);
    t.kind = readKind(r, doc);
    t.visible = r.boolean(doc, "visible", "visible", true);
    if (const auto it = doc.find("origin"); it != doc.end())
        t.origin = readOrigin(r.nested("origin."), *it);
    t.x = readNumbers(r, doc, "x", true, false);
    t.y = readNumbers(r, doc, "y", true, false);
    t.extra = readNumbers(r, doc, "extra", false, t.kind == TraceKind::KernelPoints);
    if (const auto it = doc.find("labels"); it != doc.end()) {
        if (!it->is_array())
            r.fail("labels", std::string("must be an array of strings (got ") + it->type_name() + ")");
        for (std::size_t i = 0; i < it->size(); ++i) {
            if (!(*it)[i].is_string())
                r.fail(indexed("labels", i),
                       std::string("must be a string (got ") + (*it)[i].type_name() + ")");
            t.labels.push_back((*it)[i].get<std::string>());
        }
    }
    validateTrace(t, label, prefix);
    return t;
}

std::string traceOriginToJson(const TraceOrigin &origin)
{
    return originObject(origin).dump();
}

TraceOrigin traceOriginFromJson(std::string_view text, const std::string &label, const std::string &prefix)
{
    return readOrigin(JsonReader(label, prefix), detail::parseJsonText(text, label));
}

} // namespace crossroof::core
