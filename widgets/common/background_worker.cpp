// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/background_worker.h"

namespace crossroof::widgets {

BackgroundWorker::~BackgroundWorker()
{
    cancel();
    m_thread.request_stop(); // wakes the thread where it waits for work
    if (m_thread.joinable())
        m_thread.join();
}

void BackgroundWorker::post(Item item)
{
    const std::lock_guard lock(m_mutex);
    m_waiting = std::move(item);
    if (!m_thread.joinable())
        m_thread = std::jthread([this](std::stop_token quit) { run(quit); });
    m_wake.notify_one();
}

void BackgroundWorker::cancel()
{
    const std::lock_guard lock(m_mutex);
    m_itemStop.request_stop();
    m_itemStop = std::stop_source(); // a fresh one for what comes next
    m_waiting.reset();
    if (!m_running)
        m_idle.notify_all();
}

bool BackgroundWorker::busy() const
{
    const std::lock_guard lock(m_mutex);
    return m_running || m_waiting;
}

void BackgroundWorker::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return !m_running && !m_waiting; });
}

void BackgroundWorker::run(std::stop_token quit)
{
    lowerThreadPriority(m_priority); // and the helper threads the computations start
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (!m_wake.wait(lock, quit, [this] { return m_waiting.has_value(); }))
            return; // quit
        Item item = std::move(*m_waiting);
        m_waiting.reset();
        const std::stop_token stop = m_itemStop.get_token();
        m_running = true;
        lock.unlock();
        item(stop);
        item = nullptr; // what it holds goes on this thread, before it counts as ended
        lock.lock();
        m_running = false;
        if (!m_waiting)
            m_idle.notify_all();
    }
}

} // namespace crossroof::widgets
