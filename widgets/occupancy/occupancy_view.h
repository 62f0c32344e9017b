// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPGraph;
class QLabel;
class QSpinBox;

namespace crossroof::widgets {

class OccupancyEvaluation;
class OccupancyState;

/// The occupancy calculator users know from CUDA's: launch configuration in, active blocks per SM, resident
/// warps, occupancy and the binding limiters out, with occupancy against threads per block, registers per
/// thread and shared memory per block, the current point marked on each.
class OccupancyView : public QWidget
{
    Q_OBJECT
public:
    explicit OccupancyView(OccupancyState *state, QWidget *parent = nullptr);

    QSpinBox *threadsBox() const { return m_threads; }
    QSpinBox *registersBox() const { return m_regs; }
    QSpinBox *sharedMemoryBox() const { return m_smem; }
    QComboBox *computeCapabilityBox() const { return m_cc; }
    QCheckBox *linkBox() const { return m_link; }
    QLabel *summaryLabel() const { return m_summary; }
    /// The three sweeps: threads per block, registers per thread, shared memory per block.
    QCustomPlot *sweepPlot(int index) const { return m_plots[index]; }
    /// What a figure of this view shows: the three sweeps, stacked.
    QList<QCustomPlot *> figurePlots() const { return {m_plots[0], m_plots[1], m_plots[2]}; }
    /// The sweeps, computed from the occupancy state.
    OccupancyEvaluation *evaluation() const { return m_eval; }

private:
    void refresh();
    void refillConfigs();

    OccupancyState *m_state;
    OccupancyEvaluation *m_eval;
    QComboBox *m_cc;
    QComboBox *m_mode;
    QSpinBox *m_threads;
    QSpinBox *m_regs;
    QSpinBox *m_smem;
    QComboBox *m_config;
    QCheckBox *m_link;
    QLabel *m_summary;
    QLabel *m_limits;
    QCustomPlot *m_plots[3];
    QCPGraph *m_curves[3];
    QCPGraph *m_points[3];
};

} // namespace crossroof::widgets
