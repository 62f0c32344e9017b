// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/ncu_metrics.h"

#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <utility>

namespace crossroof::core::detail::ncu {

namespace {

constexpr std::array<std::pair<std::string_view, Metric>, 63> kMetrics {{
        {"sm__warps_active.avg.per_cycle_active", Metric::Warps},
        {"Achieved Active Warps Per SM", Metric::Warps},
        {"sm__maximum_warps_avg_per_active_cycle", Metric::TheoreticalWarps},
        {"Theoretical Active Warps per SM", Metric::TheoreticalWarps},
        {"dram__bytes.sum.per_second", Metric::DramRate},
        {"dram__bytes_read.sum.per_second", Metric::DramReadRate},
        {"dram__bytes_write.sum.per_second", Metric::DramWriteRate},
        {"DRAM Throughput", Metric::DramThroughput},
        {"Memory Throughput", Metric::MemoryThroughput},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", Metric::DramPercent},
        {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", Metric::DramPercent},
        {"gpu__time_duration.sum", Metric::Duration},
        {"Duration", Metric::Duration},
        {"sm__cycles_elapsed.avg.per_second", Metric::SmFrequency},
        {"SM Frequency", Metric::SmFrequency},
        {"dram__cycles_elapsed.avg.per_second", Metric::DramFrequency},
        {"DRAM Frequency", Metric::DramFrequency},
        {"launch__registers_per_thread", Metric::Registers},
        {"Registers Per Thread", Metric::Registers},
        {"launch__shared_mem_per_block", Metric::SharedTotal},
        {"Driver Shared Memory Per Block", Metric::SharedDriver},
        {"Dynamic Shared Memory Per Block", Metric::SharedDynamic},
        {"Static Shared Memory Per Block", Metric::SharedStatic},
        {"smsp__inst_executed.sum", Metric::Instructions},
        {"sm__inst_executed.sum", Metric::Instructions},
        {"Executed Instructions", Metric::Instructions},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Metric::RequestsLd},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Metric::RequestsSt},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Metric::SectorsLd},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Metric::SectorsSt},
        {"L1/TEX Hit Rate", Metric::L1HitRate},
        {"l1tex__t_sector_hit_rate.pct", Metric::L1HitRate},
        {"L2 Hit Rate", Metric::L2HitRate},
        {"lts__t_sector_hit_rate.pct", Metric::L2HitRate},
        {"# SMs", Metric::SmCount},
        {"launch__sm_count", Metric::SmCount},
        {"device__attribute_multiprocessor_count", Metric::SmCount},
        {"device__attribute_max_warps_per_multiprocessor", Metric::MaxWarps},
        {"device__attribute_clock_rate", Metric::ClockKhz},
        {"device__attribute_memory_clock_rate", Metric::MemoryClockKhz},
        {"device__attribute_global_memory_bus_width", Metric::BusWidth},
        {"device__attribute_l2_cache_size", Metric::L2Bytes},
        {"device__attribute_compute_capability_major", Metric::CcMajor},
        {"device__attribute_compute_capability_minor", Metric::CcMinor},
        {"device__attribute_display_name", Metric::DisplayName},
        {"Device Name", Metric::DisplayName},
        {"SM Count", Metric::SmCount},
        {"Max Warps Per SM", Metric::MaxWarps},
        // Bytes and cycles where no rate was asked for (ncu --metrics dram__bytes.sum,sm__cycles_elapsed.avg)
        {"dram__bytes.sum", Metric::DramBytes},
        {"dram__bytes_read.sum", Metric::DramReadBytes},
        {"dram__bytes_write.sum", Metric::DramWriteBytes},
        {"sm__cycles_elapsed.avg", Metric::SmCycles},
        {"Elapsed Cycles", Metric::SmCycles},
        // The SM clock as ncu shows it ("SM Frequency" is gpc__cycles_elapsed.avg.per_second)
        {"gpc__cycles_elapsed.avg.per_second", Metric::SmFrequency},
        // Nsight Compute 2019-2020 (nv-nsight-cu-cli): the Speed Of Light section's DRAM share
        {"SOL FB", Metric::DramPercent},
        {"dram__throughput.avg.pct_of_peak_sustained_active", Metric::DramPercent},
        // The L2's traffic and the tensor pipe's work, for kernels that move data without LSU requests (TMA)
        {"lts__t_bytes.sum", Metric::L2Traffic},
        {"lts__t_sectors.sum", Metric::L2Sectors},
        {"sm__pipe_tensor_op_gmma_cycles_active.sum", Metric::TensorCycles},
        {"sm__pipe_tensor_op_hmma_cycles_active.sum", Metric::TensorCycles},
        // The FMA pipe's share of the instructions: its ceiling on the issue rate (MODEL.md 1.7)
        {"sm__inst_executed_pipe_fma.sum", Metric::FmaInstructions},
        {"smsp__inst_executed_pipe_fma.sum", Metric::FmaInstructions},
}};

} // namespace

std::optional<Metric> metricOf(std::string_view name)
{
    for (const auto &[n, m] : kMetrics) {
        if (n == name)
            return m;
    }
    return std::nullopt;
}

std::string ccText(double major, double minor)
{
    return formatNumber(major) + "." + formatNumber(minor);
}

void finishKernel(NcuKernel &k, const Parts &d, NcuDerived &derived)
{
    if (!k.duration_ns && d.sm_cycles && k.sm_frequency_hz && *k.sm_frequency_hz > 0) {
        k.duration_ns = *d.sm_cycles / *k.sm_frequency_hz * 1e9;
        k.derived.push_back("duration = sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second");
        ++derived.duration_from_cycles;
    }
    if (d.dram_total)
        k.dram_gbs = d.dram_total;
    else if (d.dram_read && d.dram_write)
        k.dram_gbs = *d.dram_read + *d.dram_write;
    else if (d.dram_display)
        k.dram_gbs = d.dram_display;
    else if (d.dram_memory)
        k.dram_gbs = d.dram_memory;
    else if (k.duration_ns && *k.duration_ns > 0 && (d.dram_bytes || (d.dram_read_bytes && d.dram_write_bytes))) {
        const double bytes = d.dram_bytes ? *d.dram_bytes : *d.dram_read_bytes + *d.dram_write_bytes;
        k.dram_gbs = bytes / *k.duration_ns; // bytes per ns = GB/s
        k.derived.push_back(std::string("DRAM GB/s = ")
                            + (d.dram_bytes ? "dram__bytes.sum" : "dram__bytes_read.sum + dram__bytes_write.sum")
                            + " / duration");
        ++derived.dram_from_bytes;
    } else if (d.dram_read) {
        // The read rate alone (an export made with dram__bytes_read only): the writes are not counted.
        k.dram_gbs = d.dram_read;
        k.derived.push_back("DRAM GB/s = dram__bytes_read.sum.per_second alone: writes not counted");
        ++derived.dram_read_only;
    }
    if (d.shared_total)
        k.shared_memory_bytes = d.shared_total;
    else if (d.shared_driver || d.shared_dynamic || d.shared_static)
        k.shared_memory_bytes = d.shared_driver.value_or(0) + d.shared_dynamic.value_or(0)
                                + d.shared_static.value_or(0);
    if (k.gpu.cc.empty() && d.cc_major && d.cc_minor)
        k.gpu.cc = ccText(*d.cc_major, *d.cc_minor);
    if (d.l2_bytes || d.l2_sectors)
        k.l2_bytes = d.l2_bytes ? *d.l2_bytes : *d.l2_sectors * 32;
    // The warpgroup (Hopper) and warp-level MMA paths of the tensor pipe: the busier is its work.
    if (d.gmma_cycles || d.hmma_cycles)
        k.tensor_cycles = std::max(d.gmma_cycles.value_or(0), d.hmma_cycles.value_or(0));
    if (d.hit_rate_over) {
        k.derived.push_back("a hit rate of " + formatNumber(*d.hit_rate_over) + " % taken as 100 %");
        ++derived.clamped;
        derived.most_over = std::max(derived.most_over, *d.hit_rate_over);
    }
    if (!d.hit_rate_dropped.empty()) {
        k.derived.push_back(d.hit_rate_dropped);
        if (derived.dropped.empty())
            derived.dropped = d.hit_rate_dropped;
    }
}

void NcuDerived::addWarnings(std::vector<std::string> &warnings) const
{
    if (dram_from_bytes > 0) {
        warnings.push_back("DRAM GB/s of " + std::to_string(dram_from_bytes)
                           + " kernel(s) derived from dram__bytes and the duration (the export has no DRAM rate)");
    }
    if (dram_read_only > 0) {
        warnings.push_back("DRAM GB/s of " + std::to_string(dram_read_only)
                           + " kernel(s) is the read rate alone (dram__bytes_read.sum.per_second; the export has no "
                             "write rate): their writes are not counted; profile again adding ncu --metrics "
                             "dram__bytes.sum.per_second");
    }
    if (duration_from_cycles > 0) {
        warnings.push_back("duration of " + std::to_string(duration_from_cycles)
                           + " kernel(s) derived from sm__cycles_elapsed.avg and the SM clock (the export has no "
                             "gpu__time_duration)");
    }
    if (clamped > 0) {
        warnings.push_back(std::to_string(clamped) + " kernel(s) with a hit rate above 100 % (up to "
                           + formatNumber(most_over) + " %, as ncu rounds it): taken as 100 %");
    }
    if (!dropped.empty())
        warnings.push_back(dropped + " (the first; the kernels are kept without it)");
}

} // namespace crossroof::core::detail::ncu
