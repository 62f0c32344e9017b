// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A full disk for the length of a scope, for tests of what saving does when writing fails.
//
// The process's file size limit (RLIMIT_FSIZE) is lowered: a write that would make a file larger fails with
// EFBIG, as one on a full disk fails with ENOSPC, whoever the user is (root ignores permissions, so a read-only
// folder cannot stand in for this in a test run as root). SIGXFSZ, which the kernel sends with the failure,
// is ignored meanwhile. Files already larger stay readable and are not changed.

#include <sys/resource.h>

#include <csignal>

namespace crossroof::test {

class FullDisk
{
public:
    /// Lets no file grow beyond BYTES until the object goes.
    explicit FullDisk(rlim_t bytes)
    {
        m_ok = getrlimit(RLIMIT_FSIZE, &m_saved) == 0;
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        m_ok = m_ok && setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FullDisk()
    {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FullDisk(const FullDisk &) = delete;
    FullDisk &operator=(const FullDisk &) = delete;

    /// Whether the limit is in force (the test should fail when it is not).
    bool active() const { return m_ok; }

private:
    rlimit m_saved{};
    void (*m_oldHandler)(int) = nullptr;
    bool m_ok = false;
};

} // namespace crossroof::test
