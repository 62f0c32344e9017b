// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <string>
#include <vector>

namespace crossroof::core {

/// The fields in which two profiles of one id give the model different numbers or a different machine: each
/// parameter key (MODEL.md 1.2) whose value differs, then "cache", "name", "kind", "architecture",
/// "compute_capability", "fp64_lanes_sm", "topology" and "core_model" where they differ. Descriptions,
/// sources and where a profile was read from are not compared. Empty: the profiles are the same machine.
std::vector<std::string> profileDifferences(const HardwareProfile &library, const HardwareProfile &other);

/// How a profile that a session or a file carries, and that differs from the library's profile of its id, is
/// named beside it: "H100 SXM 80GB (Hopper), from study.crossroof: R, L, M, R_dram differ" (DIFFERENCES as
/// profileDifferences() gives them, cut to a line's worth), or "NAME, from SOURCE" when the library has no
/// profile of its id (DIFFERENCES empty).
std::string embeddedProfileLabel(const HardwareProfile &profile, const std::string &source,
                                 const std::vector<std::string> &differences);

} // namespace crossroof::core
