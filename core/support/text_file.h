// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a whole text file with a size limit: the one file reader behind every importer and JSON loader.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace crossroof::core {

/// The whole file at PATH, read only if it is at most MAX_BYTES long (checked before reading). WHAT names
/// the kind of file in the size message ("CSV files"). Throws InputError naming the path: "PATH: cannot
/// read (REASON)", "PATH: is a directory, not a file", "PATH: N bytes, over the M MiB limit for WHAT",
/// "PATH: cannot open", "PATH: read error".
std::string readTextFile(const std::filesystem::path &path, std::uintmax_t maxBytes, std::string_view what);

} // namespace crossroof::core
