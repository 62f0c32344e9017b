// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/latest_job.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <string>

class QWidget;

namespace crossroof::widgets {

class ParameterState;

/// The kernels of the analysis (issue 45): one Nsight Compute report, read once, and the X-model's prediction
/// for each of its kernels (core::compareKernels(): each kernel's own workload and clock, the profile's
/// machine, the current E). The Kernels table, the Prediction view, the roofline and the X-graph's kernel marks
/// read the predictions here, so that one kernel has one predicted number everywhere.
/// The predictions are computed off the GUI thread (LatestJob: a drag computes the values it has reached), again
/// only when what they depend on changes: the parameters but n and Z (each kernel's own replace them), the
/// profile's compute capability and id. tableChanged() follows each new table.
class KernelState : public QObject
{
    Q_OBJECT
public:
    explicit KernelState(ParameterState *params, QObject *parent = nullptr);
    ~KernelState() override;

    ParameterState *parameters() const { return m_params; }

    /// Reads PATH (core::readNcuCsv()) and predicts its kernels, both off the GUI thread with their progress
    /// shown over PROGRESSPARENT and a way out; the table is there when it returns. Returns the error (naming
    /// file, line and column), or an empty string (also when the user cancelled: CANCELLED says so).
    QString loadFile(const QString &path, QWidget *progressParent = nullptr, bool *cancelled = nullptr);
    /// The kernels of a report read elsewhere (an Nsight Compute file imported as a trace): not read again.
    /// Its predictions follow (tableChanged()).
    void setReport(std::shared_ptr<const core::NcuReport> report);
    /// No report (opening a session, File > New Session).
    void clear();

    /// The report, or none.
    const core::NcuReport *report() const { return m_report.get(); }
    const std::shared_ptr<const core::NcuReport> &sharedReport() const { return m_report; }
    /// The predictions of report(), row i for kernel i, as last computed; no rows while the first computation
    /// for this report runs.
    const core::KernelTable &table() const { return *m_table; }
    /// The mean accuracy of table() (core::kernelAccuracy()).
    const std::optional<core::KernelAccuracy> &accuracy() const { return m_accuracy; }
    /// The row of the kernel labelled LABEL ("short name [ID]", kernelLabel(), as the imported ncu trace names
    /// its points), or none.
    const core::KernelRow *row(const QString &label) const;
    /// Whether a computation runs or waits.
    bool busy() const { return m_job.busy(); }
    /// Blocks until the table is the one for the current report and parameters (tests, figure export).
    void wait();
    /// How many tables were computed (tests: a drag of n recomputes none).
    int computed() const { return m_computed; }

Q_SIGNALS:
    /// Another report, or none; tableChanged() follows.
    void reportChanged();
    /// New predictions (or none, without a report).
    void tableChanged();

private:
    /// What the predictions depend on: the parameters but n and Z, the profile's compute capability and id.
    struct Basis
    {
        core::XModelParams params;
        core::HardwareProfile profile; ///< compared by its compute capability and id
        bool operator==(const Basis &other) const
        {
            return params == other.params && profile.compute_capability == other.profile.compute_capability
                   && profile.id == other.profile.id;
        }
    };
    Basis basisNow() const;
    static std::shared_ptr<const core::KernelTable> compare(const core::NcuReport &report, const Basis &basis);
    /// Computes the table for the current report and basis, unless it is that already.
    void request();
    /// Takes TABLE, the predictions for REPORT, unless another report came since; tableChanged() follows when
    /// ANNOUNCE.
    void take(const std::shared_ptr<const core::NcuReport> &report, std::shared_ptr<const core::KernelTable> table,
              bool announce);

    struct Result
    {
        std::shared_ptr<const core::NcuReport> report;
        Basis basis;
        std::shared_ptr<const core::KernelTable> table;
    };

    ParameterState *m_params;
    std::shared_ptr<const core::NcuReport> m_report;
    std::shared_ptr<const core::KernelTable> m_table;
    std::optional<Basis> m_requested; ///< of the last request
    std::optional<core::KernelAccuracy> m_accuracy;
    QHash<QString, std::size_t> m_rows; ///< label -> row
    int m_computed = 0;
    LatestJob<Result> m_job; ///< last: its worker stops before the rest goes
};

/// How far off the model is on average, 1 − ACCURACY's mean accuracy, in percent as the Kernels table and the
/// X-graph's legend ("model off 8.8 %") both say it: one decimal.
QString modelOffPercent(const core::KernelAccuracy &accuracy);

} // namespace crossroof::widgets
