// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/markov_evaluation.h"

#include "core/support/error.h"

#include <cmath>
#include <utility>

namespace crossroof::widgets {

MarkovEvaluation::MarkovEvaluation(QObject *parent)
    : QObject(parent)
{
}

void MarkovEvaluation::setInputs(Inputs inputs)
{
    m_inputs = std::move(inputs);
    try {
        const auto grid = core::MarkovGrid::fromText(m_inputs.grid);
        // Computed into the spare, so that a refused input leaves the surface shown intact; the two swap
        // buffers instead of allocating new ones on every redraw.
        computeColouredSurface(grid, m_inputs.shape, m_inputs.steps, m_spare);
        std::swap(m_surface, m_spare);
    } catch (const core::InputError &e) {
        m_error = QString::fromStdString(e.what());
        Q_EMIT updated();
        return;
    }
    m_error.clear();
    const double lo = m_surface.cpi_low;
    const double hi = cpiHigh();
    // Contour lines in axis coordinates (on this thread, as the surface: see computeColouredSurface()).
    m_contours = core::contourLines(m_surface.p_axis, m_surface.q_axis, m_surface.surface.cpi,
                                    core::niceContourLevels(lo, hi));
    // The measured CPI's iso-CPI curve: every (p, q) of this topology that predicts it.
    const double measured = m_inputs.measured_cpi;
    if (measured > 1 && measured > lo && measured < hi)
        m_measuredCurve = core::contourLines(m_surface.p_axis, m_surface.q_axis, m_surface.colourValues(),
                                             std::log10(measured));
    else
        m_measuredCurve = {};
    Q_EMIT updated();
}

double MarkovEvaluation::cpiHigh() const
{
    return m_surface.cpi_high > m_surface.cpi_low ? m_surface.cpi_high : m_surface.cpi_low * 1.01;
}

} // namespace crossroof::widgets
