// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The stability view's choices, as a session saves them (core/session gathers them).

#include <string>

namespace crossroof::core {

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

} // namespace crossroof::core
