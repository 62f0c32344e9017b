// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/trace_state.h"

#include "common/long_work.h"
#include "common/native_path.h"
#include "core/support/error.h"

#include <QFileInfo>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace crossroof::widgets {

using core::InputError;
using core::MeasuredTrace;

TraceState::TraceState(QObject *parent)
    : QObject(parent)
{
}

const MeasuredTrace *TraceState::trace(const QString &id) const
{
    const std::string key = id.toStdString();
    const auto it = std::find_if(m_traces.begin(), m_traces.end(),
                                 [&key](const MeasuredTrace &t) { return t.id == key; });
    return it == m_traces.end() ? nullptr : &*it;
}

MeasuredTrace *TraceState::find(const QString &id)
{
    return const_cast<MeasuredTrace *>(std::as_const(*this).trace(id));
}

QStringList TraceState::ids() const
{
    QStringList out;
    for (const auto &t : m_traces)
        out << QString::fromStdString(t.id);
    return out;
}

std::string TraceState::nextId()
{
    std::string id = "t";
    id += std::to_string(++m_serial);
    return id;
}

QStringList TraceState::add(std::vector<MeasuredTrace> traces)
{
    QStringList added;
    if (traces.empty())
        return added;
    for (auto &t : traces) {
        t.id = nextId();
        added << QString::fromStdString(t.id);
        m_traces.push_back(std::move(t));
    }
    for (const QString &id : std::as_const(added))
        Q_EMIT traceAdded(id);
    Q_EMIT changed();
    return added;
}

QString TraceState::add(MeasuredTrace trace)
{
    std::vector<MeasuredTrace> one;
    one.push_back(std::move(trace));
    return add(std::move(one)).value(0);
}

bool TraceState::remove(const QString &id)
{
    const std::string key = id.toStdString();
    const auto it = std::find_if(m_traces.begin(), m_traces.end(),
                                 [&key](const MeasuredTrace &t) { return t.id == key; });
    if (it == m_traces.end())
        return false;
    m_traces.erase(it);
    Q_EMIT traceRemoved(id);
    Q_EMIT changed();
    return true;
}

void TraceState::setVisible(const QString &id, bool visible)
{
    MeasuredTrace *t = find(id);
    if (!t || t->visible == visible)
        return;
    t->visible = visible;
    Q_EMIT traceChanged(id);
    Q_EMIT changed();
}

void TraceState::rename(const QString &id, const QString &name)
{
    MeasuredTrace *t = find(id);
    const std::string text = name.trimmed().toStdString();
    if (!t || text.empty() || t->name == text)
        return;
    t->name = text;
    Q_EMIT traceChanged(id);
    Q_EMIT changed();
}

void TraceState::setTraces(std::vector<MeasuredTrace> traces)
{
    const QStringList before = ids();
    m_traces.clear();
    m_serial = 0;
    // Keep the ids a session saved, so that anything referring to them still does; renew the bad ones after.
    std::set<std::string> taken;
    for (const auto &t : traces) {
        if (t.id.size() > 1 && t.id.size() < 10 && t.id[0] == 't'
            && std::all_of(t.id.begin() + 1, t.id.end(), [](char c) { return c >= '0' && c <= '9'; }))
            m_serial = std::max(m_serial, std::atoi(t.id.c_str() + 1));
    }
    for (auto &t : traces) {
        if (t.id.empty() || taken.count(t.id))
            t.id = nextId();
        taken.insert(t.id);
        m_traces.push_back(std::move(t));
    }
    for (const QString &id : before)
        Q_EMIT traceRemoved(id);
    for (const auto &t : m_traces)
        Q_EMIT traceAdded(QString::fromStdString(t.id));
    Q_EMIT changed();
}

void TraceState::clear()
{
    if (m_traces.empty())
        return;
    setTraces({});
}

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::GpuStream:
        return TraceState::tr("gpu-benches stream output");
    case TraceFormat::GpuStreamCsv:
        return TraceState::tr("stream bandwidth table (gpu, warps_per_sm, <kernel>_GBs)");
    case TraceFormat::GpuLatency:
        return TraceState::tr("gpu-benches latency output");
    case TraceFormat::GpuCache:
        return TraceState::tr("gpu-benches cache output");
    case TraceFormat::GpuL2Cache:
        return TraceState::tr("gpu-benches l2-cache output");
    case TraceFormat::GpuL2Stream:
        return TraceState::tr("gpu-benches l2-stream output");
    case TraceFormat::GpuRoofline:
        return TraceState::tr("gpu-benches roofline output");
    case TraceFormat::GpuStrides:
        return TraceState::tr("gpu-benches strides output");
    case TraceFormat::NcuCsv:
        return TraceState::tr("Nsight Compute CSV (ncu --csv)");
    case TraceFormat::PerfStat:
        return TraceState::tr("perf stat -x output");
    case TraceFormat::GenericTable:
        break;
    }
    return TraceState::tr("table (CSV, TSV or aligned columns)");
}

TraceLoad loadTraceFile(const QString &path, const QString &preferredDevice, QWidget *progressParent)
{
    TraceLoad out;
    try {
        const std::string native = nativePath(path);
        const std::string device = preferredDevice.toStdString();
        std::optional<core::TraceFile> read = runWithProgress<core::TraceFile>(
                progressParent, TraceState::tr("Reading %1…").arg(QFileInfo(path).fileName()),
                [native, device] { return core::readTraceFile(native, device); });
        if (!read) {
            out.cancelled = true;
            return out;
        }
        core::TraceFile file = std::move(*read);
        out.format = file.format;
        out.traces = std::move(file.traces);
        out.table = std::move(file.table);
        out.device = std::move(file.device);
        out.kernels = std::move(file.kernels);
    } catch (const InputError &e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

TraceLoad tracesFromTable(const core::CsvTable &table, const TraceMapping &mapping)
{
    TraceLoad out;
    try {
        out.traces.push_back(core::traceFromTable(table, mapping));
    } catch (const InputError &e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

} // namespace crossroof::widgets
