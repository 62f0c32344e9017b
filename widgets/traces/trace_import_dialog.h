// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "state/trace_state.h"

#include <QDialog>

#include <optional>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QTableWidget;

namespace crossroof::widgets {

/// The column mapping for a generic table (CSV, TSV, aligned columns): which column is x, which is y, an
/// optional extra column (Z, T or a second connection) and label column, an optional filter COLUMN = VALUE,
/// and the kind of trace. A preview shows the first rows with the chosen columns marked. The choices are
/// remembered per header (QSettings), so the next file of the same shape needs only OK.
/// Non-blocking: open() it and read traces() after accepted(); tests call setMapping() and accept().
class TraceImportDialog : public QDialog
{
    Q_OBJECT
public:
    /// Rows the preview shows.
    static constexpr int kPreviewRows = 20;

    explicit TraceImportDialog(core::CsvTable table, QWidget *parent = nullptr);

    const core::CsvTable &table() const { return m_table; }
    TraceMapping mapping() const;
    /// Sets every choice; unknown column names leave that choice at "(none)".
    void setMapping(const TraceMapping &mapping);
    /// The traces of the accepted mapping (empty before accept() succeeds).
    const std::vector<core::MeasuredTrace> &traces() const { return m_traces; }
    /// Why the last accept() did not close the dialog; empty if it did.
    const QString &error() const { return m_error; }

    /// Builds the traces; on success remembers the mapping and closes, else shows the error and stays open.
    void accept() override;

    /// The key the choices are remembered under: a hash of the column names.
    static QString headerSignature(const std::vector<std::string> &header);
    /// The choices last accepted for a table with this header, if any.
    static std::optional<TraceMapping> rememberedMapping(const std::vector<std::string> &header);
    /// A first guess from the column names (warps, GB/s, time, B_r, ...).
    static TraceMapping guessMapping(const std::vector<std::string> &header);

    QComboBox *kindBox() const { return m_kind; }
    QComboBox *xBox() const { return m_x; }
    QComboBox *yBox() const { return m_y; }
    QComboBox *extraBox() const { return m_extra; }
    QComboBox *labelBox() const { return m_label; }
    QComboBox *filterColumnBox() const { return m_filterColumn; }
    QComboBox *filterValueBox() const { return m_filterValue; }
    QTableWidget *preview() const { return m_preview; }

private:
    void updateForKind();
    void updateFilterValues();
    void markPreview();
    static QString columnChoice(const QComboBox *box);
    static void selectColumn(QComboBox *box, const QString &name);

    core::CsvTable m_table;
    QComboBox *m_kind;
    QComboBox *m_x;
    QComboBox *m_y;
    QComboBox *m_extra;
    QComboBox *m_label;
    QComboBox *m_filterColumn;
    QComboBox *m_filterValue;
    QLabel *m_xLabel;
    QLabel *m_yLabel;
    QLabel *m_extraLabel;
    QLabel *m_labelLabel;
    QLabel *m_hint;
    QTableWidget *m_preview;
    QLabel *m_errorLabel;
    QDialogButtonBox *m_buttons;
    std::vector<core::MeasuredTrace> m_traces;
    QString m_error;
};

} // namespace crossroof::widgets
