// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/markov_evaluation.h"

#include "core/support/error.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crossroof::widgets {

namespace {

/// Where each of LEVELS' contour LINES (all levels in one list) is labelled: the middle of its segment that
/// lies farthest inside the grid (as a share of each axis), so that the label stays clear of the plot's edges.
/// A segment's level is the surface's value at its end, which lies on a cell's side (linear there): no
/// second pass over the grid.
std::vector<MarkovEvaluation::ContourLabel> labelContours(const ColouredSurface &surface,
                                                         const core::ContourLines &lines,
                                                         const std::vector<double> &levels)
{
    const auto &p = surface.p_axis;
    const auto &q = surface.q_axis;
    const auto &cpi = surface.surface.cpi;
    if (p.size() < 2 || q.size() < 2 || levels.empty())
        return {};
    const auto cell = [](const std::vector<double> &axis, double v) {
        const auto at = std::upper_bound(axis.begin(), axis.end(), v);
        return std::clamp<std::size_t>(std::size_t(at - axis.begin()), 1, axis.size() - 1) - 1;
    };
    std::vector<double> depth(levels.size(), -1);
    std::vector<MarkovEvaluation::ContourLabel> best(levels.size());
    for (std::size_t k = 0; k + 1 < lines.x.size(); k += 3) { // two points and a NaN separator
        const double x = lines.x[k], y = lines.y[k];
        const double mx = (x + lines.x[k + 1]) / 2, my = (y + lines.y[k + 1]) / 2;
        if (!std::isfinite(mx) || !std::isfinite(my))
            continue;
        const std::size_t i = cell(p, x), j = cell(q, y);
        const double tx = (x - p[i]) / (p[i + 1] - p[i]), ty = (y - q[j]) / (q[j + 1] - q[j]);
        const auto z = [&](std::size_t a, std::size_t b) { return cpi[b * p.size() + a]; };
        const double value = (1 - ty) * ((1 - tx) * z(i, j) + tx * z(i + 1, j))
                             + ty * ((1 - tx) * z(i, j + 1) + tx * z(i + 1, j + 1));
        std::size_t level = 0;
        for (std::size_t l = 1; l < levels.size(); ++l) {
            if (std::abs(std::log(levels[l] / value)) < std::abs(std::log(levels[level] / value)))
                level = l;
        }
        const double u = (mx - p.front()) / (p.back() - p.front());
        const double v = (my - q.front()) / (q.back() - q.front());
        const double inside = std::min({u, 1 - u, v, 1 - v});
        if (inside > depth[level]) {
            depth[level] = inside;
            best[level] = {levels[level], mx, my};
        }
    }
    std::vector<MarkovEvaluation::ContourLabel> labels;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        if (depth[l] >= 0)
            labels.push_back(best[l]);
    }
    return labels;
}

} // namespace

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
    const std::vector<double> levels = core::niceContourLevels(lo, hi);
    m_contours = core::contourLines(m_surface.p_axis, m_surface.q_axis, m_surface.surface.cpi, levels);
    m_contourLabels = labelContours(m_surface, m_contours, levels);
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
