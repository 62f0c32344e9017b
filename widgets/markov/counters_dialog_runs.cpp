// SPDX-License-Identifier: GPL-3.0-or-later
// The counters dialog's perf stat runs: reading the single- and the multi-threaded run, and the table of their
// events with the use of each (CounterRuns keeps them).
#include "markov/counters_dialog.h"

#include "common/file_folders.h"
#include "common/number_format.h"
#include "core/support/error.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>

#include <cmath>

namespace crossroof::widgets {

QString CountersDialog::importSingleRun(const QString &path)
{
    return importRun(path, Run::Single);
}

QString CountersDialog::importMultiRun(const QString &path)
{
    return importRun(path, Run::Multi);
}

void CountersDialog::importInteractively(Run run)
{
    const QString title
            = run == Run::Single ? tr("Import the Single-Threaded Run") : tr("Import the Multi-Threaded Run");
    const QString path
            = openFileName(this, FileKind::Data, title, tr("perf stat -x output (*.tsv *.csv *.txt);;All files (*)"));
    if (!path.isEmpty())
        importRun(path, run);
}

QString CountersDialog::importRun(const QString &path, Run run)
{
    const CounterRuns::Outcome outcome = m_runs.read(path, run, inputs());
    m_importStatus->setStyleSheet(outcome.error.isEmpty() ? QString() : errorStyle());
    QString status = outcome.error.isEmpty() ? outcome.status : outcome.error;
    // perf stat -x names no CPU; per-CPU output (-A) tells at least how many the machine has. More than the
    // topology's hardware threads: the counts are another machine's than the one the pairs are predicted for.
    const int threads = std::accumulate(m_threads.begin(), m_threads.end(), 0);
    if (outcome.error.isEmpty() && m_runs.countedCpus() > std::size_t(threads)) {
        status += QLatin1Char(' ')
                  + tr("The multi-threaded run was counted on %1 CPUs, a machine larger than the Markov topology's "
                       "%2 hardware threads (%3 caches): check that the counts and the topology are of one machine.")
                            .arg(m_runs.countedCpus())
                            .arg(threads)
                            .arg(m_threads.size());
        m_importStatus->setStyleSheet(warningStyle());
    }
    m_importStatus->setText(status);
    if (outcome.inputs) {
        showEventUses();
        applyInputs(*outcome.inputs);
        Q_EMIT inputsChanged();
    }
    return outcome.error;
}

void CountersDialog::showEventUses()
{
    const bool shown = m_runs.hasMapping();
    m_usesLabel->setVisible(shown);
    m_usesTable->setVisible(shown);
    const QSignalBlocker blocker(m_usesTable);
    m_usesTable->setRowCount(0);
    if (!shown)
        return;
    const core::PerfCounterMapping &mapping = m_runs.mapping();
    m_usesTable->setRowCount(int(mapping.events.size()));
    const auto readOnly = [](const QString &text) {
        auto *item = new QTableWidgetItem(text);
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
        return item;
    };
    for (std::size_t i = 0; i < mapping.events.size(); ++i) {
        const core::PerfEventUse &e = mapping.events[i];
        const int row = int(i);
        const QString name = QString::fromStdString(e.name);
        m_usesTable->setItem(row, UseEvent, readOnly(name));
        m_usesTable->setItem(row, UseMeaning, readOnly(QString::fromStdString(e.meaning)));
        m_usesTable->item(row, UseMeaning)->setToolTip(QString::fromStdString(e.meaning));
        const auto count = [&e](const std::optional<double> &v) {
            return v ? formatNumber(*v, 12) + (e.unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(e.unit))
                     : tr("not counted");
        };
        m_usesTable->setItem(row, UseMulti, readOnly(count(e.multi)));
        m_usesTable->setItem(row, UseSingle,
                             readOnly(mapping.single_source.empty() ? tr("no run") : count(e.single)));
        for (int c : {UseMulti, UseSingle})
            m_usesTable->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto *latency = new QTableWidgetItem(e.latency ? formatExact(*e.latency) : QString());
        latency->setToolTip(tr("Cycles per occurrence of %1 as a stall event (>= 1)").arg(name));
        if (!core::useNeedsLatency(e.use))
            latency->setFlags(latency->flags() & ~Qt::ItemIsEditable);
        m_usesTable->setItem(row, UseLatency, latency);
        auto *use = new QComboBox(m_usesTable);
        for (core::CounterUse u : core::counterUses())
            use->addItem(QString::fromUtf8(core::counterUseName(u).data(), int(core::counterUseName(u).size())),
                         int(u));
        use->setCurrentIndex(use->findData(int(e.use)));
        use->setAccessibleName(tr("Use of %1").arg(name));
        use->setToolTip(tr("%1 by its name: %2").arg(name, QString::fromUtf8(core::counterUseName(e.default_use).data())));
        connect(use, &QComboBox::currentIndexChanged, this, [this, row] { useEdited(row); });
        m_usesTable->setCellWidget(row, UseUse, use);
    }
}

void CountersDialog::setEventUse(int row, core::CounterUse use, const QString &latency)
{
    if (row < 0 || row >= m_usesTable->rowCount())
        return;
    {
        const QSignalBlocker blocker(m_usesTable);
        m_usesTable->item(row, UseLatency)->setText(latency);
    }
    auto *combo = static_cast<QComboBox *>(m_usesTable->cellWidget(row, UseUse));
    const int index = combo->findData(int(use));
    if (combo->currentIndex() == index)
        useEdited(row);
    else
        combo->setCurrentIndex(index); // useEdited() follows
}

void CountersDialog::useEdited(int row)
{
    auto *combo = static_cast<QComboBox *>(m_usesTable->cellWidget(row, UseUse));
    const auto use = static_cast<core::CounterUse>(combo->currentData().toInt());
    const QString event = m_usesTable->item(row, UseEvent)->text();
    const QString latencyText = m_usesTable->item(row, UseLatency)->text().trimmed();
    std::optional<double> latency;
    if (core::useNeedsLatency(use) && !latencyText.isEmpty()) {
        latency = parseExact(latencyText);
        if (!latency) {
            m_message->setText(tr("Latency of %1: '%2' is not a number").arg(event, latencyText));
            return;
        }
    }
    const CounterRuns::Outcome outcome = m_runs.setUse(std::size_t(row), use, latency, inputs());
    if (!outcome.error.isEmpty()) {
        m_message->setText(outcome.error);
        return;
    }
    {
        const QSignalBlocker blocker(m_usesTable);
        QTableWidgetItem *cell = m_usesTable->item(row, UseLatency);
        cell->setFlags(core::useNeedsLatency(use) ? cell->flags() | Qt::ItemIsEditable
                                                  : cell->flags() & ~Qt::ItemIsEditable);
        if (!core::useNeedsLatency(use))
            cell->setText(QString());
    }
    applyInputs(*outcome.inputs);
    Q_EMIT inputsChanged();
}

} // namespace crossroof::widgets
