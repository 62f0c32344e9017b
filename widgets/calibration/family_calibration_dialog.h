// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/calibration.h"
#include "core/calibration/kernel_family.h"
#include "core/xmodel/parameters.h"

#include <QDialog>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace crossroof::widgets {

class ParameterState;

/// Calibrates the whole X-model to a measured kernel family (a CSV with columns n, Z, E and gbs, as
/// crossroof-probe writes it): least squares of log(predicted / measured) throughput over any of R, L, M and
/// L_c, the other parameters and the device shape taken from the current parameters. Shows predicted against
/// measured throughput (log axes, the y = x line, one colour per E), every kernel in a table, and the accuracy
/// 1 - |predicted - measured| / measured. "Apply" sets the fitted values as one undo step; "Save as
/// Profile…" writes the current profile with them as a profile file (atomically).
class FamilyCalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    explicit FamilyCalibrationDialog(ParameterState *state, QWidget *parent = nullptr);

    /// Reads a kernel-family file and fits it; false with error() set when the file is bad or the fit fails.
    bool loadFamily(const QString &path);
    /// Chooses whether KEY (R, L, M or L_c) is fitted; the others are held at the current values.
    void setFitted(const QString &key, bool fitted);
    /// Fits the loaded family again (after the choice of parameters or the machine changed).
    bool fit();
    const QString &error() const { return m_error; }
    const std::optional<core::CalibrationResult> &result() const { return m_result; }

    /// Sets the fitted values on the state as one undo step.
    void apply();
    /// Writes the current profile with the fitted values to PATH, atomically. Returns an empty string on
    /// success, else the error (the file is then left as it was).
    QString saveProfile(const QString &path) const;

    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot() const { return m_plot; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *saveButton() const { return m_save; }
    QCheckBox *fitBox(const QString &key) const { return m_fitBoxes.value(key); }

Q_SIGNALS:
    /// After "Apply" or "Save as Profile…", for the status bar.
    void message(const QString &text);

private:
    void browse();
    void showResult();
    void saveInteractively();
    std::vector<std::string> fittedKeys() const;

    ParameterState *m_state;
    QLineEdit *m_path;
    QMap<QString, QCheckBox *> m_fitBoxes;
    QPushButton *m_fit;
    QCustomPlot *m_plot;
    QTableWidget *m_table;
    QLabel *m_summary;
    QPushButton *m_apply;
    QPushButton *m_save;
    std::optional<core::KernelFamily> m_family;
    std::optional<core::CalibrationResult> m_result;
    QString m_familyPath;
    QString m_error;
};

} // namespace crossroof::widgets
