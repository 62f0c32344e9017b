// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/background_priority.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace crossroof::widgets {

/// One long-lived thread that runs a view's background computations one at a time, at a background priority
/// (lowerThreadPriority()), started at the first post.
///
/// The GUI thread never waits for it while the work goes on: a computation that is cancelled is asked to stop
/// (its stop token) and left to end by itself. A thread of the idle class on a core another process keeps busy
/// may wait several milliseconds for a core before it sees the stop; joining it there, as a thread per
/// computation had to, made a slider step wait as long. Only the destructor and waitIdle() block.
class BackgroundWorker
{
public:
    using Item = std::function<void(std::stop_token)>;

    explicit BackgroundWorker(BackgroundPriority priority)
        : m_priority(priority)
    {
    }
    /// Stops the running computation, drops the waiting one and joins the thread.
    ~BackgroundWorker();
    BackgroundWorker(const BackgroundWorker &) = delete;
    BackgroundWorker &operator=(const BackgroundWorker &) = delete;

    /// ITEM runs once the running computation (if any) has ended; it replaces a computation still waiting.
    void post(Item item);
    /// Asks the running computation to stop and drops the waiting one.
    void cancel();
    /// Whether a computation runs or waits.
    bool busy() const;
    /// Blocks until no computation runs or waits (tests, figure export).
    void waitIdle();

private:
    void run(std::stop_token quit);

    const BackgroundPriority m_priority;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::condition_variable m_idle;
    std::optional<Item> m_waiting;
    std::stop_source m_itemStop; ///< raised for the running computation when it is cancelled
    bool m_running = false;
    std::jthread m_thread; ///< last: joined before the rest goes
};

} // namespace crossroof::widgets
