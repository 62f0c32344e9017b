// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counters_dialog.h"

#include "common/labelled.h"
#include "common/scrolling_body.h"
#include "common/number_format.h"
#include "common/plot_style.h"
#include "core/markov/markov.h"
#include "core/support/error.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QHeaderView>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

namespace crossroof::widgets {

namespace {

/// An event's name as the core's messages call it ("event 3" when it has none).
QString eventName(const std::string &name, std::size_t index)
{
    return name.empty() ? CountersDialog::tr("event %1").arg(index + 1) : QString::fromStdString(name);
}

QString topologyText(const std::vector<int> &threads)
{
    if (threads.empty())
        return CountersDialog::tr("no cache groups");
    if (std::all_of(threads.begin(), threads.end(), [&](int n) { return n == threads.front(); })) {
        const QString groups = threads.size() == 1
                                       ? CountersDialog::tr("1 cache group")
                                       : CountersDialog::tr("%1 cache groups").arg(threads.size());
        const QString each = threads.front() == 1 ? CountersDialog::tr("1 thread")
                                                  : CountersDialog::tr("%1 threads").arg(threads.front());
        return CountersDialog::tr("%1 of %2").arg(groups, each);
    }
    QStringList sizes;
    for (int n : threads)
        sizes << QString::number(n);
    return CountersDialog::tr("cache groups of %1 threads").arg(sizes.join(QStringLiteral(", ")));
}

/// The rows of the table's selected cells, else its current row; highest first.
std::vector<int> rowsToRemove(const QTableView *table)
{
    std::set<int, std::greater<>> rows;
    for (const QModelIndex &index : table->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    if (rows.empty() && table->currentIndex().isValid())
        rows.insert(table->currentIndex().row());
    return {rows.begin(), rows.end()};
}

/// A view of MODEL, set up as the counter tables are, NAME for the screen reader.
QTableView *eventTable(CounterEventsModel *model, const QString &name, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setModel(model);
    setUpCounterTable(table, 0); // the event's name takes the width left
    table->setAccessibleName(name);
    return table;
}

} // namespace

QString CountersDialog::errorStyle()
{
    return QStringLiteral("color: %1").arg(plot_style::kVermillion.name());
}

QString CountersDialog::warningStyle()
{
    return QStringLiteral("color: #b35900");
}

CountersDialog::CountersDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("p and q from Counters"));
    const QString pFormula = tr("p = Σ max(0, E_multi − E_single) / instructions retired (Eq. 6)");
    const QString qFormula
            = tr("q_i = 1 − 1/m_i (Eq. 7); for all events q = 1 − 1/M with M = Σ c_i·m_i / Σ c_i "
                 "and c_i = count_i·m_i, the event's stall cycles (Eq. 8)");

    m_importSingle = new QPushButton(tr("Import &Single-Threaded Run…"), this);
    m_importSingle->setToolTip(tr("Read perf stat -x output of the single-threaded run: its event counts "
                                  "are E_single"));
    m_importMulti = new QPushButton(tr("Import Multi-T&hreaded Run…"), this);
    m_importMulti->setToolTip(tr("Read perf stat -x output of the multi-threaded run: its event counts are "
                                 "E_multi, its instructions the instructions retired, cycles / instructions "
                                 "the measured CPI"));
    m_importStatus = new QLabel(this);
    m_importStatus->setWordWrap(true);
    m_importStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_usesTable = new QTableWidget(0, UseColumns, this);
    m_usesTable->setHorizontalHeaderLabels({tr("Event"), tr("Meaning"), tr("Multi-threaded"),
                                            tr("Single-threaded"), tr("Use"), tr("Latency (cycles)")});
    m_usesTable->setAccessibleName(tr("Events of the perf files and their uses"));
    m_usesTable->horizontalHeaderItem(UseMulti)->setToolTip(tr("The event's count in the multi-threaded run: "
                                                                "E_multi, or a stall event's occurrences"));
    m_usesTable->horizontalHeaderItem(UseSingle)->setToolTip(tr("The event's count in the single-threaded run: "
                                                                 "E_single"));
    m_usesTable->horizontalHeaderItem(UseUse)->setToolTip(
            tr("What the event is used as, by default from its name: cycles and instructions give the measured "
               "CPI = cycles / instructions; suspend events give p = Σ max(0, E_multi − E_single) / "
               "instructions; stall events give q = 1 − 1/M from their counts and latencies; unused events "
               "nothing"));
    m_usesTable->horizontalHeaderItem(UseLatency)->setToolTip(
            tr("Cycles per occurrence of a stall event (m_i, >= 1): perf stat counts events, not their "
               "latency, so a stall use needs it entered here"));
    m_usesTable->verticalHeader()->hide();
    m_usesTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_usesTable->horizontalHeader()->setSectionResizeMode(UseMeaning, QHeaderView::Stretch);
    // Five events at least in view, the rest by scrolling.
    m_usesTable->setMinimumHeight(m_usesTable->horizontalHeader()->sizeHint().height()
                                  + 5 * m_usesTable->verticalHeader()->defaultSectionSize() + 4);
    m_usesTable->setMaximumHeight(240);
    m_usesLabel = new QLabel(tr("&Events of the perf files, mapped to their uses by name; change a use "
                                "here:"),
                             this);
    m_usesLabel->setBuddy(m_usesTable);
    m_usesLabel->hide();
    m_usesTable->hide();

    m_instructions = new QLineEdit(this);
    m_instructions->setToolTip(tr("Instructions retired by the multi-threaded run: %1").arg(pFormula));
    m_measured = new QLineEdit(this);
    m_measured->setPlaceholderText(tr("none"));
    // Room for every digit of a double, as an imported CPI has them.
    for (QLineEdit *edit : {m_instructions, m_measured})
        edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(QStringLiteral("0.00000000000000000")));
    m_measured->setToolTip(
            tr("The multi-threaded run's CPI, cycles / instructions (4.3.4): the starting pair "
               "whose predicted CPI is nearest is highlighted (4.3.1). Empty: none."));
    auto *fields = new QHBoxLayout;
    addLabelled(fields, tr("&Instructions retired:"), m_instructions);
    fields->addWidget(new QLabel(tr("instructions"), this));
    fields->addSpacing(24);
    addLabelled(fields, tr("Measured &CPI:"), m_measured);
    fields->addWidget(new QLabel(tr("cycles per instruction"), this));
    fields->addStretch(1);

    m_suspendModel = new CounterEventsModel(CounterEventsModel::Suspend, this);
    m_suspendTable = eventTable(m_suspendModel, tr("Suspend events"), this);
    auto *suspendLabel = new QLabel(tr("S&uspend events, for p (Table 4.4): counts of the multi- and the "
                                       "single-threaded run"),
                                    this);
    suspendLabel->setWordWrap(true);
    suspendLabel->setBuddy(m_suspendTable);
    suspendLabel->setToolTip(pFormula);
    m_addSuspend = new QPushButton(tr("&Add"), this);
    m_addSuspend->setAccessibleName(tr("Add suspend event"));
    m_addSuspend->setToolTip(tr("Add a suspend event"));
    m_removeSuspend = new QPushButton(tr("&Remove"), this);
    m_removeSuspend->setAccessibleName(tr("Remove suspend events"));
    m_removeSuspend->setToolTip(tr("Remove the selected suspend events"));
    auto *suspendButtons = new QHBoxLayout;
    suspendButtons->addWidget(m_addSuspend);
    suspendButtons->addWidget(m_removeSuspend);
    suspendButtons->addStretch(1);

    m_stallModel = new CounterEventsModel(CounterEventsModel::Stall, this);
    m_stallTable = eventTable(m_stallModel, tr("Stall events"), this);
    auto *stallLabel = new QLabel(tr("S&tall events, for q (Table 4.5): occurrences and average latency in "
                                     "cycles"),
                                  this);
    stallLabel->setWordWrap(true);
    stallLabel->setBuddy(m_stallTable);
    stallLabel->setToolTip(qFormula);
    m_addStall = new QPushButton(tr("A&dd"), this);
    m_addStall->setAccessibleName(tr("Add stall event"));
    m_addStall->setToolTip(tr("Add a stall event"));
    m_removeStall = new QPushButton(tr("Re&move"), this);
    m_removeStall->setAccessibleName(tr("Remove stall events"));
    m_removeStall->setToolTip(tr("Remove the selected stall events"));
    auto *stallButtons = new QHBoxLayout;
    stallButtons->addWidget(m_addStall);
    stallButtons->addWidget(m_removeStall);
    stallButtons->addStretch(1);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setToolTip(pFormula + QLatin1Char('\n') + qFormula);

    m_pairsTable = new StartingPairsTable(this);
    m_pairsLabel = new QLabel(this);
    m_pairsLabel->setWordWrap(true);
    m_pairsLabel->setBuddy(m_pairsTable);
    m_nearestLabel = new QLabel(this);
    m_nearestLabel->setWordWrap(true);
    m_nearestLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_select = new QPushButton(tr("Select on Sur&face"), this);
    m_select->setToolTip(tr("Choose the current pair's p and q on the Markov view's surface (or double-click "
                            "a pair)"));
    auto *selectRow = new QHBoxLayout;
    selectRow->addWidget(m_select);
    selectRow->addStretch(1);

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(errorStyle());
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *importRow = new QHBoxLayout;
    importRow->addWidget(m_importSingle);
    importRow->addWidget(m_importMulti);
    importRow->addWidget(m_importStatus, 1);
    auto *inputs = new QVBoxLayout;
    inputs->addWidget(suspendLabel);
    inputs->addWidget(m_suspendTable, 1);
    inputs->addLayout(suspendButtons);
    inputs->addWidget(stallLabel);
    inputs->addWidget(m_stallTable, 1);
    inputs->addLayout(stallButtons);
    auto *results = new QVBoxLayout;
    results->addWidget(m_summary);
    results->addWidget(m_pairsLabel);
    results->addWidget(m_pairsTable);
    results->addWidget(m_nearestLabel);
    results->addLayout(selectRow);
    results->addStretch(1);
    auto *middle = new QHBoxLayout;
    middle->addLayout(inputs, 1);
    middle->addSpacing(12);
    middle->addLayout(results, 1);
    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(importRow);
    layout->addWidget(m_usesLabel);
    layout->addWidget(m_usesTable);
    layout->addWidget(makeRunsHelp());
    layout->addLayout(fields);
    layout->addLayout(middle, 1);
    layout->addWidget(m_message);
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(new ScrollingBody(body, this), 1);
    outer->addWidget(buttons);
    resize(1180, 820); // room for the events of both runs and how to record them

    QWidget *order[] = {m_importSingle, m_importMulti,   m_usesTable, m_instructions, m_measured, m_suspendTable,
                        m_addSuspend,   m_removeSuspend, m_stallTable,   m_addStall, m_removeStall,
                        m_pairsTable,   m_select,        buttons};
    for (std::size_t i = 1; i < std::size(order); ++i)
        setTabOrder(order[i - 1], order[i]);
    // Enter in a field or a cell finishes the edit; it must not press a button.
    for (QPushButton *button : findChildren<QPushButton *>())
        button->setAutoDefault(false);

    connect(m_importSingle, &QPushButton::clicked, this, [this] { importInteractively(Run::Single); });
    connect(m_importMulti, &QPushButton::clicked, this, [this] { importInteractively(Run::Multi); });
    for (QLineEdit *edit : {m_instructions, m_measured}) {
        connect(edit, &QLineEdit::textChanged, this, [this, edit] { numberEdited(edit); });
        connect(edit, &QLineEdit::editingFinished, this, [this, edit] { numberFinished(edit); });
    }
    const std::pair<QTableView *, std::pair<QPushButton *, QPushButton *>> events[]
            = {{m_suspendTable, {m_addSuspend, m_removeSuspend}},
               {m_stallTable, {m_addStall, m_removeStall}}};
    for (const auto &event : events) {
        QTableView *table = event.first; // a variable of its own: clang 14 cannot capture a structured binding
        const auto &buttons = event.second;
        auto *model = static_cast<CounterEventsModel *>(table->model());
        connect(model, &CounterEventsModel::edited, this, &CountersDialog::edited);
        connect(model, &CounterEventsModel::refused, m_message, &QLabel::setText);
        connect(buttons.first, &QPushButton::clicked, this, [this, table] { addEvent(table); });
        connect(buttons.second, &QPushButton::clicked, this, [this, table] { removeEvents(table); });
    }
    for (QTableView *table :
         std::initializer_list<QTableView *> {m_suspendTable, m_stallTable, m_pairsTable}) {
        connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                &CountersDialog::updateButtons);
        connect(table->selectionModel(), &QItemSelectionModel::currentChanged, this,
                &CountersDialog::updateButtons);
    }
    connect(m_usesTable, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == UseLatency)
            useEdited(item->row());
    });
    connect(m_pairsTable, &QTableWidget::cellDoubleClicked, this, [this](int row) { chooseRow(row); });
    connect(m_select, &QPushButton::clicked, this, [this] { chooseRow(m_pairsTable->currentRow()); });

    setInputs(CounterInputs::thesisExample());
}

CountersDialog::~CountersDialog()
{
    // QDialog's destructor hides the dialog, which makes an open cell editor or a field commit its text:
    // this object must not hear of it any more.
    for (QObject *o : std::initializer_list<QObject *> {
                 m_instructions, m_measured, m_suspendModel, m_stallModel, m_suspendTable->selectionModel(),
                 m_stallTable->selectionModel(), m_pairsTable->selectionModel(), m_pairsTable, m_usesTable})
        o->disconnect(this);
}

void CountersDialog::setInputs(const CounterInputs &inputs)
{
    m_runs.clear();
    m_importStatus->setStyleSheet(QString());
    m_importStatus->setText(tr("Import perf stat -x output of both runs, or enter the counts below."));
    showEventUses();
    updateRunsHelp();
    applyInputs(inputs);
}

CounterInputs CountersDialog::inputs() const
{
    CounterInputs inputs = m_inputs;
    inputs.suspend = m_suspendModel->suspendEvents();
    inputs.stall = m_stallModel->stallEvents();
    return inputs;
}

void CountersDialog::applyInputs(const CounterInputs &inputs)
{
    m_inputs = inputs;
    m_inputs.suspend.clear(); // the models hold the events
    m_inputs.stall.clear();
    m_instructionsError.clear();
    m_measuredError.clear();
    fillFields();
    m_suspendModel->setSuspendEvents(inputs.suspend);
    m_stallModel->setStallEvents(inputs.stall);
    recompute();
}

void CountersDialog::setTopology(const std::vector<int> &threadsPerGroup)
{
    if (threadsPerGroup == m_threads)
        return;
    m_threads = threadsPerGroup;
    recompute();
}

void CountersDialog::fillFields()
{
    const QSignalBlocker b1(m_instructions), b2(m_measured);
    m_instructions->setText(formatExact(m_inputs.instructions));
    m_measured->setText(m_inputs.measured_cpi ? formatExact(*m_inputs.measured_cpi) : QString());
}

void CountersDialog::numberEdited(QLineEdit *edit)
{
    const bool instructions = edit == m_instructions;
    QString &error = instructions ? m_instructionsError : m_measuredError;
    const QString what = instructions ? tr("Instructions retired") : tr("Measured CPI");
    const QString text = edit->text().trimmed();
    error.clear();
    if (!instructions && text.isEmpty()) {
        m_inputs.measured_cpi.reset();
    } else if (const auto v = parseExact(text)) {
        if (instructions)
            m_inputs.instructions = *v;
        else
            m_inputs.measured_cpi = *v;
    } else if (text.isEmpty()) {
        error = tr("%1: enter a number").arg(what);
    } else {
        error = tr("%1: '%2' is not a number").arg(what, text);
    }
    recompute();
    if (error.isEmpty())
        Q_EMIT inputsChanged();
}

void CountersDialog::numberFinished(QLineEdit *edit)
{
    QString &error = edit == m_instructions ? m_instructionsError : m_measuredError;
    if (error.isEmpty())
        return;
    // Leaving a field with text that is no number: it shows the value in use again.
    error.clear();
    fillFields();
    recompute();
}

void CountersDialog::addEvent(QTableView *table)
{
    QAbstractItemModel *model = table->model();
    const int row = model->rowCount();
    model->insertRow(row);
    edited();
    const QModelIndex name = model->index(row, 0);
    table->setCurrentIndex(name);
    table->edit(name);
}

void CountersDialog::removeEvents(QTableView *table)
{
    const std::vector<int> rows = rowsToRemove(table);
    if (rows.empty())
        return;
    for (int r : rows) // highest first: the rows below are gone before those above move
        table->model()->removeRow(r);
    edited();
}

void CountersDialog::edited()
{
    recompute();
    Q_EMIT inputsChanged();
}

void CountersDialog::updateButtons()
{
    m_removeSuspend->setEnabled(!rowsToRemove(m_suspendTable).empty());
    m_removeStall->setEnabled(!rowsToRemove(m_stallTable).empty());
    m_select->setEnabled(!m_pairs.empty() && m_pairsTable->currentRow() >= 0);
}

void CountersDialog::recompute()
{
    m_p.reset();
    m_q.reset();
    m_pairs.clear();
    m_cpi.clear();
    m_nearest.reset();
    QStringList errors;
    for (const QString *e : {&m_instructionsError, &m_measuredError}) {
        if (!e->isEmpty())
            errors << *e;
    }
    auto coreError = [&errors](const QString &what, const core::InputError &e) {
        errors << tr("%1: %2").arg(what, QString::fromUtf8(e.what()));
    };
    // With perf files, what their events' uses lack is named rather than computed from nothing (p = 0 of no
    // events would be a number no counter gave).
    const bool perf = m_runs.hasMapping();
    const bool pMissing = perf && m_suspendModel->rowCount() == 0 && !m_runs.mapped().p_missing.empty();
    const bool qMissing = perf && m_stallModel->rowCount() == 0 && !m_runs.mapped().q_missing.empty();
    if (errors.isEmpty()) {
        if (pMissing) {
            errors << tr("Cannot compute p: %1").arg(QString::fromStdString(m_runs.mapped().p_missing));
        } else {
            try {
                m_p = core::estimateP(m_suspendModel->suspendEvents(), m_inputs.instructions);
            } catch (const core::InputError &e) {
                coreError(tr("Cannot compute p"), e);
            }
        }
        if (qMissing) {
            errors << tr("Cannot compute q: %1").arg(QString::fromStdString(m_runs.mapped().q_missing));
        } else {
            try {
                m_q = core::estimateQ(m_stallModel->stallEvents());
            } catch (const core::InputError &e) {
                coreError(tr("Cannot compute q"), e);
            }
        }
    }
    if (m_p && m_q) {
        const auto pairs = core::startingPairs(m_p->vector, m_q->vector);
        try {
            for (const auto &pair : pairs) {
                core::MarkovTopology shape;
                for (int n : m_threads)
                    shape.push_back({n, pair.p, pair.q});
                m_cpi.push_back(core::solveMarkovExact(shape).cpi);
            }
            m_pairs.assign(pairs.begin(), pairs.end());
        } catch (const core::InputError &e) {
            m_cpi.clear();
            coreError(tr("Cannot predict the pairs' CPI"), e);
        }
    }
    if (!m_pairs.empty() && m_inputs.measured_cpi) {
        try {
            m_nearest = core::nearestStartingPair(m_pairs, m_threads, *m_inputs.measured_cpi).index;
        } catch (const core::InputError &e) {
            coreError(tr("Cannot choose a pair"), e);
        }
    }
    m_error = errors.join(QLatin1Char('\n'));
    m_message->setText(m_error);
    m_suspendModel->showSuspendResults(m_p);
    m_stallModel->showStallResults(m_q);
    showSummary();
    showPairs();
    updateButtons();
    Q_EMIT resultsChanged(m_pairs, m_nearest, m_nearest ? m_inputs.measured_cpi : std::nullopt);
}

void CountersDialog::showSummary()
{
    auto named = [](const auto &events, std::optional<std::size_t> index) {
        return index ? eventName(events[*index].name, *index).toHtmlEscaped() : tr("none");
    };
    const std::vector<core::SuspendEvent> suspend = m_suspendModel->suspendEvents();
    const std::vector<core::StallEvent> stall = m_stallModel->stallEvents();
    QStringList lines;
    if (m_p) {
        const auto &v = m_p->vector;
        QStringList rejected;
        for (std::size_t i = 0; i < m_p->rejected.size(); ++i) {
            if (m_p->rejected[i])
                rejected << eventName(suspend[i].name, i).toHtmlEscaped();
        }
        QString line = tr("<b>p = %1</b>. PEC vector (lowest, highest, all) = (%2, %3, %1): lowest %4, "
                          "highest %5")
                               .arg(formatNumber(v.all), formatNumber(v.lowest), formatNumber(v.highest),
                                    named(suspend, v.lowest_event),
                                    named(suspend, v.highest_event));
        if (!rejected.isEmpty())
            line += tr("; rejected (PEC &lt; 0): %1").arg(rejected.join(QStringLiteral(", ")));
        lines << line + QLatin1Char('.');
    } else {
        lines << tr("<b>p</b>: not computed (see below).");
    }
    if (m_q) {
        const auto &v = m_q->vector;
        lines << tr("<b>q = %1</b>, M = %2 cycles. PEC vector (lowest, highest, all) = (%3, %4, %1): lowest "
                    "%5 (%6 stall cycles), highest %7 (%8 stall cycles).")
                         .arg(formatNumber(v.all), formatNumber(m_q->mean_latency), formatNumber(v.lowest),
                              formatNumber(v.highest), named(stall, v.lowest_event),
                              formatNumber(m_q->cycles[*v.lowest_event]),
                              named(stall, v.highest_event),
                              formatNumber(m_q->cycles[*v.highest_event]));
    } else {
        lines << tr("<b>q</b>: not computed (see below).");
    }
    m_summary->setText(lines.join(QStringLiteral("<br>")));
}

void CountersDialog::showPairs()
{
    m_pairsLabel->setText(tr("Starting &pairs (4.3.1), CPI predicted at steady state for %1:")
                                  .arg(topologyText(m_threads)));
    m_pairsTable->showPairs(m_pairs, m_cpi, m_nearest, m_inputs.measured_cpi);
    m_nearestLabel->setToolTip(QString());
    if (m_nearest) {
        const std::size_t i = *m_nearest;
        m_pairsTable->setCurrentCell(int(i), 0);
        m_nearestLabel->setText(tr("Measured CPI %1: nearest is pair %2, p = %3, q = %4, predicted CPI %5.")
                                        .arg(formatNumber(*m_inputs.measured_cpi),
                                             m_pairsTable->verticalHeaderItem(int(i))->text(),
                                             formatNumber(m_pairs[i].p), formatNumber(m_pairs[i].q),
                                             formatNumber(m_cpi[i])));
    } else if (!m_pairs.empty() && !m_inputs.measured_cpi && m_runs.hasMapping()
               && !m_runs.mapped().cpi_note.empty()) {
        const QString note = QString::fromStdString(m_runs.mapped().cpi_note);
        m_nearestLabel->setText(m_runs.mapped().file_cpi
                                        ? tr("No nearest pair: the perf file's CPI %1 is below the model's floor "
                                             "of 1 (a superscalar core).")
                                                  .arg(formatNumber(*m_runs.mapped().file_cpi))
                                        : tr("No nearest pair: the perf file gives no measured CPI."));
        m_nearestLabel->setToolTip(note);
    } else if (!m_pairs.empty()) {
        m_nearestLabel->setText(tr("Enter a measured CPI to find the nearest pair."));
    } else {
        m_pairsTable->setCurrentItem(nullptr);
        m_nearestLabel->clear();
    }
}

void CountersDialog::chooseRow(int row)
{
    if (row < 0 || std::size_t(row) >= m_pairs.size())
        return;
    Q_EMIT pairChosen(m_pairs[std::size_t(row)].p, m_pairs[std::size_t(row)].q);
}

} // namespace crossroof::widgets
