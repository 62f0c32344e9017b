// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/footprint_levels.h"

namespace crossroof::core {

namespace {

constexpr double kKbPerKib = 1.024;

/// STEPS with each level's range starting where the one before ends.
std::vector<FootprintStep> chained(std::vector<FootprintStep> steps)
{
    double from = 0;
    for (FootprintStep &step : steps) {
        step.from_kb = from;
        from = step.to_kb;
    }
    return steps;
}

} // namespace

double l1CapacityKb(const XModelParams &params)
{
    return params.S_s * kKbPerKib;
}

double l2CapacityKb(const XModelParams &params)
{
    return params.S_2 > 0 ? params.S_2 * params.sm_count * kKbPerKib : 0;
}

std::vector<FootprintStep> latencyByFootprint(const XModelParams &params)
{
    std::vector<FootprintStep> steps;
    const double l1 = l1CapacityKb(params);
    const double l2 = l2CapacityKb(params);
    steps.push_back({KernelLimit::L1, 0, l1, params.L_s});
    if (params.L_2 > 0 && l2 > l1)
        steps.push_back({KernelLimit::L2, 0, l2, params.L_2});
    steps.push_back({KernelLimit::DRAM, 0, std::numeric_limits<double>::infinity(), params.L});
    return chained(std::move(steps));
}

std::vector<FootprintStep> bandwidthByFootprint(const XModelParams &params)
{
    std::vector<FootprintStep> steps;
    const double l1 = l1CapacityKb(params);
    const double l2 = l2CapacityKb(params);
    if (params.R_l1 > 0)
        steps.push_back({KernelLimit::L1, 0, l1, params.R_l1});
    if (params.R_l2 > 0 && l2 > l1)
        steps.push_back({KernelLimit::L2, 0, l2, params.R_l2});
    steps.push_back({KernelLimit::DRAM, 0, std::numeric_limits<double>::infinity(),
                     params.R_dram > 0 ? params.R_dram : params.R});
    return chained(std::move(steps));
}

double valueAtFootprint(const std::vector<FootprintStep> &steps, double footprint_kb)
{
    for (const FootprintStep &step : steps) {
        if (footprint_kb <= step.to_kb)
            return step.value;
    }
    return steps.empty() ? 0 : steps.back().value;
}

} // namespace crossroof::core
