// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tables of the counters dialog: how each is set up, and the table of the nine starting pairs (the event
// tables' model is CounterEventsModel).

#include "core/markov/markov_counters.h"

#include <QTableWidget>

#include <cstddef>
#include <optional>
#include <vector>

namespace crossroof::widgets {

/// Sets up TABLE, its model and headers set: columns fit their contents, STRETCH takes the width left (event
/// names are elided there), one line a row, Tab leaves the table.
void setUpCounterTable(QTableView *table, int stretch);

/// An empty cell for a result.
QTableWidgetItem *readOnlyItem();

/// The nine starting pairs (Mitra's thesis, 4.3.1) in the thesis' order (rows a-i): which entry of
/// each PEC vector they take, p and q, the CPI predicted for them and, with a measured CPI, the distance from
/// it. The pair nearest the measured CPI is bold, highlighted and current. Read-only, one row selected.
class StartingPairsTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column { PKind, QKind, P, Q, Cpi, Error };

    explicit StartingPairsTable(QWidget *parent);

    /// Shows PAIRS with their CPI (none: the kinds only); NEAREST is the pair nearest MEASURED.
    void showPairs(const std::vector<core::StartingPair> &pairs, const std::vector<double> &cpi,
                   std::optional<std::size_t> nearest, std::optional<double> measured);
};

} // namespace crossroof::widgets
