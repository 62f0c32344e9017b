// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <QList>
#include <QString>

#include <array>
#include <optional>

class QCPGraph;
class QCustomPlot;

namespace crossroof::widgets {

/// The supplies of the memory levels on the X-graph (MODEL.md 1.7): for L1, L2 and DRAM each with a bandwidth
/// ceiling, f_l(k) = min(k·m / L_l, R_l / (B_l · clock · SMs)) in the axis' GB/s (requests of B_req bytes), a
/// thin line in the level's colour. f is the latency side capped by the tightest of them, so it runs on or
/// under every one; where f meets one, that level bounds the kernel.
class LevelCurves
{
public:
    /// Adds the three graphs (L1, L2, DRAM) to PLOT, empty, on its bottom and left axes.
    explicit LevelCurves(QCustomPlot *plot);

    /// L1, L2 and DRAM, in that order.
    QList<QCPGraph *> graphs() const { return {m_graphs[0], m_graphs[1], m_graphs[2]}; }

    /// Draws the levels of MODEL with a ceiling from k = 0 to RIGHT when SHOWN (a kernel with the counters
    /// that place it at each level is selected); clears them otherwise. The graphs' names say each ceiling.
    void update(const core::XModel *model, double right, bool shown);

    /// The formula and value of the level curve within the tolerances of plot coordinates (K, GBS); empty
    /// over none (or none drawn).
    QString describeAt(double k, double gbs, double kTolerance, double gbsTolerance) const;

private:
    QCustomPlot *m_plot;
    std::array<QCPGraph *, 3> m_graphs {};
    std::optional<core::XModelParams> m_params; ///< of the curves drawn
};

} // namespace crossroof::widgets
