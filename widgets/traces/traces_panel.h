// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "traces/calibration_dialog.h"
#include "traces/trace_import_dialog.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace crossroof::core {
struct GpuLatency;
}

namespace crossroof::widgets {

class ParameterState;
class TraceState;

/// The measured traces as a dockable list: a checkbox shows or hides a trace on every plot, double-click
/// renames it, the tooltip names the file. Import… reads a file (a generic table opens the column-mapping
/// dialog), Remove drops the selected trace, Fit… opens the calibration dialog for it.
class TracesPanel : public QWidget
{
    Q_OBJECT
public:
    TracesPanel(TraceState *traces, ParameterState *state, QWidget *parent = nullptr);

    /// Imports PATH: known formats are added at once; a generic table opens the mapping dialog (non-modal,
    /// see importDialog()) and adds its traces when accepted. gpu-latency output is no trace: it offers its
    /// latencies as L and L_s (a non-blocking question named "LatencyQuestion"; see applyLatencies()).
    /// Returns the error (also shown in a non-blocking message box named "ErrorMessage"), or an empty string.
    QString importFile(const QString &path);
    /// Sets L to the cycles of LATENCY's largest chain (DRAM) and L_s to those of its smallest (L1), as one
    /// undo step.
    void applyLatencies(const core::GpuLatency &latency);
    /// The mapping dialog of the last generic table, while it is open.
    TraceImportDialog *importDialog() const { return m_importDialog; }
    /// Opens (or raises) the calibration dialog on trace ID (or the selected trace); non-modal.
    CalibrationDialog *openCalibration(const QString &id = {});
    CalibrationDialog *calibrationDialog() const { return m_calibration; }

    QString selectedId() const;
    void select(const QString &id);

    QListWidget *list() const { return m_list; }
    QPushButton *importButton() const { return m_import; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *fitButton() const { return m_fit; }
    QPushButton *useAsSupplyButton() const { return m_useAsSupply; }
    /// Makes trace ID the memory supply f(k) (empty: the analytic f(k) again), one undo step; returns the
    /// error (a trace that cannot be a curve, said in a message box too) or an empty string.
    QString useAsSupply(const QString &id);

Q_SIGNALS:
    /// A short note for the status bar ("Imported 6 traces from v100.txt").
    void message(const QString &text);

private:
    void rebuild();
    void updateButtons();
    void importInteractively();
    void onItemChanged(QListWidgetItem *item);
    /// PATH is gpu-latency output: reads it and asks whether to set L and L_s from it.
    QString offerLatencies(const QString &path);

    TraceState *m_traces;
    ParameterState *m_state;
    QListWidget *m_list;
    QPushButton *m_import;
    QPushButton *m_remove;
    QPushButton *m_fit;
    QPushButton *m_useAsSupply;
    QLabel *m_hint;
    QPointer<TraceImportDialog> m_importDialog;
    QPointer<CalibrationDialog> m_calibration;
};

} // namespace crossroof::widgets
