// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <filesystem>
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

/// The user's profile directory as a program without Qt finds it: $XDG_DATA_HOME/Crossroof/profiles, or
/// $HOME/.local/share/Crossroof/profiles when XDG_DATA_HOME is unset or not absolute (the directory
/// QStandardPaths::AppDataLocation + "/profiles" names on Linux). Empty when neither variable is set.
std::filesystem::path userProfileDir();

/// The profiles saved or calibrated by the user: every *.json file directly in DIR, in file-name order,
/// each with user = true and origin = its path. A file that does not load, or whose id is a bundled
/// profile's id or one an earlier file in DIR already took, is skipped, and PROBLEMS gets one line that names
/// the file and says why. A directory that does not exist holds no profiles and is no problem.
std::vector<HardwareProfile> loadUserProfiles(const std::filesystem::path &dir,
                                              std::vector<std::string> &problems);

/// An id of a bundled profile, then of a profile in USER_PROFILES, or a path to a profile file (anything
/// with a '/' or ending in ".json", or "-" for standard input). Throws InputError for an unknown id or a bad
/// file.
HardwareProfile resolveProfile(const std::string &idOrPath, const std::vector<HardwareProfile> &userProfiles);

/// resolveProfile() with the user profiles of userProfileDir(), read only for an id no bundled profile has; an
/// unknown id's message also names the user profile files that were skipped.
HardwareProfile resolveProfile(const std::string &idOrPath);

} // namespace crossroof::core
