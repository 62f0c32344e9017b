// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The metrics Crossroof reads from an Nsight Compute export, by every name its generations give them
// (docs/NCU.md), and how a kernel's values follow from the parts they came in: rates from bytes and
// cycles where ncu was asked for no rate, each derived value noted.

#include "core/traces/ncu_csv.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core::detail::ncu {

enum class Metric {
    Warps,
    TheoreticalWarps,
    DramRate, ///< total bytes per second
    DramReadRate,
    DramWriteRate,
    DramThroughput,   ///< the display name: a byte rate or a percentage, by its unit
    MemoryThroughput, ///< a byte rate in Memory Workload Analysis; in % (Speed Of Light) not DRAM
    DramPercent,
    Duration,
    SmFrequency,
    DramFrequency,
    Registers,
    SharedTotal,
    SharedDriver,
    SharedDynamic,
    SharedStatic,
    Instructions,
    RequestsLd,
    RequestsSt,
    SectorsLd,
    SectorsSt,
    L1HitRate,
    L2HitRate,
    SmCount,
    MaxWarps,
    ClockKhz,
    MemoryClockKhz,
    BusWidth,
    L2Bytes,
    CcMajor,
    CcMinor,
    DisplayName,
    DramBytes, ///< bytes moved (dram__bytes.sum): a rate with the duration
    DramReadBytes,
    DramWriteBytes,
    SmCycles, ///< cycles elapsed on the SMs (sm__cycles_elapsed.avg, "Elapsed Cycles"): a duration with the clock
    L2Traffic, ///< bytes through the L2 (lts__t_bytes.sum)
    L2Sectors, ///< 32-byte sectors through the L2 (lts__t_sectors.sum), where the bytes are not given
    TensorCycles, ///< cycles the tensor pipe was busy (warpgroup or warp-level MMA)
    FmaInstructions, ///< warp-instructions the FMA pipe executed (sm__inst_executed_pipe_fma.sum)
};

/// The metric NAME (raw or display name) is, if Crossroof reads it.
std::optional<Metric> metricOf(std::string_view name);

/// Values of metrics that several names or parts give, until every row of a kernel is read.
struct Parts
{
    std::optional<double> dram_total;
    std::optional<double> dram_read;
    std::optional<double> dram_write;
    std::optional<double> dram_display;
    std::optional<double> dram_memory;
    std::optional<double> dram_bytes; ///< bytes (dram__bytes.sum)
    std::optional<double> dram_read_bytes;
    std::optional<double> dram_write_bytes;
    std::optional<double> sm_cycles;
    std::optional<double> shared_total;
    std::optional<double> shared_driver;
    std::optional<double> shared_dynamic;
    std::optional<double> shared_static;
    std::optional<double> cc_major;
    std::optional<double> cc_minor;
    std::optional<double> l2_bytes;
    std::optional<double> l2_sectors;
    std::optional<double> gmma_cycles;
    std::optional<double> hmma_cycles;
    std::optional<double> hit_rate_over; ///< the largest hit rate above 100 % that was taken as 100 %
    std::string hit_rate_dropped;        ///< "WHERE: a hit rate of 130 % is over 100 %; left out", the first
};

/// How many kernels of a file had a value derived or clamped, for the report's warnings.
struct NcuDerived
{
    std::size_t dram_from_bytes = 0;
    std::size_t dram_read_only = 0; ///< the read rate alone, without a write rate: writes not counted
    std::size_t duration_from_cycles = 0;
    std::size_t clamped = 0;
    double most_over = 0; ///< the largest clamped hit rate, %
    std::string dropped;  ///< the first hit rate far over 100 %, left out
    /// One warning per kind of derived or clamped value, appended to WARNINGS.
    void addWarnings(std::vector<std::string> &warnings) const;
};

/// A kernel's values from the PARTS its metrics came in: the DRAM rate (a rate given, else the read and write
/// rates, the display names', else bytes over the duration, else the read rate alone), the duration (given, else SM cycles over the SM
/// clock), the shared memory per block and the compute capability. Notes in K.derived what was derived.
void finishKernel(NcuKernel &k, const Parts &parts, NcuDerived &derived);

/// A hit rate above 100 % by at most this much is ncu's rounding (100.2-100.7 % seen): taken as 100 %.
inline constexpr double kHitRateSlack = 1.0;

std::string ccText(double major, double minor);

} // namespace crossroof::core::detail::ncu
