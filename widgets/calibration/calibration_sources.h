// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/calibration/joint_calibration.h"
#include "core/calibration/probe_analysis.h"

#include <QString>
#include <QTableWidget>

#include <variant>
#include <vector>

class QDoubleSpinBox;

namespace crossroof::widgets {

/// The measurements of a joint calibration as the dialog lists them: each file read once when added, with its
/// kind and weight. At most one kernel family, stream curve, latency file and parallel-read file (adding another
/// replaces it) and any number of Nsight Compute exports, kept in the order calibrateJointly() reports them:
/// family, stream, latency, the exports as added, then the parallel reads.
class CalibrationSourceList
{
public:
    struct Entry {
        core::SourceKind kind = core::SourceKind::Family;
        QString path;
        double weight = 1;
        std::variant<core::KernelFamily, core::StreamCurve, core::LatencyMeasurements, core::KernelSet,
                     core::ParallelReads, core::LevelMeasurements>
                data;

        /// The name core's reports and messages give the source (the path it was read from).
        const std::string &source() const;
        /// The measured values it gives: rows, stream points, chases (DRAM, L2), usable kernels, the levels'
        /// bandwidths and capacities a gpu-cache or gpu-l2-stream output sets.
        std::size_t values() const;
        /// Kernels of an export left out, each "FILE:LINE: kernel ID (NAME): reason".
        const std::vector<std::string> &skipped() const;
    };

    /// Reads PATH as a source of KIND and adds it (an ncu export's kernels with WARPSIZE threads per warp);
    /// returns its index. Throws InputError naming the file (and line) when it cannot be used, or when an
    /// export is listed already; the list is then unchanged.
    std::size_t add(core::SourceKind kind, const QString &path, double warpSize);
    /// Adds a crossroof-probe output directory: its family.csv, stream.csv and latency.csv. Returns what the
    /// probe measured (device.csv's shape, for a check against the machine). Throws InputError naming the
    /// file and line of anything missing or malformed; nothing is added then.
    core::ProbeMeasurements addProbe(const QString &directory);
    void remove(std::size_t index);
    void setWeight(std::size_t index, double weight);

    const std::vector<Entry> &entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }
    /// Index of the entry core names SOURCE, or -1.
    int indexOf(const std::string &source) const;
    /// Everything as calibrateJointly() takes it, each entry's weight under its source name.
    core::CalibrationSources sources() const;
    /// "family.csv, stream.csv, ...": the file names, for undo text and messages.
    QString fileNames() const;

private:
    std::size_t insert(Entry entry);

    std::vector<Entry> m_entries;
};

/// The sources of a calibration in a table: kind, file, values, an editable weight and, once fitted, each
/// source's accuracy (mean, median, lowest) and the share it has in every fitted parameter. F2 (or Enter) edits
/// the selected source's weight, Delete removes the source.
class SourcesTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column { Kind, File, Values, Weight, Mean, Median, Min, Determines, ColumnCount };

    explicit SourcesTable(QWidget *parent = nullptr);

    /// One row per entry of LIST (the fit columns empty until showFit()).
    void setSources(const CalibrationSourceList &list);
    /// Fills the fit columns from FIT, matching its reports to LIST's entries by source name; an entry the
    /// fit has no values of (a latency file that only sets keys) says so.
    void showFit(const CalibrationSourceList &list, const core::JointCalibration &fit);
    /// Empties the fit columns.
    void clearFit();
    QDoubleSpinBox *weightBox(int row) const;
    /// The selected row, or -1.
    int selectedSource() const;

Q_SIGNALS:
    void weightChanged(int row, double weight);
    void removeRequested(int row);

protected:
    void keyPressEvent(QKeyEvent *event) override;
};

} // namespace crossroof::widgets
