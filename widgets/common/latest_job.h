// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/background_worker.h"

#include <QMetaObject>
#include <QObject>

#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <utility>

namespace crossroof::widgets {

/// Runs a view's analysis off the GUI thread, one computation at a time, and hands each result to DONE on the
/// GUI thread. A request made while one runs waits in its place, replacing any request already waiting, so
/// that a slider drag computes the values it has reached, not every value it passed: the GUI thread only draws.
/// The work must copy what it reads; it gets a stop token, raised when the job is destroyed. It runs on the
/// job's BackgroundWorker, below the GUI thread (BackgroundPriority::Lower): a request never waits for it to end.
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
    ~LatestJob() = default; // the worker, destroyed first, stops the work and waits for it
    LatestJob(const LatestJob &) = delete;
    LatestJob &operator=(const LatestJob &) = delete;

    /// Computes WORK as soon as the one running (if any) has finished.
    void request(Work work)
    {
        m_worker.post([this, work = std::move(work)](std::stop_token stop) {
            Result result = work(stop);
            {
                const std::lock_guard lock(m_mutex);
                m_ready = std::move(result);
            }
            if (!stop.stop_requested())
                QMetaObject::invokeMethod(m_context, [this] { deliver(); }, Qt::QueuedConnection);
        });
    }
    /// Whether a computation runs or waits, or a result waits to be handed over.
    bool busy() const { return m_worker.busy() || ready(); }
    /// Blocks until every request has been computed and handed to DONE (tests, figure export).
    void wait()
    {
        while (busy()) {
            m_worker.waitIdle();
            deliver();
        }
    }

private:
    bool ready() const
    {
        const std::lock_guard lock(m_mutex);
        return m_ready.has_value();
    }
    /// On the GUI thread: hands over the finished result. The worker goes on with a waiting request meanwhile:
    /// a drag sees results that lag one computation behind.
    void deliver()
    {
        std::optional<Result> result;
        {
            const std::lock_guard lock(m_mutex);
            result.swap(m_ready);
        }
        if (result)
            m_done(std::move(*result));
    }

    QObject *m_context; ///< owns the job: a result posted to it goes with it
    std::function<void(Result)> m_done;
    mutable std::mutex m_mutex;
    std::optional<Result> m_ready;
    BackgroundWorker m_worker {BackgroundPriority::Lower}; ///< last: stopped and joined before the rest goes
};

} // namespace crossroof::widgets
