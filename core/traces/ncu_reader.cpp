// SPDX-License-Identifier: GPL-3.0-or-later
// Nsight Compute's CSV as a trace reader: recognised by ncu's messages, its "Kernel Name" header or its
// metric names; read as one kernel-points trace.
#include "core/support/error.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/nvprof_csv.h"
#include "core/traces/trace_reader.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace crossroof::core {

namespace {

bool recognizesNcu(const TraceFileHead &head)
{
    if (detail::looksLikeNvprof(head.text)) // nvprof, read as an ncu export is
        return true;
    // ncu's own messages before its table, or instead of it when nothing was profiled.
    for (const char *ncuMessage : {"==PROF==", "==ERROR==", "==WARNING=="}) {
        if (head.text.find(ncuMessage) != std::string_view::npos)
            return true;
    }
    std::string_view rest = head.text;
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const auto has = [&line](std::string_view text) { return line.find(text) != std::string_view::npos; };
        if (has("Kernel Name") && (has("Metric Name") || has("ID")))
            return true;
    }
    // Nsight Compute's metric names ("dram__bytes.sum", "sm__warps_active..."), whatever became of the
    // "Kernel Name" column.
    return std::any_of(head.fields.begin(), head.fields.end(), [](const std::string &f) {
        for (std::string_view unit : {"dram__", "sm__", "smsp__", "lts__", "l1tex__", "gpu__", "launch__"}) {
            if (f.starts_with(unit))
                return true;
        }
        return false;
    });
}

TraceFile readNcu(const std::string &path, const std::string &)
{
    auto report = std::make_shared<const NcuReport>(readNcuCsv(path));
    TraceFile out;
    out.format = TraceFormat::NcuCsv;
    out.traces.push_back(kernelPointsTrace(*report, path));
    out.device = report->device;
    out.kernels = std::move(report);
    return out;
}

} // namespace

MeasuredTrace kernelPointsTrace(const NcuReport &report, const std::string &path)
{
    MeasuredTrace t;
    t.name = detail::traceFileStem(path) + " kernels"; // two ncu files are told apart by name
    t.source = path;
    t.kind = TraceKind::KernelPoints;
    t.origin = TraceOrigin {TraceFormat::NcuCsv, 0, {}};
    bool anyZ = false;
    for (const auto &k : report.kernels) {
        if (!k.warps_per_sm || !k.dram_gbs)
            continue;
        t.x.push_back(*k.warps_per_sm);
        t.y.push_back(*k.dram_gbs);
        const auto z = k.intensity();
        anyZ = anyZ || (z && *z > 0);
        t.extra.push_back(z && *z > 0 ? *z : std::numeric_limits<double>::quiet_NaN());
        t.labels.push_back(k.id == k.name ? k.short_name : k.short_name + " [" + k.id + "]");
    }
    if (t.x.empty()) {
        throw InputError(
                path
                + ": no kernel has both the achieved warps per SM and the DRAM throughput in bytes/s "
                  "(profile with ncu --csv --metrics "
                  "sm__warps_active.avg.per_cycle_active,dram__bytes.sum.per_second)");
    }
    if (!anyZ)
        t.extra.clear();
    return t;
}

namespace detail {

const TraceReader kNcuCsvReader {TraceFormat::NcuCsv, recognizesNcu, readNcu};

} // namespace detail

} // namespace crossroof::core
