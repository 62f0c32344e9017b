// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/advisor.h"

#include <QList>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QTableWidget;

namespace crossroof::widgets {

class ParameterState;

/// The what-if advisor (the X-model paper, section VI): the paper's tuning operations for the current parameters,
/// ranked by their predicted compute throughput gain (from the low stable state when the machine is bistable),
/// each row with what it changes by how much ("n 48 → 29 warps") and its gain from the operating point and,
/// when bistable, from the low state; operations that tie say why. Each applies as one undo step or is drawn
/// over the X-graph as a comparison, several at once (each Compare adds the selected rows), the panel saying
/// where each one's operating point lands; below them how far the throughput can fall where the machine is
/// bistable.
class AdvisorPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AdvisorPanel(ParameterState *state, QWidget *parent = nullptr);

    /// The table's columns.
    enum Column { OperationColumn, ChangeColumn, GainColumn, OperatingPointGainColumn, MsChangeColumn };

    QTableWidget *table() const { return m_table; }

    /// Shows ADVICE: the operations ranked, the basis of their gains, how far the throughput can fall.
    void showAdvice(const core::Advice &advice);
    /// Applies the operation in row ROW of the table (one undo step).
    void applyAdvice(int row);
    /// Adds the operation in row ROW to the what-ifs over the current X-graph (compare mode; one compared
    /// before is drawn for the parameters now, in its place) and says where each one's operating point lands
    /// (comparisonShown); -1 takes the advisor's what-ifs off (another's stay).
    void compareAdvice(int row);
    /// Compare on X-graph: adds every selected row's operation.
    void compareSelected();

Q_SIGNALS:
    /// A what-if was drawn on the X-graph; TEXT says which and where its operating point lies.
    void comparisonShown(const QString &text);

private:
    ParameterState *m_state;
    QTableWidget *m_table;
    QLabel *m_detail;
    QLabel *m_basis; ///< where the gains are measured from: the operating point, or the low state when bistable
    QLabel *m_ties;        ///< which rows tie and why
    QLabel *m_comparison;  ///< the what-if drawn on the X-graph and where its operating point is
    QLabel *m_degradation;
    std::vector<core::TuningAdvice> m_rows; ///< each row's operation, in table order
    core::Advice m_advice;                  ///< what the rows were computed for (without its operations)
    /// The operations drawn on the X-graph by compareAdvice(), with the label each gave its what-if, in the
    /// order they were compared; new advice (the parameters moved) draws them again for the new parameters, or
    /// takes off those that no longer apply.
    struct Compared
    {
        std::string name;
        QString label;
    };
    std::vector<Compared> m_compared;

    QString labelOf(const core::TuningAdvice &op) const;
    /// "what-if (LABEL): its operating point lies at k = ... (now ...)".
    QString landingText(const core::TuningAdvice &op) const;
    /// The note under the table, one line per what-if of this panel (hidden without one).
    void showComparedText();
    void compareRows(const QList<int> &rows);
    void redrawCompared();
};

} // namespace crossroof::widgets
