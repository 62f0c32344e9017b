// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "csv_table.h"
#include "trace_set.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace crossroof::widgets {

/// The measured traces of the analysis (issue 6): what the overlays draw, the calibration fits and the
/// bandwidth view reads. Setters return early when nothing changes; each change emits a precise signal plus
/// changed().
class TraceState : public QObject
{
    Q_OBJECT
public:
    explicit TraceState(QObject *parent = nullptr);

    const std::vector<core::MeasuredTrace> &traces() const { return m_traces; }
    /// The trace with ID, or nullptr. The pointer is valid until the next change.
    const core::MeasuredTrace *trace(const QString &id) const;
    QStringList ids() const;

    /// Adds traces with fresh ids (any id they carry is replaced); one changed() for all. Returns the ids.
    QStringList add(std::vector<core::MeasuredTrace> traces);
    QString add(core::MeasuredTrace trace);
    bool remove(const QString &id);
    void setVisible(const QString &id, bool visible);
    void rename(const QString &id, const QString &name);
    /// Replaces every trace (opening a session): ids are kept, duplicates or empty ones are renewed.
    void setTraces(std::vector<core::MeasuredTrace> traces);
    void clear();

Q_SIGNALS:
    void traceAdded(const QString &id);
    void traceRemoved(const QString &id);
    /// Visibility or name of one trace.
    void traceChanged(const QString &id);
    /// Any change at all; overlays redraw on this.
    void changed();

private:
    core::MeasuredTrace *find(const QString &id);
    std::string nextId();

    std::vector<core::MeasuredTrace> m_traces;
    int m_serial = 0;
};

/// The file formats Crossroof reads measurements from.
enum class TraceFormat {
    GpuStream,    ///< gpu-benches' gpu-stream output, stream/<gpu>.txt
    GpuStreamCsv, ///< the tidy stream_vs_warps_per_sm.csv (gpu, warps_per_sm, <kernel>_GBs)
    NcuCsv,       ///< ncu --csv (details, summary or raw page)
    PerfStat,     ///< perf stat -x SEP -I MS with memory-controller CAS events
    GenericTable  ///< any CSV/TSV/whitespace table with a header: needs a column mapping
};

QString traceFormatName(TraceFormat format);

/// Reads the beginning of PATH and decides its format from the content (ncu's header or ==PROF== lines,
/// gpu-stream's "blockSize ... |" header, perf stat's header-less records, the tidy CSV's columns); anything
/// else is a generic table. Errors (a missing file, binary data) come from the reader, not from here.
TraceFormat detectTraceFormat(const QString &path);

/// What loading a file gave: the traces, or (generic tables) the parsed table for the mapping dialog, or
/// an error naming the file and, where there is one, the line and column.
struct TraceLoad
{
    TraceFormat format = TraceFormat::GenericTable;
    std::vector<core::MeasuredTrace> traces;
    std::optional<core::CsvTable> table; ///< GenericTable only
    QString error;

    bool ok() const { return error.isEmpty(); }
    bool needsMapping() const { return ok() && table.has_value(); }
};

/// Loads PATH with the importer its content asks for. gpu-stream files give one bandwidth-vs-warps trace per
/// kernel; the tidy CSV one per GPU and kernel, visible only for PREFERREDDEVICE (a profile id such as
/// "a100-40", matched with '-' read as '_') or else the first GPU; ncu one kernel-points trace (warps per SM,
/// DRAM GB/s, Z = instructions / requests where collected); perf stat one bytes-per-interval trace with the
/// connections "reads" and "writes" (CAS counts x 64 B). Ids are left empty for TraceState::add().
TraceLoad loadTraceFile(const QString &path, const QString &preferredDevice = {});

/// How the columns of a generic table become a trace.
struct TraceMapping
{
    core::TraceKind kind = core::TraceKind::BandwidthVsWarps;
    QString x;            ///< column; may be empty for bytes-per-interval (then unit i ends at i+1 s)
    QString y;            ///< column
    QString extra;        ///< optional: Z (kernel points), T (runtimes), a second connection (bytes)
    QString label;        ///< optional: a name per point (kernel points, runtimes)
    QString filterColumn; ///< optional: keep only rows where this column equals filterValue
    QString filterValue;
    bool operator==(const TraceMapping &) const = default;
};

/// Builds the trace MAPPING describes from TABLE (named after the file and the y column). Errors name the
/// file, and the line and column of a bad cell.
TraceLoad tracesFromTable(const core::CsvTable &table, const TraceMapping &mapping);

} // namespace crossroof::widgets
