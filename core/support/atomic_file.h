// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Saving a file so that a reader never sees half of it and a failure leaves the old one whole.

#include <filesystem>
#include <string>
#include <string_view>

namespace crossroof::core {

/// Writes DATA to PATH atomically and returns an empty string, or why it did not in one line (the system's
/// reason, "No space left on device", or a refusal, "it is a FIFO (...)"). PATH is refused, untouched, when it is a symbolic link or
/// exists and is not a regular file (a directory, FIFO, socket or device node): saving replaces a file, it
/// never writes through a link or into a pipe or device. DATA goes to a new file of a unique name in PATH's
/// folder (created exclusively, so nothing already there, a link planted under a guessable name included, is
/// ever written through), is flushed to the disk and renamed over PATH; on any failure that file is removed.
/// A file replaced keeps its permissions; a new one gets those the umask allows.
std::string writeFileAtomically(const std::filesystem::path &path, std::string_view data);

} // namespace crossroof::core
