// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The code-skeleton view's inputs, as a session saves them (core/session gathers them).

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crossroof::core {

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

} // namespace crossroof::core
