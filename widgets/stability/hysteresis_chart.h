// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/latest_job.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/parameters.h"

#include <qcustomplot.h>

#include <optional>
#include <string>
#include <vector>

namespace crossroof::widgets {

class ThinnedGraphs;

/// The hysteresis of a sweep of one parameter (MODEL.md 1.6): the branch followed while raising it, the
/// branch followed while lowering it, the jumps between them and the bistable range shaded behind.
class HysteresisChart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit HysteresisChart(QWidget *parent = nullptr);

    QCPGraph *upBranch() const { return m_up; }
    QCPGraph *downBranch() const { return m_down; }

    /// Sweeps the parameter KEY of PARAMS up and then down: n from 1 to max(2 n_max, 1.5 n), a parameter
    /// on a log scale over 1/18 to 18 times its value, any other over its slider range. SHOW_K draws the
    /// warps in the memory system k instead of the MS throughput.
    /// The same sweep as the one shown (the swept key's own value aside, when it does not move the range)
    /// is neither computed nor drawn again. The sweep is computed off the GUI thread and drawn when done;
    /// while a slider moves, the sweep follows the values it has reached (see LatestJob).
    void showSweep(const core::XModelParams &params, const std::string &key, bool showK);
    /// Blocks until the last sweep asked for is drawn (tests, figure export).
    void waitForSweep() { m_job.wait(); }
    /// The sweep drawn, every value of it (the branches are drawn thinned).
    const core::HysteresisResult &sweep() const { return m_drawn; }

private:
    struct Shown
    {
        core::XModelParams params; ///< the swept key's member set to 0
        std::string key;
        std::vector<double> values;
        bool showK = false;
        bool operator==(const Shown &) const = default;
    };
    struct Computed
    {
        Shown shown;
        core::HysteresisResult result; ///< empty when the parameters could not be swept
    };
    void drawSweep(const Computed &computed);

    std::optional<Shown> m_requested; ///< the last sweep asked for (drawn, or being computed)
    core::HysteresisResult m_drawn;
    LatestJob<Computed> m_job;

    QCPGraph *m_up;
    QCPGraph *m_down;
    QCPGraph *m_jumps;
    QCPGraph *m_bistable;
    ThinnedGraphs *m_thinned; ///< the branches, drawn thinned
};

} // namespace crossroof::widgets
