// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/markov/markov_counters.h"
#include "core/modeltree/training_set.h"
#include "core/xmodel/parameters.h"
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

/// The occupancy and zigzag views' inputs (MODEL.md 2).
struct OccupancySettings
{
    std::string cc = "8.0";
    int threads_per_block = 256;
    int regs_per_thread = 32;
    long long smem_per_block = 0;
    std::optional<long long> smem_config;
    std::string mode = "cuda";
    bool linked = false;
    std::optional<int> manual_active_blocks;
    long long sm_count = 1;
    long long requested_blocks_max = 0; ///< 0: automatic
    bool operator==(const OccupancySettings &) const = default;
};

/// The Markov CPI view's inputs (MODEL.md 3).
struct MarkovSettings
{
    int groups = 4;
    int threads_per_group = 2;
    /// "PROFILE/STRATEGY" when the topology is a mapping strategy of a CPU profile; empty: groups x threads.
    std::string topology_source;
    std::string grid = "thesis";
    std::optional<long long> steps; ///< transient after this many steps; none: steady state
    int p_index = 12;
    int q_index = 20;
    std::optional<double> measured_cpi; ///< drawn as its iso-CPI curve
    /// The counters p and q were estimated from, once the user has opened that dialog; their nine starting
    /// pairs are drawn on the surface.
    std::optional<CounterInputs> counters;
    bool operator==(const MarkovSettings &) const = default;
};

/// The mapping view's inputs: whose strategies, the (p, q) they share and the points measured per strategy.
struct MappingSettings
{
    struct Point
    {
        std::string strategy;
        double p = 0;
        double q = 0;
        bool operator==(const Point &) const = default;
    };
    /// A strategy the user defined for the profile: thread t on cores[t].
    struct OwnStrategy
    {
        std::string id;
        std::vector<int> cores;
        bool operator==(const OwnStrategy &) const = default;
    };
    std::string profile_id = "clovertown-x5365";
    double p = 0.5;   ///< Table 4.4's worked example
    double q = 0.862; ///< Table 4.5's worked example
    std::vector<Point> points;
    std::vector<OwnStrategy> own_strategies; ///< the user's, beside the profile's
    bool operator==(const MappingSettings &) const = default;
};
/// The zigzag view's TMM inputs (MODEL.md 2.2; Eq. 1, 6-8) and its APSP preset (Eq. 10-14), kept as the text
/// the user typed, so that an entry the view cannot read (half typed, not a number) reopens as it was left.
struct TmmSettings
{
    std::string work = "1e9";             ///< T1
    std::string span = "0";               ///< T_inf
    std::string transactions = "1e7";     ///< M
    std::string latency = "400";          ///< L
    std::string threads_per_core = "1";   ///< T
    std::string cores = "480";            ///< P
    std::string requested_blocks = "100"; ///< B_r the panel evaluates at
    int apsp_vertices = 8192;             ///< APSP n
    int apsp_sub_block = 32;              ///< APSP S_D
    std::string apsp_chunk = "32";        ///< APSP C
    bool operator==(const TmmSettings &) const = default;
};
/// The longest text a TMM input may hold in a session.
inline constexpr std::size_t kMaxTmmTextLength = 64;

/// The stability view's choices (MODEL.md 1.6).
struct StabilitySettings
{
    std::string x_key = "n";
    std::string y_key = "Z";
    int resolution = 128;
    std::string sweep_key = "n";
    bool sweep_shows_k = false; ///< the hysteresis plot shows k instead of the MS throughput
    bool operator==(const StabilitySettings &) const = default;
};

/// The roofline view's toggles: kernel names on the points, predicted -> measured arrows, the L1 and L2 points
/// of the hierarchical roofline.
struct RooflineSettings
{
    bool names = true;
    bool predictions = true;
    bool levels = true;
    bool operator==(const RooflineSettings &) const = default;
};

/// The code-skeleton view's inputs (MODEL.md 8).
struct SkeletonSettings
{
    std::optional<std::string> text;          ///< the skeleton; none: the bundled HACCmk sample
    std::string profile_id = "xeon-phi-7210"; ///< a bundled CPU profile with a core model
    int unroll = 4;                           ///< 1..16
    /// Measured cycles of the whole nest, (unroll factor, cycles), compared with the projection.
    std::vector<std::pair<int, double>> measured;
    bool operator==(const SkeletonSettings &) const = default;
};

/// The Extrapolate view's inputs (MODEL.md 9): the training runs the model trees learn from, and whether the
/// trees smooth their predictions.
struct ExtrapolateSettings
{
    /// The training runs, with the file and the columns they were read from; none: nothing imported.
    std::optional<TrainingSet> training;
    bool smoothing = true;
};

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
