// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/footprint_comparison.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPCurve;
class QLabel;

namespace crossroof::widgets {

class ParameterState;
class TraceState;

/// The memory levels against the footprint: gpu-benches' pointer chase (gpu-latency: cycles per dependent load)
/// and cache sweeps (gpu-cache, gpu-l2-cache: GB/s against the data set) as measured, over the levels the
/// parameters describe (L_s, L_2 and L; R_l1, R_l2 and R_dram, stepping at the capacities S_s and S_2 x SMs),
/// and a readout of each level a sweep shows beside the parameters' value there
/// (core::compareFootprintTrace()). Moving a level's slider moves its step at once.
class LevelsView : public QWidget
{
    Q_OBJECT
public:
    LevelsView(ParameterState *state, TraceState *traces, QWidget *parent = nullptr);

    // Each accessor first catches up with changes made while the view was hidden.
    QCustomPlot *latencyPlot() { catchUp(); return m_latency; }
    QCustomPlot *bandwidthPlot() { catchUp(); return m_bandwidth; }
    /// What a figure of this view shows.
    QList<QCustomPlot *> figurePlots() { catchUp(); return {m_latency, m_bandwidth}; }
    /// The model's staircase on each plot.
    QCPCurve *latencyModel() { catchUp(); return m_latencyModel; }
    QCPCurve *bandwidthModel() { catchUp(); return m_bandwidthModel; }
    QLabel *readout() { catchUp(); return m_readout; }

    /// Each visible footprint sweep, with the levels it shows against the model's.
    struct Sweep
    {
        QString traceId;
        QString name;
        bool latency = false; ///< a pointer chase (cycles), else a cache sweep (GB/s)
        core::FootprintComparison comparison;
    };
    const std::vector<Sweep> &sweeps() { catchUp(); return m_sweeps; }

Q_SIGNALS:
    /// A footprint sweep was imported (TraceState::traceAdded()): this view draws it.
    void sweepImported();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// Draws anew (a trace came or went, or a parameter changed); while the view is hidden (another tab in
    /// front, a slider dragged) it only notes that it is behind.
    void refresh();
    void catchUp();
    void draw();
    QString readoutHtml() const;

    ParameterState *m_state;
    TraceState *m_traces;
    QCustomPlot *m_latency;
    QCustomPlot *m_bandwidth;
    QCPCurve *m_latencyModel;
    QCPCurve *m_bandwidthModel;
    QLabel *m_readout;
    std::vector<Sweep> m_sweeps;
    bool m_stale = false; ///< inputs changed while hidden
};

} // namespace crossroof::widgets
