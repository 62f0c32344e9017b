// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/trace_file_cache.h"

#include "core/support/error.h"
#include "core/traces/trace_reader.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace crossroof::core {

TraceFileCache::Entry &TraceFileCache::file(const std::string &path, const TraceOrigin &origin)
{
    std::error_code ec;
    std::string canonical = std::filesystem::canonical(path, ec).string();
    if (ec)
        canonical = path;
    std::error_code sizeError;
    std::error_code timeError;
    const std::uintmax_t size = std::filesystem::file_size(path, sizeError); // none for a FIFO
    const auto modified = std::filesystem::last_write_time(path, timeError);
    const Key key{canonical, origin.format, sizeError ? 0 : size,
                  timeError ? 0 : std::int64_t(modified.time_since_epoch().count())};
    auto [it, fresh] = m_files.try_emplace(key);
    Entry &file = it->second;
    if (fresh) {
        try {
            if (origin.format == TraceFormat::GenericTable) {
                file.table = readCsv(path);
            } else {
                file.traces = traceReader(origin.format).read(path, {}).traces;
                for (const MeasuredTrace &t : file.traces)
                    validateTrace(t, path);
            }
        } catch (const InputError &e) {
            file.error = e.what();
        }
    }
    if (!file.error.empty())
        throw InputError(file.error);
    return file;
}

MeasuredTrace TraceFileCache::reread(const std::string &path, const TraceOrigin &origin)
{
    Entry &entry = file(path, origin);
    if (entry.table)
        return traceFromTable(*entry.table, origin.mapping);
    if (origin.index >= entry.traces.size()) {
        throw InputError(path + ": holds " + std::to_string(entry.traces.size()) + " traces, not the "
                         + std::to_string(origin.index + 1) + " it held when it was imported (has it changed?)");
    }
    return entry.traces[origin.index];
}

std::size_t TraceFileCache::pointsAtMost(const std::string &path, const TraceOrigin &origin)
{
    Entry &entry = file(path, origin);
    if (entry.table)
        return entry.table->rowCount();
    if (origin.index >= entry.traces.size())
        return 0; // reread() says why
    const MeasuredTrace &t = entry.traces[origin.index];
    return std::max(t.x.size(), t.y.size());
}

} // namespace crossroof::core
