// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What Crossroof takes from one profiled kernel launch of Nsight Compute: the X-model's k (achieved warps
/// per SM), the MS throughput it reached (DRAM GB/s) and the counts that give Z.
///
/// Accepted metric names (raw names as `ncu --metrics` prints them, or the section display names):
/// - warps per SM: `sm__warps_active.avg.per_cycle_active`, "Achieved Active Warps Per SM"
///   (unit `warp`, or `warp/cycle`);
/// - DRAM throughput: `dram__bytes.sum.per_second`, else `dram__bytes_read.sum.per_second` +
///   `dram__bytes_write.sum.per_second`, else "DRAM Throughput" with a byte-rate unit (byte/second,
///   Kbyte/second, Mbyte/second, Gbyte/second, Tbyte/second, or .../s; ncu's prefixes are decimal, 10^3);
///   "DRAM Throughput" in %, `dram__throughput.avg.pct_of_peak_sustained_elapsed` and
///   `gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed` give dram_percent (of the device's peak,
///   which the file does not state, so no GB/s);
/// - instructions: `smsp__inst_executed.sum`, `sm__inst_executed.sum`, "Executed Instructions"
///   (warp-level instructions, unit `inst`);
/// - memory requests: `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum` and `..._op_st.sum` (summed);
/// - memory sectors: `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` and `..._op_st.sum` (summed).
/// Every other metric is ignored. Values "n/a" or empty count as not collected.
struct NcuKernel
{
    std::string id;         ///< the "ID" column (launch index), or the kernel name when the file has none
    std::string name;       ///< "Kernel Name"
    std::string block_size; ///< "Block Size", e.g. "(256, 1, 1)", when present
    std::string grid_size;  ///< "Grid Size", when present
    std::string device;     ///< "Device", when present
    int line = 0;           ///< 1-based line of the kernel's first row

    std::optional<double> warps_per_sm; ///< achieved active warps per SM
    std::optional<double> dram_gbs;     ///< DRAM throughput, GB/s (10^9 bytes per second)
    std::optional<double> dram_percent; ///< DRAM throughput, % of peak
    std::optional<double> instructions; ///< warp-level instructions executed
    std::optional<double> requests_ld;  ///< global load requests (l1tex)
    std::optional<double> requests_st;  ///< global store requests
    std::optional<double> sectors_ld;   ///< global load sectors (32 B)
    std::optional<double> sectors_st;   ///< global store sectors

    /// Loads plus stores, from whichever parts were collected; none if neither.
    std::optional<double> requests() const;
    std::optional<double> sectors() const;
    /// Z = instructions / requests (MODEL.md 1.2: warp-instructions per memory request); none when a count is
    /// missing or there are no requests.
    std::optional<double> intensity() const;
    /// Z with requests counted in bytes, instructions / (sectors * 32 / REQUESTBYTES): the X-model's request
    /// of REQUESTBYTES bytes rather than ncu's warp-level request (which moves 128 B only when coalesced).
    std::optional<double> intensityFromSectors(double requestBytes) const;
};

/// One `ncu --csv` file: kernels in the order of their first row.
struct NcuReport
{
    std::string source;
    bool long_form
            = true; ///< one row per metric ("Metric Name" column); false: `--page raw`, one row per kernel
    std::vector<NcuKernel> kernels;
};

/// Parses `ncu --csv` output: the long form of the details page
/// ("ID","Process ID",...,"Kernel Name",...,"Section Name","Metric Name","Metric Unit","Metric Value", with
/// or without the rule columns), the per-kernel summary ("Average" instead of "Metric Value"), or the raw
/// page (`--page raw`: one column per metric and a row of units under the header). Lines before the
/// header (`==PROF==` messages, the program's own output) and later `==...==` lines are skipped; the header
/// repeated further down (outputs of several runs put together) starts a new run of launch IDs. Quoted
/// numbers may have thousands separators ("1,234,567"); rows may end with empty fields.
/// Throws InputError "SOURCE:LINE:COLUMN: problem" on a bad value or unit of an accepted metric, and
/// "SOURCE: problem" for a missing column, no kernels, or anything CsvTable refuses.
NcuReport parseNcuCsv(std::string_view text, const std::string &source = "<input>");
/// Reads and parses a file; refuses files over kCsvMaxBytes before reading them.
NcuReport readNcuCsv(const std::string &path);

/// Converts a byte-rate unit as ncu prints it ("Gbyte/second", "Tbyte/s", "byte/second", "Kibyte/second") to
/// the factor that gives GB/s; none if UNIT is not a byte rate.
std::optional<double> ncuRateToGbs(std::string_view unit);

/// (achieved warps per SM, DRAM GB/s) of every kernel that has both: an f(k) trace for fitRoofline().
void ncuOccupancyTrace(const NcuReport &report, std::vector<double> &warpsPerSm, std::vector<double> &gbs);

} // namespace crossroof::core
