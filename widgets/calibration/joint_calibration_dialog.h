// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/calibration_sources.h"
#include "common/latest_job.h"

#include "core/calibration/calibration.h"
#include "core/calibration/joint_calibration.h"
#include "core/xmodel/parameters.h"

#include <QDialog>
#include <QMap>
#include <QString>

#include <memory>
#include <optional>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace crossroof::widgets {

class ParameterState;

/// Calibrates the X-model's machine to everything a user measured, as `crossroof-cli calibrate` does: a
/// kernel family, a stream curve, a pointer-chase latency file, Nsight Compute exports of real kernels, or a
/// crossroof-probe folder (its family, stream and latency files), fitted jointly by calibrateJointly(): least
/// squares of log(predicted / measured) over any of R, R_dram, L, M, L_c and L_2, each source's values
/// weighted by its weight / its number of values. The device shape and the parameters that are not fitted are
/// the current parameters. Shows each source's accuracy and its share of every fitted parameter, predicted
/// against measured for every source (log axes, y = x), every value in a table. The fit runs off the GUI
/// thread. "Apply" sets the fitted values and those the latency file measures directly as one undo step;
/// "Save as Profile…" writes the current profile with them and their sources (atomically).
class JointCalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    explicit JointCalibrationDialog(ParameterState *state, QWidget *parent = nullptr);
    ~JointCalibrationDialog() override;

    /// Reads PATH as a source of KIND and adds it (a second family, stream or latency file replaces the
    /// first), then starts a fit. False with error() set when the file cannot be used: the other sources
    /// stay.
    bool addSource(core::SourceKind kind, const QString &path);
    /// Adds a crossroof-probe folder's family.csv, stream.csv and latency.csv, then starts a fit.
    bool addProbeFolder(const QString &directory);
    void removeSource(int index);
    void setWeight(int index, double weight);
    /// Chooses whether KEY (one of jointCalibrationKeys()) is fitted; until this is called or a box is
    /// clicked, the keys follow the CLI's defaults for the sources (defaultJointKeys()).
    void setFitted(const QString &key, bool fitted);
    /// Starts a fit of the sources from the current parameters (the latest request wins).
    void fit();
    /// Blocks until the requested fits are done and shown (tests); whether there is a result.
    bool waitForFit();

    const QString &error() const { return m_error; }
    const std::optional<core::JointCalibration> &result() const { return m_result; }
    const CalibrationSourceList &sources() const { return m_sources; }

    /// Sets the fitted values and those set from measurements on the state as one undo step.
    void apply();
    /// Writes the current profile with the calibration to PATH, atomically. Returns an empty string on
    /// success, else the error (the file is then left as it was).
    QString saveProfile(const QString &path) const;

    SourcesTable *sourcesTable() const { return m_sourcesTable; }
    QTableWidget *table() const { return m_table; }
    QTableWidget *parametersTable() const { return m_parameters; }
    QCustomPlot *plot() const { return m_plot; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *saveButton() const { return m_save; }
    QCheckBox *fitBox(const QString &key) const { return m_fitBoxes.value(key); }

Q_SIGNALS:
    /// After "Apply" or "Save as Profile…", for the status bar.
    void message(const QString &text);

private:
    struct Outcome {
        std::optional<core::JointCalibration> result;
        QString error;
        core::XModelParams start;
        int serial = 0; ///< the request it answers
        std::optional<core::FamilyPrediction> family; ///< the fitted machine on the family, when one is a source
    };

    void browse(core::SourceKind kind);
    void browseProbe();
    void sourcesChanged();
    void showOutcome(Outcome outcome);
    void showResult();
    void setBusy(bool busy);
    void saveInteractively();
    std::vector<std::string> fittedKeys() const;

    ParameterState *m_state;
    CalibrationSourceList m_sources;
    SourcesTable *m_sourcesTable;
    QPushButton *m_remove;
    QMap<QString, QCheckBox *> m_fitBoxes;
    bool m_keysChosen = false; ///< the user chose the keys: they no longer follow the sources
    QPushButton *m_fit;
    QCustomPlot *m_plot;
    QTableWidget *m_parameters;
    QTableWidget *m_table;
    QLabel *m_summary;
    QPushButton *m_apply;
    QPushButton *m_save;
    std::optional<core::JointCalibration> m_result;
    core::XModelParams m_start; ///< what m_result was fitted from
    std::optional<core::FamilyPrediction> m_family; ///< its RMSE and r² on the family
    QString m_error;
    int m_serial = 0; ///< fits requested
    bool m_busy = false; ///< a fit runs or waits
    QString m_deviceNote; ///< a probe folder's device that differs from the machine
    std::unique_ptr<LatestJob<Outcome>> m_job; ///< last: destroyed (and joined) first
};

} // namespace crossroof::widgets
