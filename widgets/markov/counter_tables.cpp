// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_tables.h"

#include "common/number_format.h"
#include "common/plot_style.h"

#include <QCoreApplication>
#include <QHeaderView>

#include <cmath>

namespace crossroof::widgets {

namespace {

QString kindText(core::PecKind kind)
{
    switch (kind) {
    case core::PecKind::Lowest:
        return StartingPairsTable::tr("lowest PEC");
    case core::PecKind::Highest:
        return StartingPairsTable::tr("highest PEC");
    case core::PecKind::All:
        return StartingPairsTable::tr("all events");
    }
    return {};
}

/// "Lowest PEC", "Highest PEC" as Tables 4.4 and 4.5 mark them, or nothing.
QString extremeText(const core::PecVector &v, std::size_t index)
{
    const bool lowest = v.lowest_event == index;
    const bool highest = v.highest_event == index;
    if (lowest && highest)
        return QCoreApplication::translate("CountersDialog", "Lowest and highest PEC");
    if (lowest)
        return QCoreApplication::translate("CountersDialog", "Lowest PEC");
    if (highest)
        return QCoreApplication::translate("CountersDialog", "Highest PEC");
    return {};
}

} // namespace

void setUpCounterTable(QTableWidget *table, const QStringList &headers, const QStringList &tips, int stretch)
{
    table->setColumnCount(int(headers.size()));
    for (int c = 0; c < headers.size(); ++c) {
        auto *item = new QTableWidgetItem(headers[c]);
        item->setToolTip(tips[c]);
        table->setHorizontalHeaderItem(c, item);
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(stretch, QHeaderView::Stretch);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false); // one elided line, not the first of several ("cha/event=0x34,umask=...")
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    // Tab leaves the table (arrow keys move between cells, F2 or typing edits), so the dialog's tab
    // order works.
    table->setTabKeyNavigation(false);
    table->setAlternatingRowColors(true);
}

QTableWidgetItem *readOnlyItem()
{
    auto *item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

void fillSuspendTable(QTableWidget *table, const std::vector<core::SuspendEvent> &events)
{
    const QSignalBlocker block(table);
    table->setRowCount(int(events.size()));
    for (int r = 0; r < table->rowCount(); ++r) {
        const auto &e = events[std::size_t(r)];
        auto *name = new QTableWidgetItem(QString::fromStdString(e.name));
        name->setToolTip(name->text()); // perf's event names can be long
        table->setItem(r, SuspendName, name);
        table->setItem(r, SuspendMulti, new QTableWidgetItem(formatExact(e.multi)));
        table->setItem(r, SuspendSingle, new QTableWidgetItem(formatExact(e.single)));
        table->setItem(r, SuspendPec, readOnlyItem());
        table->setItem(r, SuspendComment, readOnlyItem());
    }
}

void fillStallTable(QTableWidget *table, const std::vector<core::StallEvent> &events)
{
    const QSignalBlocker block(table);
    table->setRowCount(int(events.size()));
    for (int r = 0; r < table->rowCount(); ++r) {
        const auto &e = events[std::size_t(r)];
        table->setItem(r, StallName, new QTableWidgetItem(QString::fromStdString(e.name)));
        table->setItem(r, StallCount, new QTableWidgetItem(formatExact(e.count)));
        table->setItem(r, StallLatency, new QTableWidgetItem(formatExact(e.latency)));
        table->setItem(r, StallCycles, readOnlyItem());
        table->setItem(r, StallQ, readOnlyItem());
        table->setItem(r, StallComment, readOnlyItem());
    }
}

void showSuspendResults(QTableWidget *table, const std::optional<core::PEstimate> &p)
{
    const QSignalBlocker block(table);
    const QColor rejected = table->palette().color(QPalette::Disabled, QPalette::Text);
    for (int r = 0; r < table->rowCount(); ++r) {
        const std::size_t i = std::size_t(r);
        const bool reject = p && p->rejected[i];
        table->item(r, SuspendPec)->setText(p ? formatNumber(p->pec[i]) : QString());
        table->item(r, SuspendComment)
                ->setText(!p       ? QString()
                          : reject ? QCoreApplication::translate("CountersDialog", "Reject (PEC < 0)")
                                   : extremeText(p->vector, i));
        for (int c = 0; c < table->columnCount(); ++c) {
            QTableWidgetItem *item = table->item(r, c);
            item->setData(Qt::ForegroundRole, reject ? QVariant(rejected) : QVariant());
            QFont font = item->font();
            font.setStrikeOut(reject && c == SuspendPec);
            item->setFont(font);
        }
    }
}

void showStallResults(QTableWidget *table, const std::optional<core::QEstimate> &q)
{
    const QSignalBlocker block(table);
    for (int r = 0; r < table->rowCount(); ++r) {
        const std::size_t i = std::size_t(r);
        table->item(r, StallCycles)->setText(q ? formatNumber(q->cycles[i]) : QString());
        table->item(r, StallQ)->setText(q ? formatNumber(q->q[i]) : QString());
        QString comment;
        if (q)
            comment = q->cycles[i] > 0 ? extremeText(q->vector, i)
                                       : QCoreApplication::translate("CountersDialog", "No stall cycles");
        table->item(r, StallComment)->setText(comment);
    }
}

StartingPairsTable::StartingPairsTable(QWidget *parent)
    : QTableWidget(parent)
{
    setUpCounterTable(
            this, {tr("p from"), tr("q from"), tr("p"), tr("q"), tr("Predicted CPI"), tr("|CPI − measured|")},
            {tr("Which entry of p's PEC vector"), tr("Which entry of q's PEC vector"),
             tr("Probability that an active thread suspends"),
             tr("Probability that a suspended thread stays suspended"),
             tr("Steady-state CPI of the Markov model with this p and q in every cache group"),
             tr("Distance from the measured CPI")},
            Error);
    setAccessibleName(tr("Starting pairs"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setRowCount(9);
    setVerticalHeaderLabels({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                             QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("f"),
                             QStringLiteral("g"), QStringLiteral("h"), QStringLiteral("i")});
    for (int r = 0; r < 9; ++r) {
        for (int c = 0; c < columnCount(); ++c)
            setItem(r, c, readOnlyItem());
    }
    setFixedHeight(horizontalHeader()->sizeHint().height() + 9 * verticalHeader()->defaultSectionSize()
                   + 2 * frameWidth());
}

void StartingPairsTable::showPairs(const std::vector<core::StartingPair> &pairs,
                                   const std::vector<double> &cpi, std::optional<std::size_t> nearest,
                                   std::optional<double> measured)
{
    // The kinds come from the core, in its order, whether or not there are values.
    const auto kinds = core::startingPairs({}, {});
    const QColor highlight(plot_style::kSky.red(), plot_style::kSky.green(), plot_style::kSky.blue(), 90);
    for (int r = 0; r < rowCount(); ++r) {
        const std::size_t i = std::size_t(r);
        const bool have = !pairs.empty();
        const bool isNearest = nearest == i;
        const QString cpiText = !have                ? QString()
                                : std::isinf(cpi[i]) ? tr("∞ (absorbing)")
                                                     : formatNumber(cpi[i]);
        const QString error = nearest ? formatNumber(std::abs(cpi[i] - *measured)) : QString();
        const QString texts[] = {kindText(kinds[i].p_kind),
                                 kindText(kinds[i].q_kind),
                                 have ? formatNumber(pairs[i].p) : QString(),
                                 have ? formatNumber(pairs[i].q) : QString(),
                                 cpiText,
                                 error};
        for (int c = 0; c < columnCount(); ++c) {
            QTableWidgetItem *cell = item(r, c);
            cell->setText(texts[c]);
            QFont font = cell->font();
            font.setBold(isNearest);
            cell->setFont(font);
            cell->setData(Qt::BackgroundRole, isNearest ? QVariant(highlight) : QVariant());
            cell->setToolTip(isNearest ? tr("Nearest to the measured CPI") : QString());
        }
    }
}

} // namespace crossroof::widgets
