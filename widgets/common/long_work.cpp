// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/long_work.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QPointer>
#include <QProgressDialog>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace crossroof::widgets::detail {

namespace {

/// What the GUI thread and the work's thread share; the work's thread may outlive the wait.
struct Shared
{
    std::atomic<bool> done = false;
    std::exception_ptr error;     ///< written before done
    QPointer<QEventLoop> loop;    ///< the wait, while it waits; used on the GUI thread only
};

/// The threads of cancelled work, each with what it shares: their work still runs to its end.
struct Abandoned
{
    std::thread thread;
    std::shared_ptr<Shared> shared;
};

std::mutex &abandonedMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::vector<Abandoned> &abandoned()
{
    static std::vector<Abandoned> threads;
    return threads;
}

/// At the application's end: what ends within ten seconds is joined, the rest left to the process's end.
void endAbandonedAtExit()
{
    endAbandonedWork(std::chrono::seconds(10));
}

} // namespace

int endAbandonedWork(std::chrono::milliseconds wait)
{
    std::vector<Abandoned> threads;
    {
        const std::lock_guard lock(abandonedMutex());
        threads.swap(abandoned());
    }
    const auto until = std::chrono::steady_clock::now() + wait;
    int left = 0;
    for (Abandoned &a : threads) {
        while (!a.shared->done && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (a.shared->done) {
            a.thread.join();
        } else {
            a.thread.detach();
            ++left;
        }
    }
    return left;
}

bool waitForWork(QWidget *parent, const QString &label, std::function<void()> work)
{
    auto shared = std::make_shared<Shared>();
    QEventLoop loop;
    shared->loop = &loop;
    std::thread thread([shared, work = std::move(work)] {
        try {
            work();
        } catch (...) {
            shared->error = std::current_exception();
        }
        shared->done = true;
        // Wakes the wait on the GUI thread (where the loop's pointer is read); gone by then, nothing happens.
        if (QCoreApplication *app = QCoreApplication::instance())
            QMetaObject::invokeMethod(
                    app, [shared] {
                        if (shared->loop)
                            shared->loop->quit();
                    },
                    Qt::QueuedConnection);
    });
    // First without a dialog: most reads end well before anyone would read one.
    QTimer reveal;
    reveal.setSingleShot(true);
    reveal.setTimerType(Qt::PreciseTimer); // a coarse one may fire 5 % early
    QObject::connect(&reveal, &QTimer::timeout, &loop, &QEventLoop::quit);
    reveal.start(kProgressDelayMs);
    if (!shared->done)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    bool cancelled = false;
    if (!shared->done) {
        QProgressDialog dialog(label, QCoreApplication::translate("LongWork", "Cancel"), 0, 0, parent);
        dialog.setWindowTitle(QCoreApplication::translate("LongWork", "Crossroof"));
        dialog.setWindowModality(Qt::WindowModal);
        dialog.setMinimumDuration(0);
        dialog.setAutoReset(false);
        dialog.setAutoClose(false);
        QObject::connect(&dialog, &QProgressDialog::canceled, &loop, [&] {
            cancelled = true;
            loop.quit();
        });
        dialog.show();
        if (!shared->done)
            loop.exec();
    }
    if (cancelled && !shared->done) {
        static const bool endedWithTheApplication = [] {
            qAddPostRoutine(endAbandonedAtExit);
            return true;
        }();
        (void)endedWithTheApplication;
        const std::lock_guard lock(abandonedMutex());
        abandoned().push_back({std::move(thread), shared});
        return false;
    }
    thread.join();
    if (shared->error)
        std::rethrow_exception(shared->error);
    return true;
}

} // namespace crossroof::widgets::detail
