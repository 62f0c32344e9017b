// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Markov CPI and mapping views' inputs, as a session saves them (core/session gathers them).

#include "core/markov/markov_counters.h"

#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

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

} // namespace crossroof::core
