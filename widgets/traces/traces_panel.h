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

#include "core/traces/ncu_csv.h"

#include <QSet>

#include <memory>
#include <optional>

namespace crossroof::core {
struct LatencyPlateaus;
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
    /// A file whose device (core::TraceFile::device) is not the profile's machine is warned about in the
    /// panel (deviceWarning()) with a button per matching bundled profile, as the Kernels dock does for ncu
    /// files (which it checks itself); a device offered and kept is not offered again (the warning stays).
    QString importFile(const QString &path);
    /// The warning about the last imported file's device (hidden when it fits the profile).
    QLabel *deviceWarning() const { return m_deviceWarning; }
    /// The buttons that switch to a matching profile, and the one that keeps the current profile.
    QList<QPushButton *> switchButtons() const;
    QPushButton *keepProfileButton() const { return m_keepProfile; }
    /// Sets L, L_s and (where it has one) L_2 to the DRAM, L1 and L2 plateaus of a gpu-latency file (those
    /// `crossroof-cli calibrate --latency` takes), as one undo step named after GPU.
    void applyLatencies(const core::LatencyPlateaus &levels, const QString &gpu);
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
    /// An imported Nsight Compute file's kernels, as read, before its trace is added (the Kernels dock takes
    /// them rather than reading the file again).
    void kernelsRead(std::shared_ptr<const core::NcuReport> kernels);

protected:
    /// Keep the device warning whole at the panel's width (fitWarning()).
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /// Gives the device warning the height of its text wrapped at the width the layout gives it (the panel's
    /// less its margins): a word-wrapped label's minimum is one line, so a short dock cut it to that and a
    /// tall one centred it in spare space. The trace list gives up rows first.
    void fitWarning();
    void rebuild();
    void updateButtons();
    void importInteractively();
    void onItemChanged(QListWidgetItem *item);
    /// PATH is gpu-latency output: reads it and asks whether to set L and L_s from it.
    QString offerLatencies(const QString &path);
    /// Checks the device of the last imported file against the profile and shows or hides the warning and
    /// the offers.
    void checkDevice();

    TraceState *m_traces;
    ParameterState *m_state;
    QListWidget *m_list;
    QPushButton *m_import;
    QPushButton *m_remove;
    QPushButton *m_fit;
    QPushButton *m_useAsSupply;
    QLabel *m_hint;
    QLabel *m_deviceWarning;
    QWidget *m_switchBox;   ///< the switch buttons, made per check
    QPushButton *m_keepProfile;
    std::optional<core::NcuDevice> m_device; ///< of the last imported file that names or implies one
    QString m_deviceFile;                    ///< that file (its traces' source), for the warning and removal
    QSet<QString> m_kept;                    ///< devices whose offer was declined (Keep)
    QPointer<TraceImportDialog> m_importDialog;
    QPointer<CalibrationDialog> m_calibration;
};

} // namespace crossroof::widgets
