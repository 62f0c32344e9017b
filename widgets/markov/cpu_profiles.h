// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <vector>

namespace crossroof::widgets {

/// The CPU profiles whose mapping strategies the Markov and mapping views offer: the bundled ones with a
/// topology and, first, CURRENT when it has one (it replaces a bundled profile of the same id, as a profile
/// opened from a file or a session may).
std::vector<core::HardwareProfile> cpuProfiles(const core::HardwareProfile &current);

} // namespace crossroof::widgets
