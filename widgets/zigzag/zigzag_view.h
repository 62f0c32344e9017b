// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/occupancy/scheduling.h"
#include "core/occupancy/occupancy_settings.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QCPAxis;
class QCustomPlot;
class QCPGraph;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace crossroof::widgets {

class OccupancyState;
class ZigzagEvaluation;

/// The scheduling zigzag: f_sched = ceil(B_r/(B_a·S))·B_a·S/B_r against the requested blocks B_r (MODEL.md
/// 2.2), with B_a from the occupancy calculator or set by hand, S from the profile, and the minima marked.
/// Below the controls, the TMM time model max(T1/P, T_inf, M·L/(T·P))·f_sched (Eq. 1, 6-8) with the APSP
/// preset (Eq. 10-14); its predicted time against B_r is a second curve on a right axis of its own, outside
/// yAxis2, which the TraceOverlay keeps for measured runtimes in seconds (model units are not seconds).
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

    /// The TMM inputs (Table I), as text: T1, T_inf, M, L, T, P and the B_r the panel evaluates at.
    QLineEdit *workEdit() const { return m_work; }
    QLineEdit *spanEdit() const { return m_span; }
    QLineEdit *transactionsEdit() const { return m_transactions; }
    QLineEdit *latencyEdit() const { return m_latency; }
    QLineEdit *threadsEdit() const { return m_threads; }
    QLineEdit *coresEdit() const { return m_cores; }
    QLineEdit *requestedBlocksEdit() const { return m_br; }
    /// The APSP preset: n, S_D, C and the button that fills the inputs from them.
    QSpinBox *apspVerticesBox() const { return m_apspN; }
    QSpinBox *apspSubBlockBox() const { return m_apspSd; }
    QLineEdit *apspChunkEdit() const { return m_apspC; }
    QPushButton *apspButton() const { return m_apsp; }
    /// The three terms, passes, f_sched and the predicted time, or the InputError message.
    QLabel *tmmLabel() const { return m_tmmInfo; }
    /// The largest term in words: compute-, span- or memory-bound.
    QLabel *boundLabel() const { return m_bound; }
    /// The predicted time t_p·f_sched(B_r) against B_r, on timeAxis().
    QCPGraph *timeCurve() const { return m_timeCurve; }
    QCPAxis *timeAxis() const { return m_timeAxis; }
    /// What the panel shows: core::evaluateTmm of the inputs with B_a and S of the state; empty on bad input.
    const std::optional<core::TmmResult> &tmmResult() const;
    /// The zigzag and the TMM, computed from the occupancy state and the view's inputs.
    ZigzagEvaluation *evaluation() const { return m_eval; }

    /// The TMM inputs and the APSP preset's, for sessions (the rest of the zigzag's inputs are the
    /// OccupancyState's).
    core::TmmSettings settings() const;
    /// Restores every TMM input at once (one settingsChanged()).
    void setSettings(const core::TmmSettings &settings);

Q_SIGNALS:
    /// A TMM or APSP input changed (typing, the preset, setSettings()).
    void settingsChanged();

private:
    /// Shows the state's SMs, B_a and range, and has the evaluation compute the zigzag and the TMM.
    void refresh();
    /// Hands the TMM inputs to the evaluation.
    void refreshTmm();
    void showZigzag();
    void showTmm();
    void applyApspPreset();

    OccupancyState *m_state;
    ZigzagEvaluation *m_eval;
    QSpinBox *m_sms;
    QCheckBox *m_follow;
    QSpinBox *m_ba;
    QSpinBox *m_brMax;
    QLabel *m_info;
    QCustomPlot *m_plot;
    QCPGraph *m_curve;
    QCPGraph *m_minima;

    QLineEdit *m_work;
    QLineEdit *m_span;
    QLineEdit *m_transactions;
    QLineEdit *m_latency;
    QLineEdit *m_threads;
    QLineEdit *m_cores;
    QLineEdit *m_br;
    QSpinBox *m_apspN;
    QSpinBox *m_apspSd;
    QLineEdit *m_apspC;
    QPushButton *m_apsp;
    QLabel *m_tmmInfo;
    QLabel *m_bound;
    QCPAxis *m_timeAxis;
    QCPGraph *m_timeCurve;
};

} // namespace crossroof::widgets
