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

/// Runs a computation that refines its result off the GUI thread (a map computed coarse first, then finer)
/// and hands each result it publishes to DONE on the GUI thread. Starting another stops the one running and
/// drops what it published and was not yet handed over, so that only results of the last start are shown;
/// results the GUI thread has not taken yet are replaced by newer ones of the same run. The work gets a stop
/// token, raised when it is replaced, stopped or the job destroyed, and runs on the job's BackgroundWorker, only
/// on what no other thread wants (BackgroundPriority::Idle): starting and stopping never wait for it to end.
template<typename Result>
class ProgressiveJob
{
public:
    using Publish = std::function<void(Result)>;
    using Work = std::function<void(std::stop_token, const Publish &)>;

    ProgressiveJob(QObject *context, std::function<void(Result)> done)
        : m_context(context)
        , m_done(std::move(done))
    {
    }
    ~ProgressiveJob() = default; // the worker, destroyed first, stops the work and waits for it
    ProgressiveJob(const ProgressiveJob &) = delete;
    ProgressiveJob &operator=(const ProgressiveJob &) = delete;

    /// Stops the work running (if any) and starts WORK.
    void start(Work work)
    {
        stop();
        m_worker.post([this, work = std::move(work)](std::stop_token stop) {
            work(stop, [this, &stop](Result result) {
                {
                    const std::lock_guard lock(m_mutex);
                    if (stop.stop_requested())
                        return;
                    m_ready = std::move(result);
                }
                QMetaObject::invokeMethod(
                        m_context, [this] { deliver(); }, Qt::QueuedConnection);
            });
        });
    }
    /// Stops the work running (if any) and drops what it published and was not yet handed to DONE.
    void stop()
    {
        m_worker.cancel(); // what it publishes from now on is dropped: its token is raised
        const std::lock_guard lock(m_mutex);
        m_ready.reset();
    }
    /// Blocks until the work has finished and hands its last result to DONE (tests, figure export).
    void wait()
    {
        m_worker.waitIdle();
        deliver();
    }

private:
    /// On the GUI thread: hands over the newest result published.
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
    std::mutex m_mutex;
    std::optional<Result> m_ready;
    BackgroundWorker m_worker {BackgroundPriority::Idle}; ///< last: stopped and joined before the rest goes
};

} // namespace crossroof::widgets
