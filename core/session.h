// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hardware_profile.h"
#include "markov_counters.h"
#include "parameters.h"
#include "trace_set.h"

#include <filesystem>
#include <optional>
#include <string>

namespace crossroof::core {

/// The format version this Crossroof writes; files of a newer version are refused, older ones migrated.
inline constexpr int kSessionFormatVersion = 1;
/// The largest session file accepted.
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
    std::string profile_id = "clovertown-x5365";
    double p = 0.5;   ///< Table 4.4's worked example
    double q = 0.862; ///< Table 4.5's worked example
    std::vector<Point> points;
    bool operator==(const MappingSettings &) const = default;
};

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

/// Everything needed to reopen an analysis on any machine: the profile (embedded), every parameter and the
/// view settings.
struct Session
{
    HardwareProfile profile;
    XModelParams params;
    std::string current_view = "xgraph";
    OccupancySettings occupancy;
    MarkovSettings markov;
    MappingSettings mapping;
    StabilitySettings stability;
    std::vector<MeasuredTrace> traces; ///< loaded measurements, embedded
};

/// Parses and validates a session; errors name LABEL and the field ("s.crossroof: field 'parameters.L': ...").
Session parseSession(std::string_view json, const std::string &label);
/// Reads a session file (size-limited); errors name the file.
Session loadSessionFile(const std::filesystem::path &path);
/// The session as JSON text (format version kSessionFormatVersion).
std::string sessionToJson(const Session &session);

} // namespace crossroof::core
