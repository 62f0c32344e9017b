// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/background_priority.h"

#include <QMetaObject>
#include <QObject>

#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <utility>

namespace crossroof::widgets {

/// Runs a view's analysis off the GUI thread, one computation at a time, and hands each result to DONE on the
/// GUI thread. A request made while one runs waits in its place, replacing any request already waiting, so
/// that a slider drag computes the values it has reached, not every value it passed: the GUI thread only draws.
/// The work must copy what it reads; it gets a stop token, raised when the job is destroyed. It runs at a lower
/// priority than the GUI thread (lowerThreadPriority()).
template<typename Result>
class LatestJob
{
public:
    using Work = std::function<Result(std::stop_token)>;

    LatestJob(QObject *context, std::function<void(Result)> done)
        : m_context(context)
        , m_done(std::move(done))
    {
    }
    ~LatestJob()
    {
        m_thread.request_stop();
        if (m_thread.joinable())
            m_thread.join();
    }
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    /// Computes WORK as soon as the one running (if any) has finished.
    void request(Work work)
    {
        m_waiting = std::move(work);
        if (!running())
            startWaiting();
    }
    /// Whether a computation runs or waits.
    bool busy() const { return running() || m_waiting || ready(); }
    /// Blocks until every request has been computed and handed to DONE (tests, figure export).
    void wait()
    {
        while (busy()) {
            if (m_thread.joinable())
                m_thread.join();
            deliver();
        }
    }

private:
    bool running() const
    {
        const std::lock_guard lock(m_mutex);
        return m_running;
    }
    bool ready() const
    {
        const std::lock_guard lock(m_mutex);
        return m_ready.has_value();
    }
    void startWaiting()
    {
        if (m_thread.joinable())
            m_thread.join();
        Work work = std::move(*m_waiting);
        m_waiting.reset();
        {
            const std::lock_guard lock(m_mutex);
            m_running = true;
        }
        m_thread = std::jthread([this, work = std::move(work)](std::stop_token stop) {
            lowerThreadPriority();
            Result result = work(stop);
            {
                const std::lock_guard lock(m_mutex);
                m_ready = std::move(result);
                m_running = false;
            }
            if (!stop.stop_requested())
                QMetaObject::invokeMethod(m_context, [this] { deliver(); }, Qt::QueuedConnection);
        });
    }
    /// On the GUI thread: hands over the finished result and starts the waiting request.
    void deliver()
    {
        std::optional<Result> result;
        {
            const std::lock_guard lock(m_mutex);
            result.swap(m_ready);
        }
        if (m_waiting && !running())
            startWaiting(); // the next one computes while this one is drawn
        // Shown even when a newer request waits: a drag sees results that lag one computation behind.
        if (result)
            m_done(std::move(*result));
    }

    QObject *m_context; ///< owns the job: a result posted to it goes with it
    std::function<void(Result)> m_done;
    mutable std::mutex m_mutex;
    bool m_running = false;
    std::optional<Result> m_ready;
    std::optional<Work> m_waiting;
    std::jthread m_thread;
};

} // namespace crossroof::widgets
