// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/csv_table.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_set.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// Reads the beginning of PATH and decides its format from the content (ncu's header or ==PROF== lines,
/// gpu-stream's "blockSize ... |" header, perf stat's header-less records, the tidy CSV's columns); anything
/// else, an unreadable file included, is a generic table (whose reader then says what is wrong).
TraceFormat detectTraceFormat(const std::string &path);

/// What reading a measurement file gave: the traces, or for a generic table the parsed table, which needs a
/// TraceMapping (traceFromTable()).
struct TraceFile
{
    TraceFormat format = TraceFormat::GenericTable;
    std::vector<MeasuredTrace> traces;
    std::optional<CsvTable> table; ///< GenericTable only
    /// The device the file names or implies, for a check against the profile (checkDevice()): a gpu-stream
    /// file's GPU (its file name) and SM count (threads / blockSize), the tidy CSV's shown GPU and its
    /// sm_count, ncu's device. None where the format carries no device: perf stat (no CPU model; its CPU
    /// numbers count logical CPUs, not cores) and generic tables.
    std::optional<NcuDevice> device;
    /// An Nsight Compute file's kernels as read (NcuCsv only), so that the Kernels dock takes them without
    /// reading the file again.
    std::shared_ptr<const NcuReport> kernels;
};

/// The kernel-points trace of REPORT, read from PATH: one point per kernel with achieved warps per SM and a
/// measured DRAM throughput (x, y), its Z = instructions / requests where collected (extra) and its label
/// "short name [ID]". Throws InputError naming PATH when no kernel has both.
MeasuredTrace kernelPointsTrace(const NcuReport &report, const std::string &path);

/// Reads PATH with the importer its content asks for (detectTraceFormat()). gpu-stream files give one
/// bandwidth-vs-warps trace per kernel; the tidy CSV one per GPU and kernel, visible only for
/// PREFERREDDEVICE (a profile id such as "a100-40", matched with '-' read as '_') or else the first GPU; ncu
/// one kernel-points trace (warps per SM, DRAM GB/s, Z = instructions / requests where collected); perf stat
/// one bytes-per-interval trace with the connections "reads" and "writes" (CAS counts x 64 B). Every trace
/// carries its origin; ids are left empty. Throws InputError naming the file (and line and column).
TraceFile readTraceFile(const std::string &path, const std::string &preferredDevice = {});
/// Like readTraceFile(), with the format given (none: detected), as a `--format` option asks.
TraceFile readTraceFileAs(const std::string &path, std::optional<TraceFormat> format,
                          const std::string &preferredDevice = {});

/// Builds the trace MAPPING describes from TABLE (named after the file and the y column), with its origin.
/// Throws InputError naming the file, and the line and column of a bad cell.
MeasuredTrace traceFromTable(const CsvTable &table, const TraceMapping &mapping);

/// Reads the trace ORIGIN describes from PATH again (a session's linked trace): the same importer and, for a
/// table, the same mapping. Throws InputError naming the file when it cannot be read or no longer holds that
/// trace.
MeasuredTrace rereadTrace(const std::string &path, const TraceOrigin &origin);

} // namespace crossroof::core
