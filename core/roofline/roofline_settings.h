// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The roofline view's toggles, as a session saves them (core/session gathers them).

namespace crossroof::core {

/// The roofline view's toggles: kernel names on the points, predicted -> measured arrows, the L1 and L2 points
/// of the hierarchical roofline.
struct RooflineSettings
{
    bool names = true;
    bool predictions = true;
    bool levels = true;
    bool operator==(const RooflineSettings &) const = default;
};

} // namespace crossroof::core
