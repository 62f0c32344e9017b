// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_evaluation.h"

#include "common/parameter_state.h"
#include "core/support/error.h"
#include "core/xmodel/xmodel.h"
#include "state/kernel_label.h"

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

void RooflineEvaluation::rebuildPoints()
{
    m_points.clear();
    if (!m_report)
        return;
    const double warpSize = m_state->params().warp_size;
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
        m_points.push_back(p);
    }
}

void RooflineEvaluation::recompute()
{
    rebuildPoints();
    const core::XModelParams &params = m_state->params();
    m_operating = {};
    m_latencyCeiling.reset();
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
            m_latencyCeiling = params.issueRate() * params.n * params.gopsPerInstructionRate();
    } catch (const core::InputError &) {
        // Parameters the model refuses: the ceilings alone.
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
