// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/footprint_comparison.h"

#include "core/calibration/level_bandwidths.h"
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace crossroof::core {

namespace {

/// TRACE's points in order of footprint, with their 1-based positions for messages.
struct Sorted
{
    std::vector<double> kb, value;
    std::vector<int> lines;
};

Sorted sortedByFootprint(const MeasuredTrace &trace)
{
    std::vector<std::size_t> order(std::min(trace.x.size(), trace.y.size()));
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&trace](std::size_t a, std::size_t b) { return trace.x[a] < trace.x[b]; });
    Sorted s;
    for (std::size_t i : order) {
        if (!(trace.x[i] > 0) || !std::isfinite(trace.y[i]))
            continue;
        s.kb.push_back(trace.x[i]);
        s.value.push_back(trace.y[i]);
        s.lines.push_back(int(i) + 1);
    }
    return s;
}

/// The level of STEPS that holds FOOTPRINT_KB.
KernelLimit levelAt(const std::vector<FootprintStep> &steps, double footprint_kb)
{
    for (const FootprintStep &step : steps) {
        if (footprint_kb <= step.to_kb)
            return step.level;
    }
    return steps.empty() ? KernelLimit::DRAM : steps.back().level;
}

/// A bandwidth plateau beside the model's value at its middle footprint (the geometric mean of its ends), named
/// by the level its footprints fit (the latencies' steps know every capacity) and by the level the model's value
/// is of (its bandwidths' steps only the levels with a bandwidth).
MeasuredLevel beside(double measured, double from, double to, const XModelParams &params)
{
    MeasuredLevel level;
    level.measured = measured;
    level.from_kb = from;
    level.to_kb = to;
    const double middle = std::sqrt(from * to);
    const std::vector<FootprintStep> bandwidths = bandwidthByFootprint(params);
    level.model = valueAtFootprint(bandwidths, middle);
    level.model_level = levelAt(bandwidths, middle);
    level.level = levelAt(latencyByFootprint(params), middle);
    return level;
}

} // namespace

FootprintComparison compareFootprintTrace(const MeasuredTrace &trace, const XModelParams &params)
{
    FootprintComparison out;
    const Sorted s = sortedByFootprint(trace);
    try {
        if (trace.kind == TraceKind::LatencyVsFootprint) {
            GpuLatency latency;
            latency.gpu = trace.name;
            latency.source = trace.name;
            latency.chain_kb = s.kb;
            latency.cycles = s.value;
            latency.lines = s.lines;
            const LatencyPlateaus p = latencyPlateaus(latency);
            // A pointer chase's plateaus are the levels in order, each beside its latency (L_s, L_2, L; the L2's
            // where the parameters place no capacity too).
            auto add = [&](const LatencyPlateau &plateau, KernelLimit name, double model) {
                MeasuredLevel level{name, name, plateau.cycles, plateau.level_from_kb, plateau.level_to_kb, model};
                out.levels.push_back(level);
            };
            add(p.l1, KernelLimit::L1, params.L_s);
            if (p.l2)
                add(*p.l2, KernelLimit::L2, params.L_2);
            add(p.dram, KernelLimit::DRAM, params.L);
        } else if (trace.kind == TraceKind::BandwidthVsFootprint) {
            for (const BandwidthPlateau &p : bandwidthPlateaus(s.kb, s.value, s.lines))
                out.levels.push_back(beside(p.gbs, p.from_kb, p.to_kb, params));
            if (out.levels.empty())
                out.note = trace.name + ": no level of " + std::to_string(kMinPlateauRows) + " points or more";
        } else {
            out.note = trace.name + ": not a footprint sweep";
        }
    } catch (const InputError &e) {
        out.levels.clear();
        out.note = e.what();
    }
    return out;
}

} // namespace crossroof::core
