// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

class CsvTable;

/// A measured f(k)-style trace: device memory throughput of one kernel on one GPU against the warps resident
/// per SM (te42kyfo/gpu-benches, gpu-stream).
struct StreamTrace
{
    std::string gpu; ///< e.g. "v100" (the file name without .txt, or the tidy CSV's gpu column)
    std::string kernel; ///< e.g. "init", "read", "triad" (as the file names it)
    std::string source; ///< the file, for messages
    double sm_count = 0; ///< SMs of the GPU (threads / blockSize in gpu-stream; sm_count in the tidy CSV)
    std::vector<double> warps_per_sm; ///< ascending as in the file
    std::vector<double> gbs; ///< GB/s for the device, aligned with warps_per_sm
    std::vector<int> lines; ///< 1-based line of each point in the file
};

/// Largest gpu-stream file (either format) the readers accept; larger files are refused before reading.
inline constexpr std::uintmax_t kGpuBenchesMaxBytes = 16ull * 1024 * 1024;

/// Parses one gpu-stream output (stream/<gpu>.txt) of either generation. The older:
/// `blockSize threads %occ | init read scale triad 3pt 5pt` header, then rows
/// `32 2560 3 % | GB/s: 153 72 128 180 122 117`; two blocks are resident per SM (the benchmark's
/// shared-memory spoiler), so warps per SM = 2 * blockSize / 32. Today's: `block smBlocks threads occ% |
/// kernels` header, rows `64 15360 2 5.0% | GB/s: ...` (block size, threads, blocks per SM), so warps per SM
/// = block * smBlocks / 32 (in 32-thread warps, whatever the GPU's wavefront) and SMs = threads / (block *
/// smBlocks). Kernel names are taken from the header as
/// written (the a100_40 file says "1pt 3pt" where the others say "3pt 5pt"). Throws InputError
/// "SOURCE:LINE:COLUMN: problem" on anything else (binary data, a missing '|' or "GB/s:", a value that is
/// not a finite number >= 0, a row with a different number of kernels than the header, no rows).
std::vector<StreamTrace> parseGpuStream(std::string_view text, const std::string &gpu,
                                        const std::string &source = "<input>");
/// Reads stream/<gpu>.txt; the GPU is the file name without its extension.
std::vector<StreamTrace> readGpuStream(const std::string &path);

/// The tidy CSV (stream_vs_warps_per_sm.csv): columns gpu, warps_per_sm and one `<kernel>_GBs` column per
/// kernel (sm_count optional). One trace per gpu and kernel, in order of first appearance. Throws
/// InputError naming the file, line and column of a bad cell or the missing column.
std::vector<StreamTrace> streamTracesFromTable(const CsvTable &table);
std::vector<StreamTrace> parseGpuStreamCsv(std::string_view text, const std::string &source = "<input>");
std::vector<StreamTrace> readGpuStreamCsv(const std::string &path);

/// gpu-latency output (gpu-benches' pointer chase, latency/<gpu>.txt): one warp follows a chain of dependent
/// loads over growing memory; the cycles per load step up from L1 through L2 to DRAM. The file opens with
/// a `clock:` line (MHz of each SM), then rows of five numbers or more: chase steps, clock (MHz), footprint
/// (kB), total time (ms) and cycles per load (today's output adds percentiles after it, which are checked and
/// left).
struct GpuLatency
{
    std::string gpu;    ///< the file name without its extension (and without "latency_" in front)
    std::string source; ///< the file, for messages
    double clock_mhz = 0; ///< the clock column of the first row
    std::vector<double> chain_kb; ///< footprint of each row (kB)
    std::vector<double> cycles;   ///< cycles per dependent load, aligned with chain_kb
    std::vector<int> lines;       ///< 1-based line of each row
    /// Cycles at the smallest chain (it stays in L1: the X-model's shared-cache latency L_s).
    double smallestChainCycles() const;
    /// Cycles at the largest chain (DRAM: the X-model's memory latency L).
    double largestChainCycles() const;
};

/// One level of a latency curve: the median cycles of its rows.
struct LatencyPlateau
{
    double cycles = 0;
    double from_kb = 0, to_kb = 0; ///< footprints of its first and last row
    int line = 0;                  ///< its first row's line
    std::size_t rows = 0;
    /// The footprints the level holds: its rows and the run of rows on from them (L1 up, DRAM down) that stay
    /// within 5 % of its cycles, where the median's rows are only the first or last few.
    double level_from_kb = 0, level_to_kb = 0;
};

/// The levels of a gpu-latency curve, rows taken in order of footprint: L1 the median of the smallest
/// footprints' cycles and DRAM that of the largest (the first and last kPlateauRows rows, or a third of the
/// rows in a shorter file), L2 the median of the longest run of rows between them (above 1.5 x L1, below DRAM /
/// 1.3) that stay within 5 % of the run's first row; none where no such run of 3 rows or more exists (the L2
/// hides under L1 or DRAM). Throws InputError naming the file when it has fewer than 3 rows or its largest
/// footprints are no slower than 1.3 x its smallest (no DRAM reached).
struct LatencyPlateaus
{
    LatencyPlateau l1;
    std::optional<LatencyPlateau> l2;
    LatencyPlateau dram;
};
inline constexpr std::size_t kPlateauRows = 5;
LatencyPlateaus latencyPlateaus(const GpuLatency &latency);

/// Whether HEAD (the start of a file) is gpu-latency output: a `clock:` line and rows of numbers, or a first
/// line of five numbers.
bool looksLikeGpuLatency(std::string_view head);
/// Parses gpu-latency output. Throws InputError "SOURCE:LINE:COLUMN: problem" on a row of fewer than five
/// numbers, a clock or latency that is not positive, or "SOURCE: ..." when there are no rows.
GpuLatency parseGpuLatency(std::string_view text, const std::string &gpu,
                           const std::string &source = "<input>");
GpuLatency readGpuLatency(const std::string &path);

/// A gpu-benches checkout (or a copy of its data folder): every stream/*.txt (sorted by name) and the tidy
/// stream_vs_warps_per_sm.csv when present.
struct GpuBenchesSet
{
    std::vector<StreamTrace> stream; ///< from stream/*.txt
    std::vector<StreamTrace> tidy;   ///< from stream_vs_warps_per_sm.csv; empty when absent
};
/// Throws InputError when DIR has no stream/*.txt and no tidy CSV, or on the first bad file.
GpuBenchesSet readGpuBenches(const std::string &dir);

/// The trace of KERNEL on GPU, or nullptr.
const StreamTrace *findStreamTrace(const std::vector<StreamTrace> &traces, std::string_view gpu,
                                   std::string_view kernel);

} // namespace crossroof::core
