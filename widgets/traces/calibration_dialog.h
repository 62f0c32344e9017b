// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/trace_fit.h"

#include <QDialog>
#include <QList>
#include <QPair>
#include <QStringList>

#include <optional>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QCustomPlot;
class QCPGraph;
class QLabel;
class QListWidget;
class QPushButton;

namespace crossroof::widgets {

class ParameterState;
class TraceState;

/// Fits the model's memory curve to a measured f(k) trace by least squares and shows how well it fits: the
/// data with the fitted curve, the residuals, RMSE and r², and the fitted parameters with units.
/// - Roofline MS y = min(s·k, R): R = R_gbs and L = gbsPerRequestRate()/s, because in GB/s the X-model's
///   f(k) = k/L requests/cycle/SM is k·gbsPerRequestRate()/L.
/// - Fixed cache: L_s and h; locality cache: L_s, alpha and beta (the machine, R and L, stays as it is).
/// Cache fits stay within the physical bounds of core::fitCacheModel(), show each key's standard error and the
/// warnings of a degenerate result, and keep the keys the user holds (the Hold check boxes) at their values.
/// "Apply" sets the fitted parameters (and the cache mode) as one undo step; "Save as profile…" writes the
/// current profile with them and a source entry naming the trace file and the fit. Non-modal; refits when the
/// trace, the model or the machine changes.
class CalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Model { Roofline, FixedCache, LocalityCache, TwoLevelCache };

    CalibrationDialog(TraceState *traces, ParameterState *state, QWidget *parent = nullptr);

    /// Chooses the trace to fit (one of the bandwidth-vs-warps or kernel-point traces) and refits.
    bool setTrace(const QString &id);
    QString traceId() const;
    void setModel(Model model);
    Model model() const;
    /// Keys a cache fit keeps at the current parameters' values (the Hold check boxes); refits.
    void setHeld(const QStringList &keys);
    const QStringList &held() const { return m_hold; }
    /// The Hold check boxes of the current model, one per key it fits (none for the roofline).
    const QList<QCheckBox *> &holdBoxes() const { return m_holdBoxes; }
    /// Other traces of the same machine a cache fit takes together with the chosen one (every key shared but
    /// beta, core::fitCacheModel()); ids of fittable traces; refits.
    void setTogether(const QStringList &ids);
    const QStringList &together() const { return m_together; }
    QListWidget *togetherList() const { return m_togetherList; }
    /// KEY as the parameter panel labels its slider (alpha_2: 'γ₂ (alpha_2)').
    static QString symbol(const QString &key);

    /// Runs the fit now; false with error() set when it fails.
    bool fit();
    const QString &error() const { return m_error; }
    const std::optional<core::RooflineFit> &rooflineFit() const { return m_roofline; }
    const std::optional<core::CacheFit> &cacheFit() const { return m_cache; }
    /// The parameter values the fit means (MODEL.md 1.2 keys), empty without a fit.
    QList<QPair<QString, double>> fittedValues() const;
    double rmse() const;
    double r2() const;

    /// Sets the fitted values (and the cache mode) on the state as one undo step.
    void apply();
    /// Writes the current profile with the fitted values as a profile file, atomically. Returns an empty
    /// string on success, else the error (the file is then left as it was).
    QString saveProfile(const QString &path) const;

    QCustomPlot *dataPlot() const { return m_dataPlot; }
    QCustomPlot *residualPlot() const { return m_residualPlot; }
    QList<QCustomPlot *> figurePlots() const { return {m_dataPlot, m_residualPlot}; }
    QLabel *resultLabel() const { return m_result; }
    QComboBox *traceBox() const { return m_traceBox; }
    QComboBox *modelBox() const { return m_modelBox; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *saveButton() const { return m_save; }

Q_SIGNALS:
    /// After a fit (successful or not).
    void fitted();
    /// After "Apply" or "Save as profile…", for the status bar.
    void message(const QString &text);

private:
    void rebuildTraceList();
    void rebuildHoldBoxes();
    void rebuildTogetherList();
    void draw();
    void saveInteractively();
    QString describeFit() const;
    std::string sourceText() const;

    TraceState *m_traces;
    ParameterState *m_state;
    QComboBox *m_traceBox;
    QComboBox *m_modelBox;
    QWidget *m_holdRow;
    QHBoxLayout *m_holdLayout;
    QList<QCheckBox *> m_holdBoxes;
    QStringList m_hold;
    QListWidget *m_togetherList;
    QStringList m_together;
    QCustomPlot *m_dataPlot;
    QCustomPlot *m_residualPlot;
    QCPGraph *m_points;
    QCPGraph *m_curve;
    QCPGraph *m_residuals;
    QCPGraph *m_zero;
    QLabel *m_result;
    QPushButton *m_apply;
    QPushButton *m_save;
    std::optional<core::RooflineFit> m_roofline;
    std::optional<core::CacheFit> m_cache;
    core::XModelParams m_machine; ///< the parameters the fit was made against
    QString m_error;
    bool m_applying = false;
};

} // namespace crossroof::widgets
