// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_state.h"

#include "bandwidth_curve.h"
#include "error.h"
#include "gpu_benches.h"
#include "ncu_csv.h"
#include "perf_stat.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

namespace crossroof::widgets {

using core::InputError;
using core::MeasuredTrace;
using core::TraceKind;

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
    case TraceFormat::NcuCsv:
        return TraceState::tr("Nsight Compute CSV (ncu --csv)");
    case TraceFormat::PerfStat:
        return TraceState::tr("perf stat -x output");
    case TraceFormat::GenericTable:
        break;
    }
    return TraceState::tr("table (CSV, TSV or aligned columns)");
}

namespace {

/// Fields of one header or record line, split on the first of tab, comma or semicolon that occurs.
QStringList splitFields(const QString &line)
{
    for (QChar sep : {QLatin1Char('\t'), QLatin1Char(','), QLatin1Char(';')}) {
        if (line.contains(sep)) {
            QStringList fields = line.split(sep);
            for (QString &f : fields) {
                f = f.trimmed();
                if (f.size() >= 2 && f.startsWith(QLatin1Char('"')) && f.endsWith(QLatin1Char('"')))
                    f = f.mid(1, f.size() - 2);
            }
            return fields;
        }
    }
    return line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

std::string baseName(const std::string &path)
{
    return QFileInfo(QString::fromStdString(path)).completeBaseName().toStdString();
}

std::string deviceKey(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return c == '-' ? '_' : char(std::tolower(c)); });
    return s;
}

std::vector<MeasuredTrace> fromStream(const std::vector<core::StreamTrace> &stream, const std::string &path,
                                      const QString &preferredDevice)
{
    // Only one GPU's kernels are shown at first: the profile's GPU where the file has it.
    std::string shown = stream.empty() ? std::string() : stream.front().gpu;
    const std::string preferred = deviceKey(preferredDevice.toStdString());
    for (const auto &s : stream) {
        if (!preferred.empty() && deviceKey(s.gpu) == preferred) {
            shown = s.gpu;
            break;
        }
    }
    std::vector<MeasuredTrace> out;
    for (const auto &s : stream) {
        MeasuredTrace t;
        t.name = s.gpu + " " + s.kernel;
        t.source = path;
        t.kind = TraceKind::BandwidthVsWarps;
        t.x = s.warps_per_sm;
        t.y = s.gbs;
        t.visible = s.gpu == shown;
        out.push_back(std::move(t));
    }
    return out;
}

MeasuredTrace fromNcu(const core::NcuReport &report, const std::string &path)
{
    MeasuredTrace t;
    t.name = "ncu kernels";
    t.source = path;
    t.kind = TraceKind::KernelPoints;
    bool anyZ = false;
    for (const auto &k : report.kernels) {
        if (!k.warps_per_sm || !k.dram_gbs)
            continue;
        t.x.push_back(*k.warps_per_sm);
        t.y.push_back(*k.dram_gbs);
        const auto z = k.intensity();
        anyZ = anyZ || (z && *z > 0);
        t.extra.push_back(z && *z > 0 ? *z : std::numeric_limits<double>::quiet_NaN());
        t.labels.push_back(k.id == k.name ? k.name : k.name + " [" + k.id + "]");
    }
    if (t.x.empty()) {
        throw InputError(
                path
                + ": no kernel has both the achieved warps per SM and the DRAM throughput in bytes/s "
                  "(profile with ncu --csv --metrics "
                  "sm__warps_active.avg.per_cycle_active,dram__bytes.sum.per_second)");
    }
    if (!anyZ)
        t.extra.clear();
    return t;
}

MeasuredTrace fromPerfStat(const core::PerfStat &stat, const std::string &path)
{
    const core::MemoryDemand demand = core::memoryDemandFromPerfStat(stat);
    MeasuredTrace t;
    t.name = baseName(path) + " memory traffic";
    t.source = path;
    t.kind = TraceKind::BytesPerInterval;
    t.x = demand.times;
    t.extra = demand.seconds;
    t.labels = {"reads", "writes"};
    t.y = demand.read_bytes;
    t.y.insert(t.y.end(), demand.write_bytes.begin(), demand.write_bytes.end());
    return t;
}

std::string trimmed(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

} // namespace

TraceFormat detectTraceFormat(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return TraceFormat::GenericTable;
    const QByteArray head = file.read(64 * 1024);
    if (head.contains('\0'))
        return TraceFormat::GenericTable;
    const QStringList lines = QString::fromUtf8(head).split(QLatin1Char('\n'));
    if (head.contains("==PROF==")) // ncu's own messages before its table
        return TraceFormat::NcuCsv;
    QString first;
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.contains(QLatin1String("Kernel Name"))
            && (line.contains(QLatin1String("Metric Name")) || line.contains(QLatin1String("ID"))))
            return TraceFormat::NcuCsv;
        if (first.isEmpty() && !line.isEmpty() && !line.startsWith(QLatin1Char('#')))
            first = line;
    }
    if (first.isEmpty())
        return TraceFormat::GenericTable;
    if (first.startsWith(QLatin1String("blockSize")) && first.contains(QLatin1Char('|')))
        return TraceFormat::GpuStream;
    const QStringList fields = splitFields(first);
    // perf stat writes no header: its first record starts with a number (the interval time or the value).
    if (fields.size() >= 4 && core::parseTableNumber(fields.front().toStdString(), '.', false))
        return TraceFormat::PerfStat;
    const bool gbsColumn = std::any_of(fields.begin(), fields.end(),
                                       [](const QString &f) { return f.endsWith(QLatin1String("_GBs")); });
    if (fields.contains(QLatin1String("gpu")) && fields.contains(QLatin1String("warps_per_sm")) && gbsColumn)
        return TraceFormat::GpuStreamCsv;
    return TraceFormat::GenericTable;
}

TraceLoad loadTraceFile(const QString &path, const QString &preferredDevice)
{
    TraceLoad out;
    const std::string file = path.toStdString();
    try {
        if (path.endsWith(QLatin1String(".ncu-rep"), Qt::CaseInsensitive)) {
            throw InputError(file
                             + ": an Nsight Compute report is binary; export it as CSV first with "
                               "ncu --import FILE.ncu-rep --csv > FILE.csv");
        }
        out.format = detectTraceFormat(path);
        switch (out.format) {
        case TraceFormat::GpuStream:
            out.traces = fromStream(core::readGpuStream(file), file, preferredDevice);
            break;
        case TraceFormat::GpuStreamCsv:
            out.traces = fromStream(core::readGpuStreamCsv(file), file, preferredDevice);
            break;
        case TraceFormat::NcuCsv:
            out.traces.push_back(fromNcu(core::readNcuCsv(file), file));
            break;
        case TraceFormat::PerfStat:
            out.traces.push_back(fromPerfStat(core::readPerfStat(file), file));
            break;
        case TraceFormat::GenericTable:
            out.table = core::readCsv(file);
            break;
        }
        for (const auto &t : out.traces)
            core::validateTrace(t, file);
    } catch (const InputError &e) {
        out.traces.clear();
        out.table.reset();
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

TraceLoad tracesFromTable(const core::CsvTable &table, const TraceMapping &mapping)
{
    TraceLoad out;
    const std::string &source = table.source();
    try {
        const auto column = [&table](const QString &name) -> std::optional<std::size_t> {
            if (name.isEmpty())
                return std::nullopt;
            return table.column(name.toStdString());
        };
        const bool bytes = mapping.kind == TraceKind::BytesPerInterval;
        if (mapping.y.isEmpty())
            throw InputError(source + ": choose the column that holds y");
        if (mapping.x.isEmpty() && !bytes)
            throw InputError(source + ": choose the column that holds x");
        const auto xc = column(mapping.x);
        const std::size_t yc = *column(mapping.y);
        const auto ec = column(mapping.extra);
        const auto lc = column(mapping.label);

        std::vector<std::size_t> rows;
        for (std::size_t r = 0; r < table.rowCount(); ++r)
            rows.push_back(r);
        std::string where;
        if (const auto fc = column(mapping.filterColumn)) {
            const std::string wanted = mapping.filterValue.trimmed().toStdString();
            const auto wantedNumber = core::parseTableNumber(wanted, table.decimalSeparator());
            std::vector<std::size_t> kept;
            std::vector<std::string> seen;
            for (std::size_t r : rows) {
                const std::string cell = trimmed(table.cell(r, *fc));
                const auto v = core::parseTableNumber(cell, table.decimalSeparator());
                if (cell == wanted || (wantedNumber && v && *v == *wantedNumber))
                    kept.push_back(r);
                else if (seen.size() < 12 && std::find(seen.begin(), seen.end(), cell) == seen.end())
                    seen.push_back(cell);
            }
            if (kept.empty()) {
                std::string list;
                for (const auto &s : seen)
                    list += (list.empty() ? "" : ", ") + s;
                throw InputError(source + ": no rows where " + mapping.filterColumn.toStdString() + " = "
                                 + wanted + " (values of that column: " + list + ")");
            }
            rows = std::move(kept);
            where = " where " + mapping.filterColumn.toStdString() + " = " + wanted;
        }

        const auto value = [&table](std::size_t r, std::size_t c) {
            const double v = table.number(r, c);
            if (v < 0)
                throw InputError(table.where(r, c) + ": must not be negative (got "
                                 + std::string(table.cell(r, c)) + ")");
            return v;
        };
        MeasuredTrace t;
        t.kind = mapping.kind;
        t.source = source;
        t.name = baseName(source) + ": " + mapping.y.toStdString() + where;
        std::vector<double> second;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::size_t r = rows[i];
            t.x.push_back(xc ? value(r, *xc) : double(i + 1));
            t.y.push_back(value(r, yc));
            if (ec) {
                if (mapping.kind == TraceKind::KernelPoints && trimmed(table.cell(r, *ec)).empty()) {
                    t.extra.push_back(std::numeric_limits<double>::quiet_NaN()); // Z not measured
                } else {
                    const double v = value(r, *ec);
                    if (v == 0 && mapping.kind != TraceKind::BytesPerInterval)
                        throw InputError(table.where(r, *ec) + ": must be > 0");
                    (bytes ? second : t.extra).push_back(v);
                }
            }
            if (lc && !bytes)
                t.labels.push_back(trimmed(table.cell(r, *lc)));
            if (bytes && xc && i > 0 && t.x[i] <= t.x[i - 1])
                throw InputError(table.where(r, *xc) + ": times must increase from row to row");
        }
        if (bytes) {
            // Each unit lasts from the previous time to its own; the first as long as the second.
            for (std::size_t i = 0; i < t.x.size(); ++i) {
                const double len = i > 0 ? t.x[i] - t.x[i - 1]
                                         : (t.x.size() > 1 ? t.x[1] - t.x[0] : (t.x[0] > 0 ? t.x[0] : 1.0));
                t.extra.push_back(len);
            }
            t.labels.push_back(mapping.y.toStdString());
            if (ec) {
                t.labels.push_back(mapping.extra.toStdString());
                t.y.insert(t.y.end(), second.begin(), second.end());
            }
            t.name = baseName(source) + ": bytes" + where;
        }
        core::validateTrace(t, source);
        out.traces.push_back(std::move(t));
    } catch (const InputError &e) {
        out.traces.clear();
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

} // namespace crossroof::widgets
