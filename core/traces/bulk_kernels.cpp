// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/bulk_kernels.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crossroof::core {

bool isBulkKernel(const NcuKernel &k)
{
    return k.requests_ld && *k.requests_ld == 0 && k.requests_st.value_or(0) == 0;
}

std::optional<BulkPrediction> predictBulkKernel(const NcuKernel &k, const XModelParams &machine,
                                                std::vector<std::string> &missing)
{
    const auto need = [&](const std::optional<double> &value, const char *metric) {
        if (!value)
            missing.emplace_back(metric);
    };
    need(k.dram_gbs, "dram__bytes.sum.per_second");
    need(k.duration_ns, "gpu__time_duration.sum");
    need(k.instructions, "smsp__inst_executed.sum");
    need(k.l2_bytes, "lts__t_bytes.sum");
    need(k.tensor_cycles, "sm__pipe_tensor_op_gmma_cycles_active.sum");
    if (!missing.empty())
        return std::nullopt;
    const double clock = k.sm_frequency_hz && *k.sm_frequency_hz > 0 ? *k.sm_frequency_hz * 1e-9 : machine.clock_ghz;
    const double sms = machine.sm_count;
    const double dram = *k.dram_gbs * *k.duration_ns; // bytes: GB/s x ns
    const double peak = machine.R_dram > 0 ? machine.R_dram : machine.R;
    // Each level and pipe: the nanoseconds its work takes at its ceiling (GB/s = bytes per ns, GHz = cycles
    // per ns); a level without a ceiling takes none.
    std::vector<std::pair<double, KernelLimit>> times {
            {dram / peak, KernelLimit::DRAM},
            {*k.instructions / (machine.M * clock * sms), KernelLimit::Issue},
            {*k.tensor_cycles / (sms * clock), KernelLimit::Tensor},
    };
    if (machine.R_l2 > 0)
        times.emplace_back(*k.l2_bytes / (machine.R_l2 * clock / machine.clock_ghz), KernelLimit::L2);
    const auto longest = std::max_element(times.begin(), times.end(),
                                          [](const auto &a, const auto &b) { return a.first < b.first; });
    if (!(longest->first > 0) || !std::isfinite(longest->first))
        return std::nullopt;
    BulkPrediction out;
    out.dram_gbs = dram / longest->first;
    out.gops = *k.instructions * machine.warp_size / longest->first;
    out.limit = longest->second;
    out.roofline_gbs = std::min(peak, dram / times[1].first);
    if (!std::isfinite(out.dram_gbs) || !std::isfinite(out.gops) || !std::isfinite(out.roofline_gbs))
        return std::nullopt;
    return out;
}

} // namespace crossroof::core
