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
///
/// PATH "-" is standard input. It and other files without a size (/dev/stdin, a shell's <(...)) are read
/// up to the limit (refused past it) and only once: a second read of the same path (the format detection,
/// then the reader) gets the same text.
std::string readTextFile(const std::filesystem::path &path, std::uintmax_t maxBytes, std::string_view what);

/// Whether PATH names standard input ("-").
bool isStandardInput(const std::filesystem::path &path);
/// Whether PATH is standard input or a file without a size (a pipe, a character device): read once, kept.
bool isStream(const std::filesystem::path &path);

} // namespace crossroof::core
