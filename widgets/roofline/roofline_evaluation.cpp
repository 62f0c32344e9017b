// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_evaluation.h"

#include "common/parameter_state.h"
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/traces/kernel_table.h"
#include "core/xmodel/xmodel.h"
#include "state/kernel_label.h"

#include <algorithm>

namespace crossroof::widgets {

RooflineEvaluation::RooflineEvaluation(ParameterState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
{
}

double RooflineEvaluation::memoryCeilingGbs() const
{
    return m_state->params().R;
}

double RooflineEvaluation::computeCeilingGops() const
{
    return m_state->params().M * m_state->params().gopsPerInstructionRate();
}

std::vector<RooflineEvaluation::PipeCeiling> RooflineEvaluation::pipeCeilings() const
{
    const core::HardwareProfile &profile = m_state->profile();
    const core::ComputeCapability *cc = profile.kind == "gpu" && !profile.compute_capability.empty()
                                                ? core::findComputeCapability(profile.compute_capability)
                                                : nullptr;
    if (!cc)
        return {};
    // Lanes are thread-instructions per cycle per SM; gopsPerInstructionRate() takes warp-instructions.
    const core::XModelParams &p = m_state->params();
    const double perLane = p.gopsPerInstructionRate() / p.warp_size;
    std::vector<PipeCeiling> pipes;
    if (cc->fp32_lanes_sm > 0)
        pipes.push_back({QStringLiteral("FP32"), cc->fp32_lanes_sm, cc->fp32_lanes_sm * perLane});
    const int fp64 = profile.fp64_lanes_sm.value_or(cc->fp64_lanes_sm);
    if (fp64 > 0)
        pipes.push_back({QStringLiteral("FP64"), fp64, fp64 * perLane});
    return pipes;
}

std::optional<double> RooflineEvaluation::littleCeilingGbs(double latencyCycles) const
{
    const core::XModelParams &p = m_state->params();
    if (!(latencyCycles > 0))
        return std::nullopt;
    // Bytes in flight per SM over the latency, in bytes per cycle per SM; times cycles per second and SMs.
    return p.n * p.m * p.workloadRequestBytes() / latencyCycles * p.clock_ghz * p.sm_count;
}

bool RooflineEvaluation::hasL1() const
{
    return std::any_of(m_points.begin(), m_points.end(),
                       [](const KernelPoint &p) { return p.l1Intensity.has_value(); });
}

bool RooflineEvaluation::hasL2() const
{
    return std::any_of(m_points.begin(), m_points.end(),
                       [](const KernelPoint &p) { return p.l2Intensity.has_value(); });
}

void RooflineEvaluation::rebuildPoints()
{
    m_points.clear();
    if (!m_report)
        return;
    const core::XModelParams &params = m_state->params();
    const double warpSize = params.warp_size;
    // The X-model's prediction per kernel, as the Kernels dock and the Prediction view compute it.
    std::vector<core::KernelRow> rows;
    try {
        const core::HardwareProfile &profile = m_state->profile();
        rows = core::compareKernels(*m_report, params, profile).rows;
    } catch (const core::InputError &) {
        // Parameters the model refuses: the measured points alone.
    }
    for (std::size_t k = 0; k < m_report->kernels.size(); ++k) {
        const core::NcuKernel &kernel = m_report->kernels[k];
        if (!kernel.instructions || !kernel.duration_ns || !kernel.dram_gbs || !(*kernel.duration_ns > 0)
            || !(*kernel.dram_gbs > 0) || !(*kernel.instructions > 0))
            continue;
        KernelPoint p;
        p.kernel = k;
        p.gops = *kernel.instructions * warpSize / *kernel.duration_ns;
        p.intensity = p.gops / *kernel.dram_gbs;
        p.duration_ns = *kernel.duration_ns;
        p.label = kernelLabel(kernel);
        p.shortLabel = shortKernelLabel(kernel.short_name, kernel.id);
        const std::optional<double> sectors = kernel.sectors();
        if (sectors && *sectors > 0) {
            const double threadInstructions = *kernel.instructions * warpSize;
            const double l1Bytes = *sectors * 32;
            p.l1Intensity = threadInstructions / l1Bytes;
            if (kernel.l1_hit_rate && *kernel.l1_hit_rate < 1)
                p.l2Intensity = threadInstructions / (l1Bytes * (1 - *kernel.l1_hit_rate));
        }
        if (k < rows.size()) {
            const core::KernelRow &row = rows[k];
            if (row.predicted_gops && row.predicted_gbs && *row.predicted_gops > 0 && *row.predicted_gbs > 0)
                p.predicted = QPointF(*row.predicted_gops / *row.predicted_gbs, *row.predicted_gops);
        }
        m_points.push_back(p);
    }
}

void RooflineEvaluation::recompute()
{
    rebuildPoints();
    const core::XModelParams &params = m_state->params();
    m_operating = {};
    m_issueCeiling.reset();
    try {
        const core::XModel model(params);
        const core::XGraphResult solved = model.solve(); // the operating point lives in it
        const core::Equilibrium &op = solved.operatingPoint();
        // Intensity per DRAM byte, as the axis and the memory ceiling count it: cache hits move no DRAM
        // bytes, so the point sits at Z*warp_size/request_bytes / (1 - h) and never above the ceiling R*I.
        // When every request hits there is no DRAM traffic and no finite intensity to draw it at.
        const double missShare = 1 - op.hit_rate.value_or(0);
        if (missShare > 1e-12)
            m_operating = QPointF(params.Z * params.warp_size / params.request_bytes / missShare, op.cs_gops);
        if (params.issueRate() * params.n < params.M)
            m_issueCeiling = params.issueRate() * params.n * params.gopsPerInstructionRate();
    } catch (const core::InputError &) {
        // Parameters the model refuses: the ceilings alone.
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
