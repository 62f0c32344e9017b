// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing the points of a measurement file, as fit-trace and the --supply/--demand options do.
#pragma once

#include "args.h"
#include "core/traces/csv_table.h"
#include "core/traces/trace_import.h"
#include "core/xmodel/measured_curve.h"

#include <memory>
#include <string>
#include <vector>

namespace crossroof::cli {

/// Rows of TABLE that satisfy every COLUMN=VALUE (text equal after trimming, or equal as numbers). Throws
/// InputError naming the option, or the values the column has when no row matches.
std::vector<std::size_t> selectRows(const core::CsvTable &table, const std::vector<std::string> &filters);

/// The trace of warps per SM against GB/s that SERIES names (by name), else the first one.
const core::MeasuredTrace &pickSeries(const core::TraceFile &file, const std::string &path, const std::string &series);

/// SPEC with the options of a measured f(k) and g(x) added: --supply FILE, --supply-x COL, --supply-y COL,
/// --supply-series NAME, --supply-where COL=VALUE (repeatable), and the same for --demand.
Args::Spec withMeasuredCurves(Args::Spec spec);

/// The measured curve --PREFIX FILE names ("supply": f(k) in GB/s against warps; "demand": g(x) in Gop/s
/// against warps computing): a table with --PREFIX-x and --PREFIX-y (rows filtered by --PREFIX-where), or a
/// gpu-stream, ncu or probe file (--PREFIX-series picks one trace). None without --PREFIX. Throws InputError
/// naming the file and line of a bad point (fewer than 3, repeated or unordered warps, negative throughput).
std::shared_ptr<const core::MeasuredCurve> measuredCurveOption(const Args &args, const std::string &prefix);

} // namespace crossroof::cli
