// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov.h"

#include <QSharedPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QCPAxisTicker;
class QCPGraph;
class QCustomPlot;

namespace crossroof::widgets {

/// The two charts beside the Markov surface, one above the other: the slice CPI(p) at the chosen q (thesis
/// Fig. 5.16, log CPI axis) and the transient CPI(t) from all threads active at the chosen (p, q), which
/// rises and saturates at the steady state.
class ThinnedGraphs;

class MarkovSliceCharts : public QWidget
{
    Q_OBJECT
public:
    explicit MarkovSliceCharts(QWidget *parent = nullptr);

    QCustomPlot *slicePlot() const { return m_slice; }
    QCPGraph *sliceGraph() const { return m_sliceGraph; }
    QCustomPlot *transientPlot() const { return m_transient; }
    QCPGraph *transientGraph() const { return m_transientGraph; }

    /// The slice's p axis as the surface map draws it: its ticker and its range, in axis coordinates.
    void setPAxis(const QSharedPointer<QCPAxisTicker> &ticker, double lower, double upper);
    /// Shows grid point (PI, QJ) of SURFACE: the slice along p at q[QJ], drawn at the axis coordinates
    /// P_AXIS (one per p value), and the transient of the topology SHAPE (threads per cache group) at
    /// (p[PI], q[QJ]) over max(50, 2 × STEPS) steps, 50 without STEPS.
    void showPoint(const core::MarkovSurface &surface, const std::vector<double> &pAxis, std::size_t pi,
                   std::size_t qj, const std::vector<int> &shape, std::optional<long long> steps);

private:
    QCustomPlot *m_slice;
    QCPGraph *m_sliceGraph;
    QCustomPlot *m_transient;
    QCPGraph *m_transientGraph;
    ThinnedGraphs *m_sliceThinned;
    ThinnedGraphs *m_transientThinned;
};

} // namespace crossroof::widgets
