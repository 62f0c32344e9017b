// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Where the reads of a parallel-read row were served: a footprint far beyond the L2 (DRAM) or one the L2
/// holds.
enum class ReadLevel { Dram, L2 };
std::string_view readLevelName(ReadLevel level); ///< "dram", "l2"

/// One measured row of parallel reads (crossroof-probe's parallel.csv): the device's read throughput with
/// `warps` warps per SM, each keeping `loads_in_flight` requests of 32 x `bytes_per_thread` bytes in flight.
struct ParallelRow {
    ReadLevel level = ReadLevel::Dram;
    double bytes_per_thread = 4;
    double loads_in_flight = 1; ///< the X-model's m
    double warps = 1; ///< warps per SM, the X-model's n (all of them wait on memory: k = n)
    double footprint_bytes = 0;
    double gbs = 0; ///< device-wide, 10^9 B/s
    int line = 0;

    double requestBytes() const { return 32 * bytes_per_thread; } ///< the X-model's req_bytes
    std::string label() const; ///< "dram 16 B x 8, 32 warps"
};

/// A parallel-read file: columns level (dram or l2), bytes_per_thread, loads_in_flight, warps_per_sm,
/// footprint_bytes and read_gbs; other columns are ignored.
struct ParallelReads {
    std::string source;
    std::vector<ParallelRow> rows; ///< in file order
};

/// Reads a parallel-read file. Throws InputError naming the file, line and column of a missing column, a cell
/// that is not a finite number, a level other than dram or l2, bytes_per_thread not a whole number
/// in 1..2048, loads_in_flight not a whole number in 1..256, warps_per_sm not a whole number >= 1,
/// footprint_bytes or read_gbs <= 0, a row that repeats an earlier row's warps_per_sm or comes after a larger
/// one of the same series (level, bytes_per_thread, loads_in_flight: rows of a series go up in warps), and
/// the file when it has no dram row. With L2_BYTES (the device's L2), also an l2 row whose footprint is
/// larger than the L2 and a dram row whose footprint is less than 4 times the L2.
ParallelReads readParallelFile(const std::string &path, std::optional<double> l2Bytes = {});

/// Rows whose read_gbs is at most this share of their level's highest count as latency-bound: their
/// throughput is k x m x req_bytes / latency, with the latency close to the unloaded one.
inline constexpr double kLatencyBoundShare = 0.5;

/// The highest read_gbs of LEVEL's rows, 0 without any.
double levelPeakGbs(const ParallelReads &reads, ReadLevel level);

/// Whether ROW (of READS) is latency-bound: read_gbs at most kLatencyBoundShare of its level's highest.
bool isLatencyBound(const ParallelReads &reads, const ParallelRow &row);

/// The latency a row implies if its throughput is latency-bound: requests in flight on the device x bytes per
/// request x clock / throughput, in cycles.
double impliedLatency(const ParallelRow &row, double smCount, double clockGhz);

/// The latency-bound rows of one value of m.
struct InFlightLatency {
    double loads_in_flight = 1;
    double cycles = 0; ///< the median of the rows' implied latencies
    std::size_t rows = 0;
};

/// What one level's rows say.
struct ReadLevelSummary {
    ParallelRow peak; ///< the row with the highest read_gbs
    std::optional<double> latency; ///< median implied latency of the latency-bound rows, cycles
    std::size_t latency_rows = 0;
    std::vector<InFlightLatency> by_m; ///< ascending m, those with latency-bound rows
    double m_spread = 1; ///< highest / lowest cycles of by_m: 1 when every m gives the same latency
};

/// How far one load width gets in DRAM bandwidth, and with how many loads in flight.
struct WidthSaturation {
    double bytes_per_thread = 4;
    ParallelRow peak; ///< the width's row with the highest read_gbs
    ParallelRow saturating; ///< the first row (fewest loads in flight, then fewest warps) within 5 % of it
};

/// A parallel-read file analysed: the DRAM byte bandwidth, whether the loads in flight were honoured, where
/// each width saturates, and the L2 level.
struct ParallelAnalysis {
    std::string source;
    ReadLevelSummary dram;
    std::optional<ReadLevelSummary> l2;
    std::vector<WidthSaturation> widths; ///< DRAM rows, ascending bytes_per_thread
    bool m_honoured = true; ///< every level's m_spread at most kHonouredSpread
    std::vector<std::string> warnings;
};

/// The most the latency-bound rows' latencies may differ between values of m (highest / lowest) for the loads
/// to count as overlapping as measured: with m requests in flight where only one was, the spread is m.
inline constexpr double kHonouredSpread = 1.5;

/// Analyses READS of a device with SM_COUNT SMs at CLOCK_GHZ.
ParallelAnalysis analyseParallelReads(const ParallelReads &reads, double smCount, double clockGhz);

} // namespace crossroof::core
