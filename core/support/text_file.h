// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a whole text file with a size limit: the one file reader behind every importer and JSON loader.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace crossroof::core {

/// How long reading a FIFO, terminal or device waits for a writer or for the next data before it gives up.
inline constexpr int kStreamWaitSeconds = 5;

/// The whole file at PATH, read only if it is at most MAX_BYTES long (checked before reading). WHAT names
/// the kind of file in the size message ("CSV files"). Throws InputError naming the path: "PATH: cannot
/// read (REASON)", "PATH: is a directory, not a file", "PATH: N bytes, over the M MiB limit for WHAT",
/// "PATH: cannot open", "PATH: read error".
///
/// The text comes without a UTF-8 byte-order mark, and a file whose lines end in a bare '\r' (no '\n'
/// anywhere) has them turned into '\n', so that every reader sees one form.
///
/// PATH "-" is standard input. It and other files without a size (a FIFO, a shell's <(...), a terminal, a
/// device node) are read up to the limit (refused past it) and only once: a second read of the same path (the
/// format detection, then the reader) gets the same text. Those other than standard input are read as data
/// arrives, waiting at most kStreamWaitSeconds for a FIFO's writer to appear or for the next data: "PATH: a
/// FIFO that no program writes to (nothing came in 5 s)", "PATH: nothing to read for 5 s (...)".
std::string readTextFile(const std::filesystem::path &path, std::uintmax_t maxBytes, std::string_view what);

/// How many files readTextFile() has read in this process (a kept stream given again is not read again): for
/// tests that a file is read once, however many things ask for it.
std::uint64_t textFilesRead();

/// Whether PATH names standard input ("-").
bool isStandardInput(const std::filesystem::path &path);
/// Whether PATH is standard input or a file without a size (a pipe, a character device): read once, kept.
bool isStream(const std::filesystem::path &path);

} // namespace crossroof::core
