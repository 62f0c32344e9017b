// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Echoing what a user typed (an option, a --set value, a name) in a message of one short line.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// TEXT for a message: line breaks, tabs and the other control characters written as escapes ("\n", "\t",
/// "\x1b"), so that the message stays one line, and cut to at most about MAX characters with
/// "... (N characters)" after a cut one, so that it stays short. Never cuts inside a UTF-8 sequence.
std::string quoteForMessage(std::string_view text, std::size_t max = 80);

/// TEXT, a whole message, as one line of at most MAX bytes (with its control characters escaped as
/// quoteForMessage() escapes them): where it is longer, a message of several lines loses its last lines, and
/// then each word of over 100 bytes (a path over PATH_MAX, a value from a file) loses its middle, keeping its
/// start and its end (a path its file's name), except the first path, of up to 200 bytes: the file the message is
/// about; and then the message its middle, keeping its start (that first path whole) and its end, where the
/// reason is. Never cuts inside a UTF-8 sequence.
std::string shortMessage(std::string_view text, std::size_t max = 300);

/// "first; second; third; and N more": at most SHOWN of the PROBLEMS, each one quoteForMessage()'d to
/// EACH characters, joined with "; ".
std::string problemList(const std::vector<std::string> &problems, std::size_t shown = 3, std::size_t each = 200);

} // namespace crossroof::core
