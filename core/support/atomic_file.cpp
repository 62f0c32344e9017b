// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

namespace crossroof::core {

namespace {

std::string reason(int error)
{
    return std::strerror(error);
}

const char *kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "something other than a file";
}

/// Opens a new file "DIR/.NAME.XXXXXX" with a random suffix, exclusively; returns its descriptor or -1 with
/// errno set.
int createUnique(const std::filesystem::path &dir, const std::string &name, std::filesystem::path &temp)
{
    static constexpr char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device device;
    std::mt19937_64 random((std::uint64_t(device()) << 32) ^ device() ^ std::uint64_t(::getpid()));
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string suffix(10, ' ');
        for (char &c : suffix)
            c = kDigits[random() % (sizeof kDigits - 1)];
        temp = dir / ("." + name + "." + suffix + ".part");
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

} // namespace

std::string writeFileAtomically(const std::filesystem::path &path, std::string_view data)
{
    struct stat target{};
    const bool exists = ::lstat(path.c_str(), &target) == 0;
    if (!exists && errno != ENOENT)
        return reason(errno);
    if (exists && S_ISLNK(target.st_mode))
        return "it is a symbolic link (Crossroof saves only to a regular file, never through a link)";
    if (exists && !S_ISREG(target.st_mode))
        return std::string("it is ") + kindOf(target.st_mode) + " (Crossroof saves only to a regular file)";

    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::filesystem::path temp;
    // The name cut, so that the temporary name stays within the system's limit where PATH's does.
    const int fd = createUnique(dir, path.filename().string().substr(0, 128), temp);
    if (fd < 0)
        return reason(errno);

    int error = 0;
    if (exists && ::fchmod(fd, target.st_mode & 07777) != 0)
        error = errno;
    for (std::size_t done = 0; error == 0 && done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            error = n < 0 ? errno : EIO;
        else
            done += std::size_t(n);
    }
    if (error == 0 && ::fsync(fd) != 0)
        error = errno;
    if (::close(fd) != 0 && error == 0)
        error = errno;
    if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0)
        error = errno;
    if (error != 0) {
        ::unlink(temp.c_str());
        return reason(error);
    }
    // The rename itself reaches the disk with the folder (best effort: some file systems refuse this).
    if (const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return {};
}

} // namespace crossroof::core
