// SPDX-License-Identifier: GPL-3.0-or-later
// perf stat's records as a trace reader: recognised by a header-less first record, read as one
// bytes-per-interval trace with the connections "reads" and "writes" (CAS counts x 64 B).
#include "core/traces/csv_table.h"
#include "core/traces/memory_demand.h"
#include "core/traces/perf_stat.h"
#include "core/traces/trace_reader.h"

namespace crossroof::core {

namespace {

/// Whether FIELDS read as an interval record of `perf stat -x` whatever its first field holds: an event name
/// among the first fields, followed by the counter's run time and the percentage of it measured (0 to 100).
/// A table's header has no numbers, and its rows rarely have six fields in this order.
bool looksLikePerfRecord(const std::vector<std::string> &fields)
{
    if (fields.size() < 6)
        return false;
    for (std::size_t i = 1; i <= 4 && i + 2 < fields.size(); ++i) {
        if (fields[i].empty() || parseTableNumber(fields[i], '.', false))
            continue;
        const auto runTime = parseTableNumber(fields[i + 1], '.', false);
        const auto percent = parseTableNumber(fields[i + 2], '.', false);
        if (runTime && percent && *percent >= 0 && *percent <= 100)
            return true;
    }
    return false;
}

bool recognizesPerfStat(const TraceFileHead &head)
{
    // perf stat writes no header: its first record starts with a number (the interval time or the value), or,
    // in a damaged interval record, at least has its event, run time and percentage, so that its reader says
    // what is wrong instead of the file passing for a table.
    const auto &fields = head.fields;
    if (fields.empty())
        return false;
    const bool numberFirst = parseTableNumber(fields.front(), '.', false).has_value();
    const bool perCpu = fields.size() >= 2 && fields[1].starts_with("CPU"); // perf stat -A
    return (numberFirst && (fields.size() >= 4 || perCpu)) || looksLikePerfRecord(fields);
}

TraceFile readPerf(const std::string &path, const std::string &)
{
    const MemoryDemand demand = memoryDemandFromPerfStat(readPerfStat(path));
    MeasuredTrace t;
    t.name = detail::traceFileStem(path) + " memory traffic";
    t.source = path;
    t.kind = TraceKind::BytesPerInterval;
    t.origin = TraceOrigin {TraceFormat::PerfStat, 0, {}};
    t.x = demand.times;
    t.extra = demand.seconds;
    if (demand.cpus.size() > 1) {
        // Per CPU (-A) on several sockets: each socket's memory controllers are a connection of their own,
        // named by the socket (in the order of the CPUs perf reports them on) and that CPU.
        for (std::size_t k = 0; k < demand.cpus.size(); ++k) {
            t.labels.push_back("socket " + std::to_string(k) + " (CPU" + std::to_string(demand.cpus[k]) + ")");
            t.y.insert(t.y.end(), demand.cpu_bytes[k].begin(), demand.cpu_bytes[k].end());
        }
    } else {
        t.labels = {"reads", "writes"};
        t.y = demand.read_bytes;
        t.y.insert(t.y.end(), demand.write_bytes.begin(), demand.write_bytes.end());
    }
    TraceFile out;
    out.format = TraceFormat::PerfStat;
    out.traces.push_back(std::move(t));
    return out;
}

} // namespace

namespace detail {

const TraceReader kPerfStatReader {TraceFormat::PerfStat, recognizesPerfStat, readPerf};

} // namespace detail

} // namespace crossroof::core
