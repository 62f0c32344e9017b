// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What changed between two values of a view's settings, in the words of the view's controls: the text of an
// undo step ("Unroll 4 → 8", "Grid thesis → uniform 100").

#include "core/markov/markov_settings.h"
#include "core/modeltree/extrapolate_settings.h"
#include "core/occupancy/occupancy_settings.h"
#include "core/roofline/roofline_settings.h"
#include "core/skeleton/skeleton_settings.h"
#include "core/xmodel/stability_settings.h"

#include <string>

namespace crossroof::core {

/// Each field that differs as "NAME BEFORE → AFTER", NAME as its control is labelled, in the order the view
/// shows them, joined with "; " (the first three, then "and N more"); empty when no field differs.
std::string describeChange(const TmmSettings &before, const TmmSettings &after);
std::string describeChange(const OccupancySettings &before, const OccupancySettings &after);
std::string describeChange(const MarkovSettings &before, const MarkovSettings &after);
std::string describeChange(const MappingSettings &before, const MappingSettings &after);
std::string describeChange(const StabilitySettings &before, const StabilitySettings &after);
std::string describeChange(const RooflineSettings &before, const RooflineSettings &after);
std::string describeChange(const SkeletonSettings &before, const SkeletonSettings &after);
std::string describeChange(const ExtrapolateSettings &before, const ExtrapolateSettings &after);

/// Which of OccupancySettings' fields the Zigzag view edits (SMs, B_a, B_r up to) rather than the Occupancy
/// view: true when only those differ between BEFORE and AFTER.
bool onlyZigzagInputsDiffer(const OccupancySettings &before, const OccupancySettings &after);

} // namespace crossroof::core
