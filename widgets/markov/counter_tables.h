// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tables of the counters dialog: how each is set up, and the table of the nine starting pairs.

#include "core/markov/markov_counters.h"

#include <QTableWidget>

#include <cstddef>
#include <optional>
#include <vector>

namespace crossroof::widgets {

/// Sets TABLE up with HEADERS (TIPS as their tooltips): columns fit their contents, STRETCH takes the width
/// left (event names are elided there), one line a row, Tab leaves the table.
void setUpCounterTable(QTableWidget *table, const QStringList &headers, const QStringList &tips, int stretch);

/// The columns of the suspend events' table (Table 4.4) and the stall events' (Table 4.5).
enum SuspendColumn { SuspendName, SuspendMulti, SuspendSingle, SuspendPec, SuspendComment };
enum StallColumn { StallName, StallCount, StallLatency, StallCycles, StallQ, StallComment };

/// Puts EVENTS into TABLE, one row each, their results' cells empty (without signals).
void fillSuspendTable(QTableWidget *table, const std::vector<core::SuspendEvent> &events);
void fillStallTable(QTableWidget *table, const std::vector<core::StallEvent> &events);
/// Shows the results of P in the suspend events' TABLE: each event's PEC, the lowest and highest, and the
/// rejected (PEC < 0) greyed with the PEC struck out; empty cells without P.
void showSuspendResults(QTableWidget *table, const std::optional<core::PEstimate> &p);
/// Shows the results of Q in the stall events' TABLE: stall cycles, q_i, the events with the fewest and the
/// most stall cycles.
void showStallResults(QTableWidget *table, const std::optional<core::QEstimate> &q);

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
