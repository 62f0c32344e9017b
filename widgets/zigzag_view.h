// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QCustomPlot;
class QCPGraph;
class QLabel;
class QSpinBox;

namespace crossroof::widgets {

class OccupancyState;

/// The scheduling zigzag: f_sched = ceil(B_r/(B_a·S))·B_a·S/B_r against the requested blocks B_r (MODEL.md
/// 2.2), with B_a from the occupancy calculator or set by hand, S from the profile, and the minima marked.
class ZigzagView : public QWidget
{
    Q_OBJECT
public:
    explicit ZigzagView(OccupancyState *state, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    /// What a figure of this view shows.
    QList<QCustomPlot *> figurePlots() const { return {m_plot}; }
    QCPGraph *curve() const { return m_curve; }
    QCPGraph *minima() const { return m_minima; }
    QSpinBox *smBox() const { return m_sms; }
    QSpinBox *activeBlocksBox() const { return m_ba; }
    QCheckBox *followBox() const { return m_follow; }

private:
    void refresh();

    OccupancyState *m_state;
    QSpinBox *m_sms;
    QCheckBox *m_follow;
    QSpinBox *m_ba;
    QSpinBox *m_brMax;
    QLabel *m_info;
    QCustomPlot *m_plot;
    QCPGraph *m_curve;
    QCPGraph *m_minima;
};

} // namespace crossroof::widgets
