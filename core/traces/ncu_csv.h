// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What an ncu export says about the GPU a kernel ran on (the "CC" column, "# SMs" and the
/// `device__attribute_*` columns of the raw page). Every field is optional: the details page carries only
/// the compute capability and the SM count.
struct NcuDevice
{
    std::string name;                       ///< `device__attribute_display_name`, e.g. "NVIDIA H100 80GB HBM3"
    std::string cc;                         ///< compute capability "9.0" ("CC" column or the attributes)
    std::optional<double> sm_count;         ///< "# SMs", `launch__sm_count`, `..._multiprocessor_count`
    std::optional<double> max_warps_per_sm; ///< `device__attribute_max_warps_per_multiprocessor`
    std::optional<double> clock_khz;        ///< `device__attribute_clock_rate` (the boost clock)
    std::optional<double> memory_clock_khz; ///< `device__attribute_memory_clock_rate`
    std::optional<double> bus_width_bits;   ///< `device__attribute_global_memory_bus_width`
    std::optional<double> l2_bytes;         ///< `device__attribute_l2_cache_size`

    /// Peak DRAM bandwidth in GB/s, 2 transfers per memory clock over the bus (DDR/HBM), when both are known.
    std::optional<double> peakDramGbs() const;
    /// "NAME, 132 SMs, CC 9.0" with the parts the file has ("unknown device" when none).
    std::string describe() const;
};

/// What Crossroof takes from one profiled kernel launch of Nsight Compute: the X-model's k (achieved warps
/// per SM), the MS throughput it reached (DRAM GB/s), the counts that give Z, the launch and the device.
///
/// Accepted metric names (raw names as `ncu --metrics` prints them, or the details page's display names):
/// - warps per SM: `sm__warps_active.avg.per_cycle_active`, "Achieved Active Warps Per SM" (warp);
///   theoretical: `sm__maximum_warps_avg_per_active_cycle`, "Theoretical Active Warps per SM";
/// - DRAM throughput, first found: `dram__bytes.sum.per_second`, `dram__bytes_read.sum.per_second` +
///   `dram__bytes_write.sum.per_second`, "DRAM Throughput" with a byte-rate unit, "Memory Throughput" with a
///   byte-rate unit (the Memory Workload Analysis section's DRAM bytes per second; in % it is the busiest
///   memory unit and not used). Units byte/s, Kbyte/s ... Pbyte/s (decimal prefixes), Kibyte/s ... , also
///   spelled .../second. "DRAM Throughput" in %, `dram__throughput.avg.pct_of_peak_sustained_elapsed` and
///   `gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed` give dram_percent;
/// - duration: `gpu__time_duration.sum`, "Duration" (ns, us, ms, s, or nsecond ... second);
/// - clocks: `sm__cycles_elapsed.avg.per_second`, "SM Frequency", `dram__cycles_elapsed.avg.per_second`,
///   "DRAM Frequency" (hz, Khz, Mhz, Ghz, or cycle/second, cycle/usecond, cycle/nsecond);
/// - launch: `launch__registers_per_thread`, "Registers Per Thread"; `launch__shared_mem_per_block`, else
///   the sum of "Driver/Dynamic/Static Shared Memory Per Block" (byte/block, Kbyte/block ...);
/// - instructions: `smsp__inst_executed.sum`, `sm__inst_executed.sum`, "Executed Instructions" (inst);
/// - memory requests and sectors: `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum` and `..._op_st.sum`,
///   `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum` and `..._op_st.sum` (summed);
/// - hit rates (%): "L1/TEX Hit Rate", `l1tex__t_sector_hit_rate.pct`, "L2 Hit Rate",
///   `lts__t_sector_hit_rate.pct`;
/// - L2 traffic: `lts__t_bytes.sum`, else `lts__t_sectors.sum` x 32; the tensor pipe's work:
///   `sm__pipe_tensor_op_gmma_cycles_active.sum`, `sm__pipe_tensor_op_hmma_cycles_active.sum` (the larger);
/// - the FMA pipe's instructions: `sm__inst_executed_pipe_fma.sum`, `smsp__inst_executed_pipe_fma.sum`;
/// - the device: "# SMs", `launch__sm_count` and the `device__attribute_*` fields of NcuDevice.
/// Every other metric is ignored. Values "n/a", "no data" or empty count as not collected.
struct NcuKernel
{
    std::string id;         ///< the "ID" column (launch index), or the kernel name when the file has none
    std::string name;       ///< "Kernel Name", demangled as in the file
    std::string short_name; ///< the name without return type and parameter list, e.g. "xkernel<8, 1>"
    std::string block_size; ///< "Block Size", e.g. "(256, 1, 1)", when present
    std::string grid_size;  ///< "Grid Size", when present
    std::string device;     ///< "Device" (the device index), when present
    int line = 0;           ///< 1-based line of the kernel's first row
    NcuDevice gpu;          ///< what the file says about the device that ran it

    std::optional<double> warps_per_sm;             ///< achieved active warps per SM
    std::optional<double> theoretical_warps_per_sm; ///< the occupancy limit of the launch
    std::optional<double> dram_gbs;                 ///< DRAM throughput, GB/s (10^9 bytes per second)
    std::optional<double> dram_percent;             ///< DRAM throughput, % of the device's peak
    std::optional<double> duration_ns;
    std::optional<double> sm_frequency_hz;
    std::optional<double> dram_frequency_hz;
    std::optional<double> registers_per_thread;
    std::optional<double> shared_memory_bytes; ///< per block, driver-reserved part included
    std::optional<double> instructions;        ///< warp-level instructions executed
    std::optional<double> requests_ld;         ///< global load requests (l1tex)
    std::optional<double> requests_st;         ///< global store requests
    std::optional<double> sectors_ld;          ///< global load sectors (32 B)
    std::optional<double> sectors_st;          ///< global store sectors
    std::optional<double> l1_hit_rate;         ///< L1/TEX sector hit rate, 0..1 ("L1/TEX Hit Rate")
    std::optional<double> l2_hit_rate;         ///< L2 sector hit rate, 0..1 ("L2 Hit Rate")
    std::optional<double> l2_bytes;            ///< bytes through the L2, every client (TMA included)
    std::optional<double> tensor_cycles;       ///< tensor-pipe busy cycles summed over the SMs
    std::optional<double> fma_instructions;    ///< warp-instructions of the FMA pipe (FP32, IMAD)

    /// What was derived rather than read ("DRAM GB/s = dram__bytes.sum / duration") or clamped, one note each.
    std::vector<std::string> derived;

    /// The first bad value or unit among this kernel's rows, "SOURCE:LINE:COLUMN: problem"; that metric is
    /// left unset and the rest of the kernel is kept.
    std::string problem;

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

/// Which page of `ncu --csv` a file holds (of its first table, when several runs are put together).
enum class NcuForm {
    Details, ///< one row per metric, "Metric Value" (the default page)
    Summary, ///< one row per metric and kernel name, "Average" (`--print-summary per-kernel`)
    Raw,     ///< one column per metric, a row of units under the header (`--page raw`)
    NvprofMetrics, ///< nvprof --csv --metrics (with or without its GPU trace after it)
    NvprofTrace,   ///< nvprof --csv --print-gpu-trace alone
};
std::string_view ncuFormName(NcuForm form); ///< "ncu-details", "ncu-summary", "ncu-raw", "nvprof-metrics", "nvprof-trace"

/// One `ncu --csv` file: kernels in the order of their first row.
struct NcuReport
{
    std::string source;
    NcuForm form = NcuForm::Details;
    bool long_form = true; ///< one row per metric (Details, Summary); false: the raw page
    std::vector<NcuKernel> kernels;
    NcuDevice device; ///< the first kernel's device, completed by the attributes of later kernels
    /// What was read around: a truncated last line, kernels from more than one device, kernels with a problem.
    std::vector<std::string> warnings;
};

/// Parses `ncu --csv` output: the long form of the details page
/// ("ID","Process ID",...,"Kernel Name",...,"Section Name","Metric Name","Metric Unit","Metric Value", with
/// or without the rule columns, any set of sections), the per-kernel summary ("Average" instead of "Metric
/// Value"), or the raw page (one column per metric and a row of units under the header). Lines before the
/// first header, `==...==` lines and, since ncu quotes every field, unquoted lines (the program's own
/// output) are skipped; every header line (outputs of several runs put together, with the same or other
/// columns) starts a new run of launch IDs. Quoted numbers may have thousands separators ("1,234,567");
/// rows may end with empty fields; a last line cut inside a quoted field (a truncated export) is dropped
/// with a warning.
/// A bad value or unit of an accepted metric is the kernel's problem (NcuKernel::problem); throws
/// InputError "SOURCE:LINE:COLUMN: problem" when every kernel has one, and "SOURCE: problem" for a missing
/// column, no kernels, or anything CsvTable refuses.
NcuReport parseNcuCsv(std::string_view text, const std::string &source = "<input>");
/// Reads and parses a file; refuses files over kCsvMaxBytes before reading them.
NcuReport readNcuCsv(const std::string &path);

/// What to tell a user who opened PATH, an Nsight Compute report (.ncu-rep), which only NVIDIA's libraries
/// read: the ncu command that exports it as the CSV Crossroof reads (docs/NCU.md).
std::string ncuReportMessage(const std::string &path);

/// Converts a byte-rate unit as ncu prints it ("Gbyte/second", "Tbyte/s", "byte/second", "Kibyte/second") to
/// the factor that gives GB/s; none if UNIT is not a byte rate.
std::optional<double> ncuRateToGbs(std::string_view unit);

/// "xkernel<8, 1>" from "void xkernel<8, 1>(const float *, int)": the demangled name without its return
/// type, parameter list and qualifiers; the name itself when it is not a demangled signature.
std::string shortKernelName(std::string_view name);

/// "vectorized_elementwise_kernel" from "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)":
/// the kernel's own name as a table shows it, without return type, namespaces, template arguments, parameter
/// list and qualifiers (shortKernelName() keeps the scopes and template arguments); the short name when
/// nothing is left.
std::string baseKernelName(std::string_view name);

/// (achieved warps per SM, DRAM GB/s) of every kernel that has both: an f(k) trace for fitRoofline().
void ncuOccupancyTrace(const NcuReport &report, std::vector<double> &warpsPerSm, std::vector<double> &gbs);

} // namespace crossroof::core
