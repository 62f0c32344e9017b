// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/advisor.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace crossroof::widgets {

class ParameterState;

/// The what-if advisor (the X-model paper, section VI): the paper's tuning operations for the current parameters,
/// ranked by their predicted compute throughput gain (from the low stable state when the machine is bistable),
/// each applicable as one undo step or drawn over the X-graph as a comparison; below them how far the
/// throughput can fall where the machine is bistable.
class AdvisorPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AdvisorPanel(ParameterState *state, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }

    /// Shows ADVICE: the operations ranked, the basis of their gains, how far the throughput can fall.
    void showAdvice(const core::Advice &advice);
    /// Applies the operation in row ROW of the table (one undo step).
    void applyAdvice(int row);
    /// Shows the operation in row ROW as a what-if over the current X-graph (compare mode); -1 clears it.
    void compareAdvice(int row);

private:
    ParameterState *m_state;
    QTableWidget *m_table;
    QLabel *m_detail;
    QLabel *m_basis; ///< where the gains are measured from: the operating point, or the low state when bistable
    QLabel *m_degradation;
    std::vector<core::XModelParams> m_params; ///< what each row's operation sets (the current ones if n/a)
};

} // namespace crossroof::widgets
