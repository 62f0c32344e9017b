// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_tables.h"

#include "common/number_format.h"
#include "common/plot_style.h"

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

} // namespace

void setUpCounterTable(QTableView *table, int stretch)
{
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

StartingPairsTable::StartingPairsTable(QWidget *parent)
    : QTableWidget(parent)
{
    const QStringList headers
            = {tr("p from"), tr("q from"), tr("p"), tr("q"), tr("Predicted CPI"), tr("|CPI − measured|")};
    const QStringList tips = {tr("Which entry of p's PEC vector"), tr("Which entry of q's PEC vector"),
                              tr("Probability that an active thread suspends"),
                              tr("Probability that a suspended thread stays suspended"),
                              tr("Steady-state CPI of the Markov model with this p and q in every cache group"),
                              tr("Distance from the measured CPI")};
    setColumnCount(int(headers.size()));
    for (int c = 0; c < headers.size(); ++c) {
        auto *header = new QTableWidgetItem(headers[c]);
        header->setToolTip(tips[c]);
        setHorizontalHeaderItem(c, header);
    }
    setUpCounterTable(this, Error);
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
