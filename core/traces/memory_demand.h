// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Memory-bandwidth demand from `perf stat -I` memory-controller counts: the input of a bandwidth curve.

#include <string>
#include <vector>

namespace crossroof::core {

struct PerfStat;

/// A memory-bandwidth demand trace from `perf stat -I` output: memory-controller CAS counts per interval,
/// summed over every CPU (socket) and every imc PMU, times 64 bytes; with -A also per CPU (socket).
struct MemoryDemand
{
    std::vector<double> times;             ///< end of each interval, s (PerfStat::times)
    std::vector<double> seconds;           ///< length of each interval, s
    std::vector<double> read_bytes;        ///< per interval
    std::vector<double> write_bytes;       ///< per interval
    std::vector<double> bytes;             ///< read + write per interval
    std::vector<std::string> read_events;  ///< the events summed for reads
    std::vector<std::string> write_events; ///< and for writes
    /// With perf stat -A: the CPUs that reported CAS counts, ascending. perf reports an uncore PMU on the first
    /// CPU of its socket, so with more than one these are the sockets' memory controllers, in socket order.
    std::vector<int> cpus;
    /// Per CPU of `cpus`: read + write bytes per interval (the socket's share of `bytes`).
    std::vector<std::vector<double>> cpu_bytes;

    std::vector<double> gbs() const; ///< bytes / seconds / 1e9 per interval
};

/// Bytes per CAS command: one 64-byte cache line.
inline constexpr double kCasBytes = 64;

/// Reads events are the imc events with event=0x04 and umask=0x0f (Ice Lake server CAS_COUNT.RD), umask=0x03
/// (Skylake/Cascade Lake), or named cas_count_read / cas_count.rd; writes umask=0x30, umask=0x0c,
/// cas_count_write / cas_count.wr. Needs interval mode (-I). Throws InputError naming the file and listing
/// the events when no read or no write event is found, and "FILE:LINE: field 'value': ..." when an
/// interval's bytes (counts x bytesPerCas, summed over the events) are more than a double holds.
MemoryDemand memoryDemandFromPerfStat(const PerfStat &stat, double bytesPerCas = kCasBytes);

} // namespace crossroof::core
