// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_runs.h"

#include "common/native_path.h"
#include "common/number_format.h"
#include "core/support/error.h"

#include <QFileInfo>

#include <algorithm>

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

namespace {

/// Whether A and B count the same events with the same totals: one run read twice.
bool sameCounts(const core::PerfStat &a, const core::PerfStat &b)
{
    if (a.events.size() != b.events.size())
        return false;
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        if (a.events[i].name != b.events[i].name || a.events[i].total != b.events[i].total
            || a.events[i].readings != b.events[i].readings)
            return false;
    }
    return true;
}

QString fileName(const std::string &path)
{
    return QFileInfo(QString::fromStdString(path)).fileName();
}

} // namespace

std::vector<std::pair<int, double>> CounterRuns::cpuInstructions() const
{
    std::vector<std::pair<int, double>> out;
    if (!m_multi || !m_multi->per_cpu)
        return out;
    const core::PerfStatEvent *instructions = m_multi->find("instructions");
    const std::vector<double> counts = instructions ? instructions->perCpu() : std::vector<double>{};
    for (std::size_t i = 0; i < m_multi->cpus.size(); ++i)
        out.emplace_back(m_multi->cpus[i], i < counts.size() ? counts[i] : 0.0);
    return out;
}

std::vector<std::string> CounterRuns::recordingEvents() const
{
    std::vector<std::string> events;
    if (m_mapping) {
        for (const core::PerfEventUse &e : m_mapping->events)
            if (e.use != core::CounterUse::Unused)
                events.push_back(e.name);
    }
    if (events.empty())
        events = core::defaultRecordingEvents();
    return events;
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
    const std::optional<core::PerfStat> &other = run == Run::Single ? m_multi : m_single;
    if (other && sameCounts(stat, *other)) {
        const core::RecordingCommands commands = core::recordingCommands(recordingEvents(), "PROGRAM");
        return {tr("%1: the same counts as the %2 run %3 (all %4 events equal). p compares two runs of the same "
                   "work, one multi-threaded and one on a single CPU; with one run twice every event gives 0. "
                   "Record the single-threaded run with: %5")
                        .arg(QFileInfo(path).fileName(),
                             run == Run::Single ? tr("multi-threaded") : tr("single-threaded"),
                             fileName(other->source))
                        .arg(stat.events.size())
                        .arg(QString::fromStdString(commands.single)),
                {},
                {}};
    }
    (run == Run::Single ? m_single : m_multi) = std::move(stat);
    if (!m_multi) {
        return {{},
                tr("Single-threaded run %1 read (%2 events); import the multi-threaded run to map the events.")
                        .arg(fileName(m_single->source))
                        .arg(m_single->events.size()),
                std::nullopt};
    }
    return remap(current);
}

CounterRuns::Outcome CounterRuns::singleFromCpu(int cpu, const core::CounterInputs &current)
{
    if (!m_multi || !m_multi->per_cpu)
        return {tr("The multi-threaded run has no per-CPU counts (perf stat -A)"), {}, {}};
    const auto at = std::find(m_multi->cpus.begin(), m_multi->cpus.end(), cpu);
    if (at == m_multi->cpus.end())
        return {tr("The multi-threaded run %1 has no CPU %2").arg(fileName(m_multi->source)).arg(cpu), {}, {}};
    const std::size_t slot = std::size_t(at - m_multi->cpus.begin());
    const core::PerfStatEvent *instructions = m_multi->find("instructions");
    const double onCpu = instructions ? instructions->perCpu()[slot] : 0.0;
    if (!instructions || !(onCpu > 0) || !(instructions->total > 0)) {
        return {tr("%1 counts no instructions on CPU %2: its counts cannot be scaled to the run's")
                        .arg(fileName(m_multi->source))
                        .arg(cpu),
                {},
                {}};
    }
    const double scale = instructions->total / onCpu;
    core::PerfStat single;
    single.source = m_multi->source + " (CPU " + std::to_string(cpu) + ")";
    single.separator = m_multi->separator;
    for (const core::PerfStatEvent &e : m_multi->events) {
        core::PerfStatEvent one;
        one.name = e.name;
        one.unit = e.unit;
        const auto sum = std::find_if(e.cpu_sums.begin(), e.cpu_sums.end(),
                                      [slot](const auto &s) { return s.first == slot; });
        if (sum != e.cpu_sums.end()) {
            one.total = sum->second * scale;
            one.readings = 1;
        } else {
            one.not_counted = 1;
        }
        single.events.push_back(std::move(one));
    }
    m_single = std::move(single);
    Outcome out = remap(current);
    out.status = tr("CPU %1 of %2 taken as the single-threaded run: its counts times %3, the run's instructions "
                    "over CPU %1's, so that both runs count the same instructions. ")
                         .arg(cpu)
                         .arg(fileName(m_multi->source))
                         .arg(formatNumber(scale, 4))
                 + out.status;
    return out;
}

CounterRuns::Outcome CounterRuns::remap(const core::CounterInputs &current)
{
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
    QString status = tr("Events of %1 (multi-threaded run)").arg(fileName(m_mapping->multi_source));
    if (m_single)
        status += tr(" and %1 (single-threaded run)").arg(fileName(m_mapping->single_source));
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
