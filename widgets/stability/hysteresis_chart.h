// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/steady_plot.h"
#include "stability/stability_evaluation.h"

namespace crossroof::widgets {

class ThinnedGraphs;

/// The hysteresis of a sweep of one parameter (MODEL.md 1.6): the branch followed while raising it, the
/// branch followed while lowering it, the jumps between them and the bistable range shaded behind. A
/// SteadyPlot: a new sweep of the same parameter (every step of a drag) is drawn in the last layout while it
/// holds, straight onto the window.
class HysteresisChart : public SteadyPlot
{
    Q_OBJECT
public:
    explicit HysteresisChart(QWidget *parent = nullptr);

    QCPGraph *upBranch() const { return m_up; }
    QCPGraph *downBranch() const { return m_down; }

    /// Draws SWEEP: the branches (thinned, through both ends of every jump), the jumps and the bistable range.
    void drawSweep(const StabilityEvaluation::Sweep &sweep);

private:
    QCPGraph *m_up;
    QCPGraph *m_down;
    QCPGraph *m_jumps;
    QCPGraph *m_bistable;
    ThinnedGraphs *m_thinned; ///< the branches, drawn thinned
};

} // namespace crossroof::widgets
