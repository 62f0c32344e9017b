// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_events_model.h"

#include "common/number_format.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <utility>

namespace crossroof::widgets {

namespace {

/// "Lowest PEC", "Highest PEC" as Tables 4.4 and 4.5 mark them, or nothing.
QString extremeText(const core::PecVector &v, std::size_t index)
{
    const bool lowest = v.lowest_event == index;
    const bool highest = v.highest_event == index;
    if (lowest && highest)
        return CounterEventsModel::tr("Lowest and highest PEC");
    if (lowest)
        return CounterEventsModel::tr("Lowest PEC");
    if (highest)
        return CounterEventsModel::tr("Highest PEC");
    return {};
}

} // namespace

CounterEventsModel::CounterEventsModel(Kind kind, QObject *parent)
    : QAbstractTableModel(parent)
    , m_kind(kind)
{
    if (kind == Suspend) {
        m_headers = {tr("Event"), tr("E_multi"), tr("E_single"), tr("PEC for p"), tr("Comment")};
        m_tips = {tr("Performance event"), tr("Occurrences in the multi-threaded run"),
                  tr("Occurrences in the single-threaded run of the same work"),
                  tr("(E_multi − E_single) / instructions retired; events with a negative PEC are rejected: "
                     "they cause no stalls"),
                  tr("Lowest and highest accepted PEC, rejected events (Table 4.4)")};
    } else {
        m_headers = {tr("Event"), tr("Count"), tr("Latency m_i"), tr("Stall cycles c_i"), tr("q_i"),
                     tr("Comment")};
        m_tips = {tr("Performance event"), tr("Occurrences"),
                  tr("Average stall cycles per occurrence (>= 1)"),
                  tr("c_i = count · m_i, the event's weight in M"), tr("q_i = 1 − 1/m_i (Eq. 7)"),
                  tr("The events with the fewest and the most stall cycles (Table 4.5)")};
    }
}

void CounterEventsModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    for (Row &r : m_rows)
        r.results = QStringList(columnCount() - kInputColumns, QString());
    endResetModel();
}

void CounterEventsModel::setSuspendEvents(const std::vector<core::SuspendEvent> &events)
{
    std::vector<Row> rows;
    for (const core::SuspendEvent &e : events)
        rows.push_back({e.name, {e.multi, e.single}, {}, false});
    setRows(std::move(rows));
}

void CounterEventsModel::setStallEvents(const std::vector<core::StallEvent> &events)
{
    std::vector<Row> rows;
    for (const core::StallEvent &e : events)
        rows.push_back({e.name, {e.count, e.latency}, {}, false});
    setRows(std::move(rows));
}

std::vector<core::SuspendEvent> CounterEventsModel::suspendEvents() const
{
    std::vector<core::SuspendEvent> events;
    for (const Row &r : m_rows)
        events.push_back({r.name, r.values[0], r.values[1]});
    return events;
}

std::vector<core::StallEvent> CounterEventsModel::stallEvents() const
{
    std::vector<core::StallEvent> events;
    for (const Row &r : m_rows)
        events.push_back({r.name, r.values[0], r.values[1]});
    return events;
}

void CounterEventsModel::showSuspendResults(const std::optional<core::PEstimate> &p)
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        Row &r = m_rows[i];
        r.rejected = p && p->rejected[i];
        r.results = {p ? formatNumber(p->pec[i]) : QString(),
                     !p           ? QString()
                     : r.rejected ? tr("Reject (PEC < 0)")
                                  : extremeText(p->vector, i)};
    }
    resultsChanged();
}

void CounterEventsModel::showStallResults(const std::optional<core::QEstimate> &q)
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        QString comment;
        if (q)
            comment = q->cycles[i] > 0 ? extremeText(q->vector, i) : tr("No stall cycles");
        m_rows[i].results = {q ? formatNumber(q->cycles[i]) : QString(),
                             q ? formatNumber(q->q[i]) : QString(), comment};
    }
    resultsChanged();
}

void CounterEventsModel::resultsChanged()
{
    if (!m_rows.empty()) // every column: a rejected event is greyed throughout
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int CounterEventsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CounterEventsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant CounterEventsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &r = m_rows[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        if (column == 0)
            return QString::fromStdString(r.name);
        if (column < kInputColumns)
            return formatExact(r.values[column - 1]);
        return r.results.value(column - kInputColumns);
    case Qt::ToolTipRole:
        if (column == 0) // perf's event names can be long
            return QString::fromStdString(r.name);
        return {};
    case Qt::ForegroundRole:
        if (r.rejected)
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (r.rejected && m_kind == Suspend && column == SuspendPec) {
            QFont font;
            font.setStrikeOut(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant CounterEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section >= 0 && section < m_headers.size()) {
        if (role == Qt::DisplayRole)
            return m_headers[section];
        if (role == Qt::ToolTipRole)
            return m_tips[section];
        return {};
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

Qt::ItemFlags CounterEventsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    return index.column() < kInputColumns ? flags | Qt::ItemIsEditable : flags;
}

bool CounterEventsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.column() >= kInputColumns)
        return false;
    Row &r = m_rows[std::size_t(index.row())];
    const QString text = value.toString();
    if (index.column() == 0) {
        r.name = text.toStdString();
    } else {
        double &v = r.values[index.column() - 1];
        const auto parsed = parseExact(text);
        if (!parsed) {
            Q_EMIT refused(tr("%1, row %2: '%3' is not a number; the cell keeps %4.")
                                   .arg(m_kind == Suspend ? tr("Suspend events") : tr("Stall events"))
                                   .arg(index.row() + 1)
                                   .arg(text, formatExact(v)));
            return false;
        }
        v = *parsed;
    }
    Q_EMIT dataChanged(index, index);
    Q_EMIT edited();
    return true;
}

bool CounterEventsModel::insertRows(int row, int count, const QModelIndex &parent)
{
    if (parent.isValid() || row < 0 || row > rowCount() || count < 1)
        return false;
    Row fresh;
    if (m_kind == Suspend) {
        const core::SuspendEvent e;
        fresh = {e.name, {e.multi, e.single}, {}, false};
    } else {
        const core::StallEvent e;
        fresh = {e.name, {e.count, e.latency}, {}, false};
    }
    fresh.results = QStringList(columnCount() - kInputColumns, QString());
    beginInsertRows(parent, row, row + count - 1);
    m_rows.insert(m_rows.begin() + row, std::size_t(count), fresh);
    endInsertRows();
    return true;
}

bool CounterEventsModel::removeRows(int row, int count, const QModelIndex &parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    endRemoveRows();
    return true;
}

} // namespace crossroof::widgets
