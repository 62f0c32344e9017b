// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_runs.h"

#include "common/native_path.h"
#include "common/number_format.h"
#include "core/support/error.h"

#include <QFileInfo>

namespace crossroof::widgets {

void CounterRuns::clear()
{
    m_single.reset();
    m_multi.reset();
    m_mapping.reset();
    m_mapped = {};
}

core::CounterInputs CounterRuns::apply(const core::CounterInputs &current)
{
    m_mapped = core::perfCounterInputs(*m_mapping);
    core::CounterInputs next = current;
    next.instructions = m_mapped.inputs.instructions;
    next.measured_cpi = m_mapped.inputs.measured_cpi;
    next.suspend = m_mapped.inputs.suspend;
    next.stall = m_mapped.inputs.stall;
    return next;
}

CounterRuns::Outcome CounterRuns::read(const QString &path, Run run, const core::CounterInputs &current)
{
    core::PerfStat stat;
    try {
        stat = core::readPerfStat(nativePath(path));
    } catch (const core::InputError &e) {
        return {QString::fromUtf8(e.what()), {}, {}};
    }
    stat.records = {}; // only the events are kept, to pair them with the other run's
    const QString file = QFileInfo(path).fileName();
    (run == Run::Single ? m_single : m_multi) = std::move(stat);
    if (!m_multi) {
        return {{},
                tr("Single-threaded run %1 read (%2 events); import the multi-threaded run to map the events.")
                        .arg(file)
                        .arg(m_single->events.size()),
                std::nullopt};
    }
    std::optional<core::PerfCounterMapping> previous = std::move(m_mapping);
    m_mapping = core::mapPerfEvents(*m_multi, m_single ? &*m_single : nullptr);
    if (previous) { // the user's uses stay
        for (const auto &old : previous->events) {
            core::PerfEventUse *e = m_mapping->find(old.name);
            if (e && e->name == old.name && old.use != old.default_use) {
                e->use = old.use;
                e->latency = old.latency;
            }
        }
    }
    const core::CounterInputs next = apply(current);
    QString status = tr("Events of %1 (multi-threaded run)").arg(QFileInfo(QString::fromStdString(m_mapping->multi_source)).fileName());
    if (m_single)
        status += tr(" and %1 (single-threaded run)").arg(QFileInfo(QString::fromStdString(m_mapping->single_source)).fileName());
    status += tr(" mapped by name: %1 events, %2 unused. Instructions retired %3")
                      .arg(m_mapping->events.size())
                      .arg(m_mapped.unused.size())
                      .arg(formatExact(next.instructions));
    if (m_mapped.file_cpi)
        status += tr(", cycles / instructions %1").arg(formatNumber(*m_mapped.file_cpi));
    status += QLatin1Char('.');
    if (!m_mapped.cpi_note.empty()) {
        const QString note = QString::fromStdString(m_mapped.cpi_note);
        status += QLatin1Char(' ') + note.at(0).toUpper() + note.mid(1) + QLatin1Char('.');
    }
    if (!m_single)
        status += QLatin1Char(' ') + tr("Import the single-threaded run for p.");
    return {{}, status, next};
}

CounterRuns::Outcome CounterRuns::setUse(std::size_t row, core::CounterUse use, std::optional<double> latency,
                                         const core::CounterInputs &current)
{
    if (!m_mapping || row >= m_mapping->events.size())
        return {tr("No perf file event %1").arg(row + 1), {}, {}};
    core::PerfEventUse &e = m_mapping->events[row];
    if (!core::useNeedsLatency(use))
        latency.reset();
    if (core::useNeedsLatency(use) && !latency) {
        // Chosen before its latency is typed: kept, and q names it as missing.
        e.use = use;
        e.latency.reset();
    } else {
        try {
            core::setEventUse(*m_mapping, e.name, use, latency);
        } catch (const core::InputError &error) {
            return {QString::fromUtf8(error.what()), {}, {}};
        }
    }
    return {{}, {}, apply(current)};
}

} // namespace crossroof::widgets
