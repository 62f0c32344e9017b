// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_evaluation.h"

#include "common/parameter_state.h"
#include "core/support/error.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"

#include <algorithm>

namespace crossroof::widgets {

RooflineEvaluation::RooflineEvaluation(KernelState *kernels, QObject *parent)
    : QObject(parent)
    , m_kernels(kernels)
    , m_state(kernels->parameters())
{
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
    const core::NcuReport *report = m_kernels->report();
    if (!report)
        return;
    for (const core::RooflineKernel &k :
         core::rooflineKernels(*report, m_kernels->table().rows, m_state->params().warp_size)) {
        const core::NcuKernel &kernel = report->kernels[k.kernel];
        KernelPoint p;
        p.kernel = k.kernel;
        p.intensity = k.dram_intensity;
        p.gops = k.gops;
        p.duration_ns = k.duration_ns;
        p.label = kernelLabel(kernel);
        p.shortLabel = shortKernelLabel(kernel.short_name, kernel.id);
        p.l1Intensity = k.l1_intensity;
        p.l2Intensity = k.l2_intensity;
        if (k.predicted_intensity && k.predicted_gops)
            p.predicted = QPointF(*k.predicted_intensity, *k.predicted_gops);
        m_points.push_back(p);
    }
}

void RooflineEvaluation::recompute()
{
    rebuildPoints();
    m_ceilings = core::rooflineCeilings(m_state->profile(), m_state->params());
    m_operating = {};
    try {
        if (const auto op = core::rooflineOperatingPoint(m_state->params()))
            m_operating = QPointF(op->intensity, op->gops);
    } catch (const core::InputError &) {
        // Parameters the model refuses: the ceilings alone.
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
