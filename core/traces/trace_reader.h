// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The measurement-file formats the importer knows, each as a reader that recognises its own files from their
// beginning and reads them into a TraceFile. The importer (trace_import.h: detectTraceFormat(),
// readTraceFile()) asks each in turn.

#include "core/traces/trace_import.h"
#include "core/traces/trace_set.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The beginning of a file, as the readers look at it to recognise their format.
struct TraceFileHead
{
    std::string_view text;           ///< the first 64 KiB, without NUL bytes
    std::string_view first_line;     ///< the first line that is neither blank nor a '#' comment, trimmed
    std::vector<std::string> fields; ///< FIRST_LINE split on the first of tab, comma or semicolon it holds,
                                     ///< else on runs of blanks; quotes around a field removed
};

/// TEXT, a file's first bytes without NUL, as the readers look at it.
TraceFileHead traceFileHead(std::string_view text);

/// One measurement-file format.
struct TraceReader
{
    TraceFormat format;
    /// Whether a file that begins with HEAD is in this format. Asked in the order of traceReaders(): a
    /// reader need not tell its files from those of the readers before it.
    bool (*recognizes)(const TraceFileHead &head);
    /// PATH read in this format: its traces (in the order of their origin index, not yet validated), or for
    /// GenericTable the table. PREFERREDDEVICE picks the trace shown first where a file holds several GPUs.
    /// Throws InputError naming the file (and line and column).
    TraceFile (*read)(const std::string &path, const std::string &preferredDevice);
};

/// Every reader in the order the importer asks them: Nsight Compute CSV, gpu-benches' text outputs (gpu-stream,
/// gpu-latency, gpu-cache, gpu-l2-cache, gpu-l2-stream, gpu-roofline, gpu-strides), perf stat, gpu-benches'
/// tidy CSV, and last the generic table, which takes any file.
std::span<const TraceReader *const> traceReaders();
/// The reader of FORMAT.
const TraceReader &traceReader(TraceFormat format);

namespace detail {

// The readers, each defined beside its format's adapter (ncu_reader.cpp, gpu_benches_reader.cpp,
// perf_stat_reader.cpp, trace_reader.cpp).
extern const TraceReader kNcuCsvReader;
extern const TraceReader kGpuStreamReader;
extern const TraceReader kGpuStreamCsvReader;
extern const TraceReader kGpuLatencyReader;
extern const TraceReader kGpuCacheReader;
extern const TraceReader kGpuL2CacheReader;
extern const TraceReader kGpuL2StreamReader;
extern const TraceReader kGpuRooflineReader;
extern const TraceReader kGpuStridesReader;
extern const TraceReader kPerfStatReader;
extern const TraceReader kTableReader;

/// The file name without its folder and last extension ("runs/perf_result.tsv" -> "perf_result"), which
/// names the traces read from it.
std::string traceFileStem(const std::string &path);

} // namespace detail

} // namespace crossroof::core
