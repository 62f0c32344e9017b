// SPDX-License-Identifier: GPL-3.0-or-later
// gpu-benches' stream results as trace readers: the text table (recognised by its "blockSize" header) and the
// tidy CSV (a "gpu" column and columns ending in "_GBs"), read as one bandwidth-vs-warps trace per GPU and
// kernel.
#include "core/traces/gpu_benches.h"
#include "core/traces/trace_reader.h"

#include <algorithm>
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
    return head.first_line.starts_with("blockSize"); // gpu-stream's header, its '|' columns damaged or not
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

} // namespace

namespace detail {

const TraceReader kGpuStreamReader {TraceFormat::GpuStream, recognizesStreamText, readStreamText};
const TraceReader kGpuStreamCsvReader {TraceFormat::GpuStreamCsv, recognizesStreamCsv, readStreamCsv};

} // namespace detail

} // namespace crossroof::core
