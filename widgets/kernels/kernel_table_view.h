// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace crossroof::widgets {

class KernelState;
class ParameterState;

/// The kernels of an Nsight Compute export (KernelState) as a sortable table beside the traces: the kernel's
/// own name (core::baseKernelName(); the full name in its tooltip), ID, measured DRAM GB/s (derived ones
/// marked), the X-model's predicted GB/s for the kernel's own workload (KernelState::table()), the error and
/// the limit (the level or pipe that bounds it, or why there is no prediction): these fit a 690-pixel dock.
/// Then achieved warps per SM, duration, Z, the workload (bytes and DRAM bytes per request, m, hit rates,
/// clock), measured and predicted Gop/s, the bound, grid and block. The mean accuracy below; a detail pane
/// under the table gives the selected kernel's full name and the model's diagnosis (kernelDetailText()). A
/// kernel without a prediction says why in its tooltip (the metrics it lacks and the ncu option that adds
/// them). The filter field keeps the rows whose full name contains its text. When the file's device differs
/// from the profile a warning says so and offers the bundled profile of that device or one made from the
/// file's device attributes. "Use kernel" sets every parameter of the selected kernel's prediction as one
/// undo step.
class KernelTableView : public QWidget
{
    Q_OBJECT
public:
    /// The table's columns, left to right.
    enum Column {
        Name,
        Id,
        Gbs,
        Predicted,
        Error,
        Limit,
        Warps,
        Duration,
        Z,
        ReqBytes,
        DramBytes,
        InFlight,
        L1Hit,
        L2Hit,
        Clock,
        MeasuredGops,
        PredictedGops,
        Bound,
        Grid,
        Block,
        ColumnCount
    };

    explicit KernelTableView(KernelState *kernels, QWidget *parent = nullptr);

    KernelState *kernels() const { return m_kernels; }
    /// Reads PATH into the KernelState (KernelState::loadFile()) and shows its kernels; returns the error
    /// (naming file, line and column), or an empty string.
    QString loadFile(const QString &path);
    /// No file: an empty table (opening a session, File > New Session); reportChanged() follows.
    void clear();
    /// The kernels' report, or none.
    const core::NcuReport *report() const;
    /// How many times the table was filled (tests: a hidden table waits).
    int refreshes() const { return m_refreshes; }

    /// Indices into report()->kernels of the selected rows, in table order.
    std::vector<std::size_t> selectedKernels() const;
    /// Sets every parameter the kernel's prediction used (clock, L at that clock, n, Z, m, request and DRAM
    /// bytes, hit rates and the cache mode), as one undo step: the X-graph then shows its operating point. A
    /// kernel without a prediction sets n (rounded, within [1, max_warps]) and Z where known. Does nothing
    /// for a kernel without warps.
    void useKernel(std::size_t index);

    QTableView *table() const { return m_table; }
    QLineEdit *filter() const { return m_filter; }
    QLabel *warningLabel() const { return m_warning; }
    /// The mean accuracy of the predictions beside the two rooflines' (hidden when no kernel has one).
    QLabel *accuracyLabel() const { return m_accuracy; }
    /// The selected kernel's full name and diagnosis (hidden while none is selected).
    QLabel *detailLabel() const { return m_detail; }
    QPushButton *useButton() const { return m_use; }
    QPushButton *switchButton() const { return m_switch; }
    QPushButton *makeProfileButton() const { return m_makeProfile; }
    QPushButton *openButton() const { return m_open; }

Q_SIGNALS:
    /// A file was read (report() changed).
    void reportChanged();
    /// The labels (as the imported ncu trace names its points: "short name [ID]") of the selected kernels,
    /// for the plots to highlight.
    void selectionChanged(const QStringList &labels);
    /// A short note for the status bar.
    void message(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();
    void updateButtons();
    void updateDetail();
    void openInteractively();

    KernelState *m_kernels;
    ParameterState *m_state;
    bool m_stale = false; ///< the predictions changed while the table was hidden
    int m_refreshes = 0;
    std::vector<const core::HardwareProfile *> m_matches;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLineEdit *m_filter;
    QLabel *m_warning;
    QLabel *m_accuracy;
    QLabel *m_detail;
    QPushButton *m_open;
    QPushButton *m_use;
    QPushButton *m_switch;
    QPushButton *m_makeProfile;
};

} // namespace crossroof::widgets
