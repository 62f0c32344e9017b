// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/counter_runs.h"

#include "common/native_path.h"
#include "common/number_format.h"
#include "core/support/error.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <iterator>

namespace crossroof::widgets {

namespace {

/// The suspend events of two runs: every event counted in both, except cycles, instructions and
/// time-valued events (with a unit such as msec). NOTES gets what was left out.
std::vector<core::SuspendEvent> commonEvents(const core::PerfStat &multi, const core::PerfStat &single,
                                             QStringList &notes)
{
    const core::PerfStatEvent *skip[] = {multi.find("cycles"), multi.find("instructions"),
                                         single.find("cycles"), single.find("instructions")};
    auto skipped = [&](const core::PerfStatEvent *e) {
        return std::find(std::begin(skip), std::end(skip), e) != std::end(skip);
    };
    std::vector<core::SuspendEvent> events;
    QStringList timed;
    QStringList notBoth;
    for (const auto &m : multi.events) {
        if (skipped(&m))
            continue;
        if (!m.unit.empty()) {
            timed << QStringLiteral("%1 (%2)").arg(QString::fromStdString(m.name),
                                                   QString::fromStdString(m.unit));
            continue;
        }
        const core::PerfStatEvent *s = single.find(m.name);
        if (!s || skipped(s) || m.readings == 0 || s->readings == 0) {
            notBoth << QString::fromStdString(m.name);
            continue;
        }
        events.push_back({m.name, m.total, s->total});
    }
    for (const auto &s : single.events) {
        if (!skipped(&s) && s.unit.empty() && !multi.find(s.name))
            notBoth << QString::fromStdString(s.name);
    }
    if (!timed.isEmpty())
        notes << CounterRuns::tr("left out, not counts: %1").arg(timed.join(QStringLiteral(", ")));
    if (!notBoth.isEmpty())
        notes << CounterRuns::tr("not counted in both runs: %1").arg(notBoth.join(QStringLiteral(", ")));
    return events;
}

} // namespace

void CounterRuns::clear()
{
    m_single.reset();
    m_multi.reset();
}

CounterRuns::Outcome CounterRuns::read(const QString &path, Run run, const core::CounterInputs &current)
{
    core::CounterInputs next = current;
    core::PerfStat stat;
    QStringList notes;
    QString error;
    try {
        stat = core::readPerfStat(nativePath(path));
        stat.records = {}; // only the events are kept, to pair them with the other run's
        if (run == Run::Multi) {
            next.instructions = stat.event("instructions").total;
            if (stat.find("cycles"))
                next.measured_cpi = core::cyclesPerInstruction(stat);
            else
                notes << tr("no cycles event, so the measured CPI stays as it was");
        }
    } catch (const core::InputError &e) {
        error = QString::fromUtf8(e.what());
    }
    const core::PerfStat *single = run == Run::Single ? &stat : m_single ? &*m_single : nullptr;
    const core::PerfStat *multi = run == Run::Multi ? &stat : m_multi ? &*m_multi : nullptr;
    if (error.isEmpty() && single && multi) {
        next.suspend = commonEvents(*multi, *single, notes);
        if (next.suspend.empty()) {
            error = tr("%1 and %2: no event besides cycles and instructions is counted in both runs")
                            .arg(QString::fromStdString(multi->source),
                                 QString::fromStdString(single->source));
        }
    }
    if (!error.isEmpty())
        return {error, {}, {}};

    const QString file = QFileInfo(path).fileName();
    QString status;
    if (single && multi) {
        status = tr("Suspend events: %1 counted in both %2 (multi-threaded) and %3 (single-threaded).")
                         .arg(next.suspend.size())
                         .arg(QFileInfo(QString::fromStdString(multi->source)).fileName(),
                              QFileInfo(QString::fromStdString(single->source)).fileName());
    } else if (run == Run::Single) {
        status = tr("Single-threaded run %1 read (%2 events); import the multi-threaded run to fill the "
                    "suspend events.")
                         .arg(file)
                         .arg(stat.events.size());
    } else {
        status = tr("Multi-threaded run %1 read (%2 events); import the single-threaded run to fill the "
                    "suspend events.")
                         .arg(file)
                         .arg(stat.events.size());
    }
    if (run == Run::Multi) {
        status += QLatin1Char(' ')
                  + tr("Instructions retired %1, measured CPI %2.")
                            .arg(formatExact(next.instructions),
                                 next.measured_cpi ? formatNumber(*next.measured_cpi) : tr("none"));
    }
    for (const QString &note : notes)
        status += QLatin1Char(' ') + note.at(0).toUpper() + note.mid(1) + QLatin1Char('.');
    const bool changes = run == Run::Multi || multi; // a single-threaded run alone changes no input yet
    (run == Run::Single ? m_single : m_multi) = std::move(stat);
    return {{}, status, changes ? std::optional(next) : std::nullopt};
}

} // namespace crossroof::widgets
