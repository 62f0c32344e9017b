// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/text_file.h"

#include "core/support/error.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
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

std::string overLimit(const std::string &label, std::uintmax_t maxBytes, std::string_view what)
{
    return label + ": over the " + limitText(maxBytes) + " limit for " + std::string(what);
}

/// A stream without a known size, read in blocks up to MAX_BYTES.
std::string readStream(std::istream &in, const std::string &label, std::uintmax_t maxBytes,
                       std::string_view what)
{
    std::string text;
    char block[64 * 1024];
    while (in.read(block, sizeof block) || in.gcount() > 0) {
        text.append(block, std::size_t(in.gcount()));
        if (text.size() > maxBytes)
            throw InputError(overLimit(label, maxBytes, what));
    }
    if (in.bad())
        throw InputError(label + ": read error");
    return text;
}

/// What every reader expects: no UTF-8 byte-order mark (editors on Windows write one), and '\n' line ends
/// also in a file written with the classic Mac's bare '\r' (spreadsheets still offer it).
std::string normalized(std::string text)
{
    if (text.starts_with("\xef\xbb\xbf"))
        text.erase(0, 3);
    if (text.find('\n') == std::string::npos)
        std::replace(text.begin(), text.end(), '\r', '\n');
    return text;
}

} // namespace

bool isStandardInput(const std::filesystem::path &path)
{
    return path == "-";
}

bool isStream(const std::filesystem::path &path)
{
    std::error_code ec;
    return isStandardInput(path)
           || (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)
               && !std::filesystem::is_directory(path, ec));
}

std::string readTextFile(const std::filesystem::path &path, std::uintmax_t maxBytes, std::string_view what)
{
    const std::string label = isStandardInput(path) ? std::string("standard input") : path.string();
    if (isStream(path)) {
        // Kept for the process: a pipe cannot be read twice, and the importers look at a file's head before
        // they parse it.
        static std::mutex lock;
        static std::map<std::string, std::string> streams;
        const std::lock_guard<std::mutex> guard(lock);
        auto it = streams.find(path.string());
        if (it == streams.end()) {
            std::string text;
            if (isStandardInput(path)) {
                text = readStream(std::cin, label, maxBytes, what);
            } else {
                std::ifstream in(path, std::ios::binary);
                if (!in)
                    throw InputError(label + ": cannot open");
                text = readStream(in, label, maxBytes, what);
            }
            it = streams.emplace(path.string(), normalized(std::move(text))).first;
        }
        if (it->second.size() > maxBytes)
            throw InputError(overLimit(label, maxBytes, what));
        return it->second;
    }
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
    return normalized(std::move(text));
}

} // namespace crossroof::core
