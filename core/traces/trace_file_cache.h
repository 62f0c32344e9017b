// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The measurement files of a session's linked traces, each read once however many traces link to it.

#include "core/traces/csv_table.h"
#include "core/traces/trace_set.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace crossroof::core {

/// What rereadTrace() does, for many traces: a file is read (and a failure to read it met) once for all the
/// traces that come from it with the same importer, as long as it keeps its size and modification time. One
/// object serves one session load; it keeps each file's traces or table until it goes.
class TraceFileCache
{
public:
    /// The trace ORIGIN describes in PATH (rereadTrace()): the same importer and, for a table, the same
    /// mapping. Throws InputError naming the file when it cannot be read or no longer holds that trace.
    MeasuredTrace reread(const std::string &path, const TraceOrigin &origin);
    /// How many points reread() would give at most, without making the trace: a table's data rows (rows with an
    /// empty or bad cell are skipped when it is made), another file's trace's points. Throws as reread() does.
    std::size_t pointsAtMost(const std::string &path, const TraceOrigin &origin);

private:
    struct Entry;
    /// PATH's entry, read on the first call for it (and ORIGIN's importer), its error kept.
    Entry &file(const std::string &path, const TraceOrigin &origin);

    /// A file as it was read: the canonical path (or PATH as given, where it has none), the importer, the
    /// size and modification time.
    using Key = std::tuple<std::string, TraceFormat, std::uintmax_t, std::int64_t>;
    struct Entry
    {
        std::vector<MeasuredTrace> traces; ///< every importer but the generic table's
        std::optional<CsvTable> table;     ///< the generic table's
        std::string error;                 ///< why the file could not be read; empty: it was
    };
    std::map<Key, Entry> m_files;
};

} // namespace crossroof::core
