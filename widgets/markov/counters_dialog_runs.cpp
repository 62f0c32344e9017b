// SPDX-License-Identifier: GPL-3.0-or-later
// The counters dialog's perf stat runs: reading the single- and the multi-threaded run, and the table of their
// events with the use of each (CounterRuns keeps them).
#include "markov/counters_dialog.h"

#include "common/file_folders.h"
#include "common/number_format.h"
#include "core/support/error.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
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

QString CountersDialog::useCpuAsSingleRun(int cpu)
{
    const CounterRuns::Outcome outcome = m_runs.singleFromCpu(cpu, inputs());
    m_importStatus->setStyleSheet(outcome.error.isEmpty() ? QString() : errorStyle());
    m_importStatus->setText(outcome.error.isEmpty() ? outcome.status : outcome.error);
    if (outcome.inputs) {
        showEventUses();
        applyInputs(*outcome.inputs);
        Q_EMIT inputsChanged();
    }
    updateRunsHelp();
    return outcome.error;
}

namespace {

/// How to find the latency of a stall event, from what its name says.
QString latencyHint(const core::PerfEventUse &e)
{
    const QString what = QString::fromStdString(e.name + ' ' + e.meaning).toLower();
    if (what.contains(QLatin1String("tlb")))
        return CountersDialog::tr("the page walk's cycles: perf stat -e dtlb_load_misses.walk_active,"
                                  "dtlb_load_misses.walk_completed, the first over the second");
    if (what.contains(QLatin1String("branch")) || what.contains(QLatin1String("br_misp")))
        return CountersDialog::tr("the pipeline refill after a misprediction, about 15 to 20 cycles on "
                                  "current cores (the CPU's optimisation manual)");
    if (what.contains(QLatin1String("miss")))
        return CountersDialog::tr("the load-to-use latency of the level that serves the miss: for a "
                                  "last-level miss the memory latency (a CPU profile's L, or a pointer-chasing "
                                  "run such as lmbench's lat_mem_rd)");
    return CountersDialog::tr("the cycles one occurrence stalls a thread, from the CPU's documentation");
}

} // namespace

QWidget *CountersDialog::makeRunsHelp()
{
    // In a pane of its own height that scrolls: the inputs and the pairs below keep theirs.
    auto *area = new QScrollArea(this);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setMinimumHeight(100); // the commands and the CPU offer whole, the latency help scrolling
    area->setMaximumHeight(130);
    auto *box = new QWidget(area);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_recording = new QLabel(box);
    m_recording->setTextFormat(Qt::RichText);
    m_recording->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_recording->setWordWrap(true);
    m_recording->setAccessibleName(tr("How to record the runs"));
    m_cpuRow = new QWidget(box);
    auto *cpuLayout = new QHBoxLayout(m_cpuRow);
    cpuLayout->setContentsMargins(0, 0, 0, 0);
    m_cpuBox = new QComboBox(m_cpuRow);
    m_cpuBox->setAccessibleName(tr("CPU of the multi-threaded run"));
    m_useCpu = new QPushButton(tr("Use as Single-Threaded Run"), m_cpuRow);
    m_useCpu->setAutoDefault(false);
    m_useCpu->setToolTip(tr("Take this CPU's counts in the per-CPU multi-threaded run as the single-threaded run, "
                            "scaled by the run's instructions over the CPU's, so that both count the same "
                            "instructions"));
    cpuLayout->addWidget(new QLabel(tr("The multi-threaded run is per CPU (perf stat -A): take"), m_cpuRow));
    cpuLayout->addWidget(m_cpuBox);
    cpuLayout->addWidget(m_useCpu);
    cpuLayout->addStretch(1);
    m_cpuRow->hide();
    m_latencyHelp = new QLabel(box);
    m_latencyHelp->setWordWrap(true);
    m_latencyHelp->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_latencyHelp->hide();
    layout->addWidget(m_recording);
    layout->addWidget(m_cpuRow);
    layout->addWidget(m_latencyHelp);
    connect(m_useCpu, &QPushButton::clicked, this, [this] { useCpuAsSingleRun(m_cpuBox->currentData().toInt()); });
    updateRunsHelp();
    area->setWidget(box);
    return area;
}

void CountersDialog::updateRunsHelp()
{
    if (!m_recording)
        return; // not made yet
    const std::vector<std::string> events = m_runs.recordingEvents();
    const core::RecordingCommands commands = core::recordingCommands(events, "PROGRAM");
    m_recording->setText(tr("<p>Record the runs p needs, the same work twice (PROGRAM runs it; give an OpenMP "
                            "program OMP_NUM_THREADS=1 for the second):<br><tt>%1</tt> (multi-threaded)<br>"
                            "<tt>%2</tt> (single-threaded, on CPU 0)</p>")
                                 .arg(QString::fromStdString(commands.multi).toHtmlEscaped(),
                                      QString::fromStdString(commands.single).toHtmlEscaped()));
    // Each CPU with the instructions it retired, the busiest first chosen: the one that ran a thread.
    const std::vector<std::pair<int, double>> cpus = m_runs.cpuInstructions();
    m_cpuRow->setVisible(cpus.size() > 1);
    {
        const QSignalBlocker block(m_cpuBox);
        m_cpuBox->clear();
        int busiest = 0;
        for (const auto &[cpu, instructions] : cpus) {
            m_cpuBox->addItem(tr("CPU %1: %2 instructions").arg(cpu).arg(formatNumber(instructions, 3)), cpu);
            if (instructions > cpus[std::size_t(busiest)].second)
                busiest = m_cpuBox->count() - 1;
        }
        m_cpuBox->setCurrentIndex(cpus.empty() ? -1 : busiest);
    }
    // The events that need a latency, those with the same hint on one line.
    QStringList hints;
    std::vector<QStringList> names;
    if (m_runs.hasMapping()) {
        for (const core::PerfEventUse &e : m_runs.mapping().events) {
            const bool stall = core::useNeedsLatency(e.use);
            if ((stall && !e.latency) || (!stall && core::useSuspends(e.use))) {
                const QString hint = latencyHint(e);
                qsizetype at = hints.indexOf(hint);
                if (at < 0) {
                    at = hints.size();
                    hints << hint;
                    names.emplace_back();
                }
                names[std::size_t(at)] << QString::fromStdString(e.name)
                                                  + (stall ? tr(" (stall, no latency yet)") : QString());
            }
        }
    }
    QStringList lines;
    for (qsizetype i = 0; i < hints.size(); ++i)
        lines << names[std::size_t(i)].join(QStringLiteral(", ")) + QStringLiteral(": ") + hints[i];
    m_latencyHelp->setVisible(!lines.isEmpty());
    m_latencyHelp->setText(tr("q needs stall events, each with a latency: the cycles one occurrence keeps a thread "
                              "waiting, which perf stat does not count. Set an event's use to stall (or "
                              "suspend+stall) and type its latency. Where to find it for the suspend and stall "
                              "events:\n")
                           + lines.join(QLatin1Char('\n')));
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
    updateRunsHelp();
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
    updateRunsHelp();
    Q_EMIT inputsChanged();
}

} // namespace crossroof::widgets
