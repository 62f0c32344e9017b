// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/text_file.h"

#include "support/error.h"

#include <fstream>
#include <system_error>

namespace crossroof::core {

namespace {

/// A size limit as the message shows it: whole MiB or KiB where it is one, bytes otherwise.
std::string limitText(std::uintmax_t bytes)
{
    constexpr std::uintmax_t kKiB = 1024;
    constexpr std::uintmax_t kMiB = 1024 * kKiB;
    if (bytes >= kMiB && bytes % kMiB == 0)
        return std::to_string(bytes / kMiB) + " MiB";
    if (bytes >= kKiB && bytes % kKiB == 0)
        return std::to_string(bytes / kKiB) + " KiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

std::string readTextFile(const std::filesystem::path &path, std::uintmax_t maxBytes, std::string_view what)
{
    const std::string label = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(label + ": is a directory, not a file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        throw InputError(label + ": cannot read (" + ec.message() + ")");
    if (size > maxBytes) {
        throw InputError(label + ": " + std::to_string(size) + " bytes, over the " + limitText(maxBytes)
                         + " limit for " + std::string(what));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(label + ": cannot open");
    std::string text(std::size_t(size), '\0');
    in.read(text.data(), std::streamsize(size));
    if (!in)
        throw InputError(label + ": read error");
    return text;
}

} // namespace crossroof::core
