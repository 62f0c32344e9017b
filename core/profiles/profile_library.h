// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiles/hardware_profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The profiles bundled from hardware_profiles/ (compiled in), validated once on first use, sorted by kind
/// and name. A bundled profile that fails validation is a build defect: it throws InputError naming the file.
const std::vector<HardwareProfile> &bundledProfiles();

/// The bundled profile with this id, or nullptr.
const HardwareProfile *findBundledProfile(std::string_view id);

/// The profile the GUI and the CLI open by default.
std::string_view defaultProfileId();

/// An id of a bundled profile, or a path to a profile file (anything with a '/' or ending in ".json").
/// Throws InputError for an unknown id or a bad file.
HardwareProfile resolveProfile(const std::string &idOrPath);

} // namespace crossroof::core
