// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov_counters.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace crossroof::widgets {

/// The columns of the suspend events' table (Table 4.4) and the stall events' (Table 4.5).
enum SuspendColumn { SuspendName, SuspendMulti, SuspendSingle, SuspendPec, SuspendComment };
enum StallColumn { StallName, StallCount, StallLatency, StallCycles, StallQ, StallComment };

/// The events of one kind of the counters dialog as a table (Mitra's thesis, Tables 4.4 and 4.5): each
/// event's name and its two counts (E_multi and E_single of a suspend event, the count and latency m_i of a
/// stall event), editable, shown exactly, then the results of the last estimate, read-only: a suspend event's
/// PEC, the rejected ones (PEC < 0) greyed with the PEC struck out, or a stall event's stall cycles and q_i,
/// and which are the lowest and highest. Editing a cell, adding and removing rows change the events; a cell
/// that is no number is refused (refused() says why) and keeps its value.
class CounterEventsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Kind { Suspend, Stall };

    CounterEventsModel(Kind kind, QObject *parent = nullptr);

    Kind kind() const { return m_kind; }

    /// Shows EVENTS, their results' cells empty until the next estimate (resets the model).
    void setSuspendEvents(const std::vector<core::SuspendEvent> &events);
    void setStallEvents(const std::vector<core::StallEvent> &events);
    std::vector<core::SuspendEvent> suspendEvents() const;
    std::vector<core::StallEvent> stallEvents() const;

    /// Shows the results of P (suspend events) or Q (stall events); empty cells without them.
    void showSuspendResults(const std::optional<core::PEstimate> &p);
    void showStallResults(const std::optional<core::QEstimate> &q);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    /// Takes an edited name or count; refuses a count that is no finite number.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    /// New events with the core's defaults (no name, no occurrences, a latency of one cycle).
    bool insertRows(int row, int count, const QModelIndex &parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex &parent = {}) override;

Q_SIGNALS:
    /// A cell took a new value.
    void edited();
    /// An edited cell was no number: MESSAGE names the table, the row and the value it keeps.
    void refused(const QString &message);

private:
    /// One event, whichever its kind: the name and the two counts in the order of the columns.
    struct Row {
        std::string name;
        double values[2] = {0, 0};
        QStringList results; ///< the texts of the result columns, comment last
        bool rejected = false; ///< a suspend event with PEC < 0
    };
    static constexpr int kInputColumns = 3; ///< the name and the two counts
    void setRows(std::vector<Row> rows);
    void resultsChanged();

    Kind m_kind;
    std::vector<Row> m_rows;
    QStringList m_headers;
    QStringList m_tips;
};

} // namespace crossroof::widgets
