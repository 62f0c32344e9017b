// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/markov/markov_settings.h"
#include "core/modeltree/extrapolate_settings.h"
#include "core/occupancy/occupancy_settings.h"
#include "core/roofline/roofline_settings.h"
#include "core/skeleton/skeleton_settings.h"
#include "core/xmodel/parameters.h"
#include "core/xmodel/stability_settings.h"
#include "core/traces/trace_set.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// The format version this Crossroof writes; files of a newer version are refused, older ones migrated.
/// Version 2 added the TMM inputs ("tmm") and linked traces, version 3 Extrapolate's training runs, the
/// Kernels dock's file and the zoomed plots; an older file reads with their defaults.
inline constexpr int kSessionFormatVersion = 3;
/// The largest session file accepted; saveSessionFile() refuses to write a larger one.
inline constexpr std::uintmax_t kMaxSessionBytes = 64u << 20;

/// A plot the user zoomed or panned: the ranges of its bottom and left axes.
struct PlotZoom
{
    std::string view; ///< the view's name, as in Session::current_view
    int plot = 0;     ///< which of the view's figure plots, in their order
    double x_lower = 0, x_upper = 1;
    double y_lower = 0, y_upper = 1;
    bool operator==(const PlotZoom &) const = default;
};

/// Everything needed to reopen an analysis on any machine: the profile (embedded), every parameter and the
/// view settings.
struct Session
{
    HardwareProfile profile;
    XModelParams params;
    std::string current_view = "xgraph";
    OccupancySettings occupancy;
    TmmSettings tmm;
    MarkovSettings markov;
    MappingSettings mapping;
    StabilitySettings stability;
    RooflineSettings roofline;
    SkeletonSettings skeleton;
    ExtrapolateSettings extrapolate;
    /// The Nsight Compute export in the Kernels dock (an absolute path once read), or empty. Written relative
    /// to the session file's folder; the file is read again on opening.
    std::string kernel_file;
    /// The plots zoomed or panned; the others show the view's own ranges.
    std::vector<PlotZoom> zoom;
    std::vector<MeasuredTrace> traces; ///< loaded measurements
    /// The id of the trace whose points stand in for f(k) (params.measured_f), or empty; likewise for g(x).
    std::string supply_trace;
    std::string demand_trace;
    /// Save the traces (and Extrapolate's training runs) as links to their files (paths relative to the session
    /// file, read again on opening) instead of embedding their points; see savesAsLink().
    bool link_traces = false;
    /// The linked traces (and training file) that could not be read when the session was opened, one message
    /// each naming the session field and the file; those are left out of `traces` (and `extrapolate`). Never
    /// written.
    std::vector<std::string> trace_problems;
};

/// Parses and validates a session; errors name LABEL and the field ("s.crossroof: field 'parameters.L':
/// ..."). Linked traces are read again from their paths, relative to FOLDER (the session file's folder;
/// empty: the current directory), with the importer and mapping they were read with; one that cannot be read
/// is left out and described in trace_problems rather than failing the session.
Session parseSession(std::string_view json, const std::string &label,
                     const std::filesystem::path &folder = {});
/// Reads a session file (size-limited); errors name the file. Linked traces are relative to its folder.
Session loadSessionFile(const std::filesystem::path &path);
/// Whether sessionToJson() writes the training runs as a link to their file: the session links traces, and the
/// file they were read from still exists.
bool savesTrainingAsLink(const Session &session);
/// Whether sessionToJson() writes TRACE as a link: the session links traces, and the trace was read from a
/// file (it has an origin) that still exists. Every other trace is embedded, points and all.
bool savesAsLink(const Session &session, const MeasuredTrace &trace);
/// The session as JSON text (format version kSessionFormatVersion), to be written to FILE: linked traces get
/// their paths relative to FILE's folder (empty: the current directory), or absolute where there is no
/// relative path (another drive).
/// The text is compact (one top-level field per line, one trace per line, no indentation inside), so that
/// a session is about as large as its numbers.
std::string sessionToJson(const Session &session, const std::filesystem::path &file = {});
/// Writes SESSION to FILE (sessionToJson(), then core::writeFileAtomically()) and returns an empty string, or
/// why it did not in one line. A session whose text would be over kMaxSessionBytes is refused before anything
/// is written, since it could not be opened again: whatever is at FILE stays as it was.
std::string saveSessionFile(const Session &session, const std::filesystem::path &file);

} // namespace crossroof::core
