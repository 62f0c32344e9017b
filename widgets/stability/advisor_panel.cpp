// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/advisor_panel.h"

#include "common/markup_delegate.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/qt_text.h"
#include "common/symbol_text.h"
#include "core/xmodel/advisor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// "+127 Gop/s (+18 %)", "+4.04 Top/s (+25 %)": a difference of two full evaluations, given in G (UNIT is the
/// unprefixed one, "op/s" or "B/s") and shown under the SI prefix that suits it; round-off shown as none.
QString signedText(double v, std::optional<double> percent, const QString &unit)
{
    if (std::abs(v) < 1e-6)
        v = 0;
    if (percent && std::abs(*percent) < 1e-6)
        percent = 0.0;
    QString text = (v >= 0 ? QStringLiteral("+") : QString()) + formatQuantity(v, unit, si::giga, 3);
    if (percent)
        text += QStringLiteral(" (%1%2 %)").arg(*percent >= 0 ? QStringLiteral("+") : QString(),
                                                formatNumber(*percent, 3));
    return text;
}

/// "n 48 → 40 warps, b 0 → 0.3".
QString changesText(const core::TuningAdvice &op)
{
    QStringList changes;
    for (const auto &c : op.changes)
        changes << QString::fromStdString(core::describeChange(c, " → "));
    return changes.join(QStringLiteral(", "));
}

/// changesText() as markup, each symbol with its subscript ("S_{s} 16 → 32 KiB"), for the table's cells.
QString changesMarkup(const core::TuningAdvice &op)
{
    QStringList changes;
    for (const auto &c : op.changes) {
        const QString text = QString::fromStdString(core::describeChange(c, " → "));
        const core::ParameterInfo *info = core::findParameter(c.key);
        const QString symbol = qs(info ? info->symbol : c.key);
        changes << (text.startsWith(symbol + QLatin1Char(' '))
                            ? symbol_text::fromSymbol(symbol) + symbol_text::literal(text.mid(symbol.size()))
                            : symbol_text::literal(text));
    }
    return changes.join(QStringLiteral(", "));
}

QString namesText(const std::vector<std::string_view> &names)
{
    QStringList list;
    for (std::string_view name : names)
        list << qs(name);
    if (list.size() < 2)
        return list.join(QString());
    const QString last = list.takeLast();
    return AdvisorPanel::tr("%1 and %2").arg(list.join(QStringLiteral(", ")), last);
}

} // namespace

AdvisorPanel::AdvisorPanel(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels(
            {tr("Operation"), tr("Change"), tr("CS gain"), tr("From the\noperating point"), tr("MS change")});
    m_table->horizontalHeaderItem(ChangeColumn)->setToolTip(tr("What the operation changes, by how much"));
    m_table->setItemDelegateForColumn(ChangeColumn, new MarkupDelegate(m_table)); // "S_{s}" with its subscript
    m_table->horizontalHeaderItem(OperatingPointGainColumn)
            ->setToolTip(tr("The CS gain counted from the operating point the machine has from a cold start"));
    // The gains whole on one line; the operation's name takes the rest of the width and wraps if it must.
    m_table->horizontalHeader()->setSectionResizeMode(OperationColumn, QHeaderView::Stretch);
    for (int c : {ChangeColumn, GainColumn, OperatingPointGainColumn, MsChangeColumn})
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several rows at once (Ctrl, Shift) are compared together on the X-graph.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->setToolTip(tr("The tuning operations of the X-model paper's case study (section VI), ranked "
                           "by compute throughput gain. Each gain is the difference of two full model "
                           "evaluations. Double-click to apply."));
    auto *apply = new QPushButton(tr("&Apply Selected"), this);
    apply->setObjectName(QStringLiteral("AdvisorApply"));
    apply->setToolTip(tr("Set the parameters of the selected operation (one undo step)"));
    auto *compare = new QPushButton(tr("&Compare on X-graph"), this);
    compare->setObjectName(QStringLiteral("AdvisorCompare"));
    compare->setToolTip(tr("Draw the selected operations' f(k) and G(n-k) over the current X-graph, dashed, "
                           "each in its own colour with its operating point and a legend entry naming it (the "
                           "paper's Figs. 12-17); those compared before stay, so several can be compared at "
                           "once"));
    auto *clearCompare = new QPushButton(tr("C&lear"), this);
    clearCompare->setToolTip(tr("Remove the advisor's what-ifs from the X-graph"));
    m_basis = new QLabel(this);
    m_basis->setObjectName(QStringLiteral("AdvisorBasis"));
    m_basis->setWordWrap(true);
    m_ties = new QLabel(this);
    m_ties->setObjectName(QStringLiteral("AdvisorTies"));
    m_ties->setWordWrap(true);
    m_comparison = new QLabel(this);
    m_comparison->setObjectName(QStringLiteral("AdvisorComparison"));
    m_comparison->setWordWrap(true);
    m_comparison->hide();
    m_degradation = new QLabel(this);
    m_degradation->setWordWrap(true);
    m_detail = new QLabel(this);
    m_detail->setWordWrap(true);
    m_detail->setMinimumHeight(60);
    m_detail->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // The buttons under the title, above the rows: in sight with the table in a short window, where below
    // the explanations they were under the fold.
    layout->addWidget(new QLabel(tr("<b>What-if advisor</b>"), this));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(apply);
    buttons->addWidget(compare);
    buttons->addWidget(clearCompare);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addWidget(m_basis);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_comparison);
    layout->addWidget(m_ties);
    layout->addWidget(m_detail);
    layout->addWidget(m_degradation);

    connect(apply, &QPushButton::clicked, this, [this] { applyAdvice(m_table->currentRow()); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyAdvice(row); });
    connect(compare, &QPushButton::clicked, this, [this] { compareSelected(); });
    connect(clearCompare, &QPushButton::clicked, this, [this] { compareAdvice(-1); });
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        const QTableWidgetItem *item = row >= 0 ? m_table->item(row, 0) : nullptr;
        m_detail->setText(item ? item->data(Qt::UserRole).toString() : QString());
    });
    connect(m_state, &ParameterState::comparisonChanged, this, [this] {
        if (m_state->comparisons().empty())
            m_comparison->hide();
    });
}

void AdvisorPanel::showAdvice(const core::Advice &advice)
{
    m_table->setRowCount(0);
    m_rows.clear();
    m_advice = advice;
    m_advice.operations.clear();
    std::vector<const core::TuningAdvice *> ordered;
    for (const auto &op : advice.operations)
        ordered.push_back(&op);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto *a, const auto *b) {
        return (a->rank > 0 ? a->rank : 1000) < (b->rank > 0 ? b->rank : 1000);
    });
    const bool low = advice.from_low_state;
    // The low state's column only where there is one; otherwise the gain is the operating point's.
    // Headers on two lines, as the gains below them: the columns as narrow as their numbers.
    m_table->horizontalHeaderItem(GainColumn)->setText(low ? tr("From the\nlow state") : tr("CS gain"));
    m_table->horizontalHeaderItem(GainColumn)
            ->setToolTip(low ? tr("The CS gain counted from the low (thrashed) state, where a perturbation "
                                  "beyond the margin leaves the machine: the ranking's measure")
                             : tr("The CS gain counted from the operating point"));
    m_table->setColumnHidden(OperatingPointGainColumn, !low);
    QStringList tieGroups;
    std::vector<std::string_view> named; // operations already in a tie group
    for (const auto *op : ordered) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QString change = op->applicable ? changesMarkup(*op) : QString();
        auto *name = new QTableWidgetItem((op->rank > 0 ? QStringLiteral("%1. ").arg(op->rank) : QString())
                                          + qs(op->name));
        QString detail = op->applicable
            ? tr("<b>%1</b> (%2). Principle %3: %4")
                      .arg(qs(op->name), symbol_text::html(change))
                      .arg(op->principle)
                      .arg(QString::fromStdString(op->why).toHtmlEscaped())
            : tr("<b>%1</b> does not apply: %2").arg(qs(op->name), QString::fromStdString(op->reason).toHtmlEscaped());
        if (op->applicable && low) {
            detail += tr("<br>From the low state: CS %1, MS %2; %n stable state(s) after. From the "
                         "operating point: CS %3, MS %4.",
                         nullptr, op->stable_count)
                              .arg(signedText(op->low_cs_change_gops, op->low_cs_change_percent, tr("op/s")),
                                   signedText(op->low_ms_change_gbs, op->low_ms_change_percent, tr("B/s")),
                                   signedText(op->cs_change_gops, op->cs_change_percent, tr("op/s")),
                                   signedText(op->ms_change_gbs, op->ms_change_percent, tr("B/s")));
        }
        if (op->applicable && !op->ties.empty()) {
            detail += tr("<br>Ties with %1: %2.")
                              .arg(namesText(op->ties).toHtmlEscaped(),
                                   QString::fromStdString(op->tie_reason).toHtmlEscaped());
            if (std::find(named.begin(), named.end(), op->name) == named.end()) {
                std::vector<std::string_view> group{op->name};
                group.insert(group.end(), op->ties.begin(), op->ties.end());
                named.insert(named.end(), group.begin(), group.end());
                tieGroups << tr("%1 tie at %2: %3.")
                                     .arg(namesText(group),
                                          low ? signedText(op->low_cs_change_gops, op->low_cs_change_percent,
                                                           tr("op/s"))
                                              : signedText(op->cs_change_gops, op->cs_change_percent, tr("op/s")),
                                          QString::fromStdString(op->tie_reason));
            }
        }
        name->setData(Qt::UserRole, detail);
        m_table->setItem(row, OperationColumn, name);
        m_table->setItem(row, ChangeColumn, new QTableWidgetItem(op->applicable ? change : tr("none")));
        const QString cs = !op->applicable ? tr("n/a")
                : low ? signedText(op->low_cs_change_gops, op->low_cs_change_percent, tr("op/s"))
                      : signedText(op->cs_change_gops, op->cs_change_percent, tr("op/s"));
        const QString fromOperatingPoint = !op->applicable
                ? QString()
                : signedText(op->cs_change_gops, op->cs_change_percent, tr("op/s"));
        const QString ms = !op->applicable ? QString()
                : low ? signedText(op->low_ms_change_gbs, op->low_ms_change_percent, tr("B/s"))
                      : signedText(op->ms_change_gbs, op->ms_change_percent, tr("B/s"));
        // A gain and its percentage on two lines: the three gains' columns then leave the map its half of the
        // view's width (on one line they took the table to 700 pixels).
        const auto twoLines = [](QString text) { return text.replace(QStringLiteral(" ("), QStringLiteral("\n(")); };
        m_table->setItem(row, GainColumn, new QTableWidgetItem(twoLines(cs)));
        m_table->setItem(row, OperatingPointGainColumn, new QTableWidgetItem(twoLines(fromOperatingPoint)));
        m_table->setItem(row, MsChangeColumn, new QTableWidgetItem(twoLines(ms)));
        for (int c = 0; c < m_table->columnCount(); ++c) {
            m_table->item(row, c)->setToolTip(detail);
            if (!op->applicable)
                m_table->item(row, c)->setForeground(QColor(0x88, 0x88, 0x88));
        }
        m_rows.push_back(*op);
    }
    m_ties->setText(tieGroups.join(QLatin1Char(' ')));
    m_ties->setVisible(!tieGroups.isEmpty());
    if (advice.from_low_state) {
        m_basis->setText(tr("Bistable: the machine runs at %1 from a cold start, but a perturbation beyond "
                            "the margin leaves it in the low state, k = %2 warps, %3, %4, and it stays there. "
                            "The ranking counts the gains from that state.")
                                 .arg(formatQuantity(advice.cs_gops, QStringLiteral("op/s"), si::giga, 4),
                                      formatNumber(advice.low_k, 3),
                                      formatQuantity(advice.low_ms_gbs, QStringLiteral("B/s"), si::giga, 4),
                                      formatQuantity(advice.low_cs_gops, QStringLiteral("op/s"), si::giga, 4)));
    } else {
        m_basis->setText(tr("Gains at the operating point, %1.")
                                 .arg(formatQuantity(advice.cs_gops, QStringLiteral("op/s"), si::giga, 4)));
    }
    m_table->resizeRowsToContents();
    if (m_table->rowCount() > 0)
        m_table->setCurrentCell(0, 0);
    // The what-ifs of this panel still on the X-graph are the same operations for the new parameters: drawn
    // again for them, or taken off where they no longer apply. Another's comparisons are left alone.
    if (!m_compared.empty())
        redrawCompared();
    const auto &d = advice.degradation;
    QString text;
    if (advice.stable_count >= 2) {
        text = tr("Bistable: adding warps can drop the throughput by at most %1 GB/s (min(M/Z, highest f) − "
                  "lowest f past the cache peak).")
                       .arg(formatNumber(d.max_gbs));
        if (d.min_drop_gbs && d.tangency_n && *d.min_drop_gbs > 1e-3)
            text += tr(" The smallest drop, at the tangency (n = %1), is %2 GB/s.")
                            .arg(formatNumber(*d.tangency_n), formatNumber(*d.min_drop_gbs));
        else if (d.tangency_n)
            text += tr(" The second state appears at n = %1 with no drop at first: the demand meets f at a "
                       "corner.")
                            .arg(formatNumber(*d.tangency_n));
    } else {
        text = tr("One stable state: no fall to a lower state is possible here.");
    }
    m_degradation->setText(text);
}

QString AdvisorPanel::labelOf(const core::TuningAdvice &op) const
{
    return tr("%1, %2").arg(qs(op.name), changesText(op));
}

QString AdvisorPanel::landingText(const core::TuningAdvice &op) const
{
    QString text = tr("what-if (%1): its operating point lies at k = %2 warps, %3, %4 (now k = %5 warps, %6)")
                           .arg(labelOf(op), formatNumber(op.k, 3),
                                formatQuantity(op.ms_gbs, QStringLiteral("B/s"), si::giga, 4),
                                formatQuantity(op.cs_gops, QStringLiteral("op/s"), si::giga, 4),
                                formatNumber(m_advice.k, 3),
                                formatQuantity(m_advice.cs_gops, QStringLiteral("op/s"), si::giga, 4));
    if (m_advice.from_low_state) {
        text += op.stable_count >= 2
                ? tr("; its low state at k = %1 warps, %2 (now k = %3 warps, %4)")
                          .arg(formatNumber(op.low_k, 3),
                               formatQuantity(op.low_cs_gops, QStringLiteral("op/s"), si::giga, 4),
                               formatNumber(m_advice.low_k, 3),
                               formatQuantity(m_advice.low_cs_gops, QStringLiteral("op/s"), si::giga, 4))
                : tr("; the low state at k = %1 warps is gone").arg(formatNumber(m_advice.low_k, 3));
    }
    return text + QLatin1Char('.');
}

void AdvisorPanel::showComparedText()
{
    QStringList lines;
    for (const Compared &c : m_compared) {
        const auto op = std::find_if(m_rows.begin(), m_rows.end(),
                                     [&c](const core::TuningAdvice &row) { return row.name == c.name; });
        if (op != m_rows.end())
            lines << landingText(*op);
    }
    if (lines.isEmpty()) {
        m_comparison->hide();
        return;
    }
    const QString text = tr("On the X-graph, dashed: %1").arg(lines.join(QLatin1Char('\n')));
    m_comparison->setText(text);
    m_comparison->show();
    Q_EMIT comparisonShown(text);
}

void AdvisorPanel::compareSelected()
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    if (rows.isEmpty() && m_table->currentRow() >= 0)
        rows << m_table->currentRow();
    std::sort(rows.begin(), rows.end());
    compareRows(rows);
}

void AdvisorPanel::compareAdvice(int row)
{
    if (row < 0) {
        // Only the advisor's what-ifs go; another's (a session's) stay.
        std::vector<ParameterState::WhatIf> others;
        for (const auto &w : m_state->comparisons()) {
            if (std::none_of(m_compared.begin(), m_compared.end(),
                             [&w](const Compared &c) { return c.label == w.label; }))
                others.push_back(w);
        }
        m_compared.clear();
        m_state->setComparisons(std::move(others));
        m_comparison->hide();
        return;
    }
    compareRows({row});
}

void AdvisorPanel::compareRows(const QList<int> &rows)
{
    std::vector<ParameterState::WhatIf> next = m_state->comparisons();
    bool added = false;
    for (int row : rows) {
        if (row < 0 || std::size_t(row) >= m_rows.size() || !m_rows[std::size_t(row)].applicable)
            continue;
        const core::TuningAdvice &op = m_rows[std::size_t(row)];
        const QString label = labelOf(op);
        // An operation compared again takes its place among the others, for the parameters now.
        const auto mine = std::find_if(m_compared.begin(), m_compared.end(),
                                       [&op](const Compared &c) { return c.name == op.name; });
        const QString old = mine != m_compared.end() ? mine->label : label;
        const auto drawn = std::find_if(next.begin(), next.end(),
                                        [&old](const ParameterState::WhatIf &w) { return w.label == old; });
        if (drawn != next.end())
            *drawn = {op.params, label};
        else
            next.push_back({op.params, label});
        if (mine != m_compared.end())
            mine->label = label;
        else
            m_compared.push_back({std::string(op.name), label});
        added = true;
    }
    if (!added)
        return;
    m_state->setComparisons(std::move(next));
    showComparedText();
}

void AdvisorPanel::redrawCompared()
{
    std::vector<ParameterState::WhatIf> next;
    std::vector<Compared> kept;
    for (const auto &w : m_state->comparisons()) {
        const auto mine = std::find_if(m_compared.begin(), m_compared.end(),
                                       [&w](const Compared &c) { return c.label == w.label; });
        if (mine == m_compared.end()) {
            next.push_back(w); // someone else's
            continue;
        }
        const auto op = std::find_if(m_rows.begin(), m_rows.end(),
                                     [&mine](const core::TuningAdvice &row) { return row.name == mine->name; });
        if (op == m_rows.end() || !op->applicable)
            continue; // no longer applies: taken off
        next.push_back({op->params, labelOf(*op)});
        kept.push_back({std::string(op->name), labelOf(*op)});
    }
    m_compared = std::move(kept);
    m_state->setComparisons(std::move(next));
    showComparedText();
}

void AdvisorPanel::applyAdvice(int row)
{
    if (row < 0 || std::size_t(row) >= m_rows.size() || !m_rows[std::size_t(row)].applicable)
        return;
    const core::XModelParams target = m_rows[std::size_t(row)].params;
    if (target == m_state->params())
        return;
    m_state->undoStack()->beginMacro(tr("Apply %1").arg(m_table->item(row, 0)->text()));
    for (const auto &info : core::parameterInfos())
        m_state->applyValue(qs(info.key), target.*(info.member));
    m_state->applyCacheMode(target.cache);
    m_state->undoStack()->endMacro();
    compareAdvice(-1); // the what-ifs were of the parameters before
}

} // namespace crossroof::widgets
