// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/text_file.h"

#include "core/support/error.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <system_error>

namespace crossroof::core {

namespace {

std::atomic<std::uint64_t> filesRead{0};

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

/// A FIFO, terminal or device node at PATH, read as its data arrives, up to MAX_BYTES, never waiting longer
/// than kStreamWaitSeconds for a FIFO's writer to appear or for the next data: a FIFO nobody writes to (or
/// a terminal nobody types at) gives a message naming it instead of blocking the program forever.
std::string readSpecialFile(const std::filesystem::path &path, const std::string &label, std::uintmax_t maxBytes,
                            std::string_view what)
{
    // Opened without waiting: a plain open of a FIFO blocks until a writer opens the other end.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        throw InputError(label + ": cannot open (" + std::strerror(errno) + ")");
    struct Closer
    {
        int fd;
        ~Closer() { ::close(fd); }
    } const closer{fd};
    struct stat info{};
    // A FIFO's read gives 0 both at its end and while no program has opened it for writing yet.
    const bool fifo = ::fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode);
    bool writer = !fifo;
    const std::string waited = std::to_string(kStreamWaitSeconds) + " s";
    using Clock = std::chrono::steady_clock;
    auto since = Clock::now(); // of the last data, or of the start
    const auto left = [&since] {
        const auto passed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since);
        return int(std::max<long long>(0, kStreamWaitSeconds * 1000LL - passed.count()));
    };
    std::string text;
    char block[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(fd, block, sizeof block);
        if (n > 0) {
            text.append(block, std::size_t(n));
            if (text.size() > maxBytes)
                throw InputError(overLimit(label, maxBytes, what));
            writer = true;
            since = Clock::now();
            continue;
        }
        if (n == 0 && writer)
            break;
        pollfd wait{fd, POLLIN, 0};
        if (n == 0) {
            // A FIFO without a writer so far: wait for one a little at a time (a writer that only opens it
            // wakes no poll()); a writer that came and went without writing leaves a hang-up, an empty file.
            if (left() == 0)
                throw InputError(label + ": a FIFO that no program writes to (nothing came in " + waited + ")");
            if (::poll(&wait, 1, std::min(left(), 50)) > 0 && (wait.revents & POLLHUP) && !(wait.revents & POLLIN))
                break;
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            throw InputError(label + ": read error (" + std::strerror(errno) + ")");
        writer = true; // no data yet, but a writer (or a terminal, a device)
        const int ready = left() > 0 ? ::poll(&wait, 1, left()) : 0;
        if (ready == 0)
            throw InputError(label + ": nothing to read for " + waited
                             + " (a FIFO, terminal or device that stopped sending)");
        if (ready < 0 && errno != EINTR)
            throw InputError(label + ": read error (" + std::strerror(errno) + ")");
    }
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

std::uint64_t textFilesRead()
{
    return filesRead.load();
}

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
            ++filesRead;
            std::string text;
            if (isStandardInput(path)) {
                text = readStream(std::cin, label, maxBytes, what);
            } else {
                text = readSpecialFile(path, label, maxBytes, what);
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
    ++filesRead;
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
