// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/trace_import.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class QWidget;

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

using core::TraceFormat;
using core::TraceMapping;

QString traceFormatName(TraceFormat format);

/// What loading a file gave: the traces, or (generic tables) the parsed table for the mapping dialog, or
/// an error naming the file and, where there is one, the line and column.
struct TraceLoad
{
    TraceFormat format = TraceFormat::GenericTable;
    std::vector<core::MeasuredTrace> traces;
    std::optional<core::CsvTable> table; ///< GenericTable only
    std::optional<core::NcuDevice> device; ///< the device the file names or implies (core::TraceFile::device)
    std::shared_ptr<const core::NcuReport> kernels; ///< an Nsight Compute file's kernels (core::TraceFile::kernels)
    QString error;
    bool cancelled = false; ///< the user cancelled the read: nothing was read, and nothing is wrong

    bool ok() const { return error.isEmpty() && !cancelled; }
    bool needsMapping() const { return ok() && table.has_value(); }
};

/// Loads PATH with the importer its content asks for (core::readTraceFile(), which says what each format
/// gives); PREFERREDDEVICE is the profile id whose GPU a multi-GPU file shows. Ids are left empty for
/// TraceState::add().
/// A read that takes long shows its progress over PROGRESS_PARENT and can be cancelled (runWithProgress()).
TraceLoad loadTraceFile(const QString &path, const QString &preferredDevice = {}, QWidget *progressParent = nullptr);

/// Builds the trace MAPPING describes from TABLE (core::traceFromTable()), or the error.
TraceLoad tracesFromTable(const core::CsvTable &table, const TraceMapping &mapping);

} // namespace crossroof::widgets
