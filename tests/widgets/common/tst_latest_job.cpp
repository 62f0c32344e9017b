// SPDX-License-Identifier: GPL-3.0-or-later
// LatestJob: one computation at a time off the GUI thread, the newest waiting request replacing older ones,
// results handed over on the GUI thread; and the vector-state guard the window installs.
#include "common/latest_job.h"
#include "common/vector_state.h"

#include <QCoreApplication>
#include <QHash>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#endif

using namespace crossroof::widgets;

namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// Whether this processor reports which register state is in use (XGETBV with ECX = 1).
bool canReadVectorState()
{
    if (!__builtin_cpu_supports("avx"))
        return false;
    unsigned a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(1));
    return (a >> 2) & 1;
}

/// Whether the upper halves of the AVX registers are in use (XINUSE bit 2).
bool upperHalvesInUse()
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return (lo >> 2) & 1;
}
#else
bool canReadVectorState()
{
    return false;
}
bool upperHalvesInUse()
{
    return false;
}
#endif

} // namespace

class TestLatestJob : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resultsComeBackOnTheGuiThread();
    void aWaitingRequestIsReplacedByANewerOne();
    void destroyingTheJobStopsItsWork();
    void vectorStateIsCleanAfterClearing();
    void theWorkRunsBelowTheGuiButNotOnlyWhenIdle();
};

void TestLatestJob::resultsComeBackOnTheGuiThread()
{
    QObject context;
    std::vector<int> seen;
    QThread *deliveredOn = nullptr;
    LatestJob<int> job(&context, [&](int v) {
        seen.push_back(v);
        deliveredOn = QThread::currentThread();
    });
    std::atomic<QThread *> computedOn = nullptr;
    job.request([&](std::stop_token) {
        computedOn = QThread::currentThread();
        return 7;
    });
    QTRY_COMPARE(seen, std::vector<int>{7}); // delivered by the event loop, without wait()
    QVERIFY(computedOn.load() != QThread::currentThread());
    QCOMPARE(deliveredOn, QThread::currentThread());
    QVERIFY(!job.busy());
}

void TestLatestJob::aWaitingRequestIsReplacedByANewerOne()
{
    // A drag: the first request runs, two more arrive while it does; the middle one is never computed.
    QObject context;
    std::vector<int> seen;
    std::vector<int> computed;
    std::atomic<bool> release = false;
    std::atomic<bool> running = false;
    LatestJob<int> job(&context, [&](int v) { seen.push_back(v); });
    job.request([&](std::stop_token) {
        running = true;
        while (!release)
            QThread::msleep(1);
        computed.push_back(1);
        return 1;
    });
    QTRY_VERIFY(running); // a request that has not started yet is replaced too
    job.request([&](std::stop_token) {
        computed.push_back(2);
        return 2;
    });
    job.request([&](std::stop_token) {
        computed.push_back(3);
        return 3;
    });
    QVERIFY(job.busy());
    release = true;
    job.wait();
    QCOMPARE(computed, (std::vector<int>{1, 3}));
    // 1 is handed over unless 3 was done before the GUI thread took it: the newest result finished is shown.
    const std::vector<int> handed = seen;
    QVERIFY(handed == (std::vector<int>{1, 3}) || handed == (std::vector<int>{3}));
    QVERIFY(!job.busy());
    QCoreApplication::processEvents(); // the posted deliveries find nothing more to hand over
    QCOMPARE(seen, handed);
}

void TestLatestJob::destroyingTheJobStopsItsWork()
{
    QObject context;
    int delivered = 0;
    std::atomic<bool> sawStop = false;
    {
        LatestJob<int> job(&context, [&](int) { ++delivered; });
        job.request([&](std::stop_token stop) {
            const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!stop.stop_requested() && std::chrono::steady_clock::now() < end)
                QThread::msleep(1);
            sawStop = stop.stop_requested();
            return 0;
        });
        QThread::msleep(5);
    } // joins the thread: must not take ten seconds
    QVERIFY(sawStop);
    QCoreApplication::processEvents();
    QCOMPARE(delivered, 0);
}

void TestLatestJob::vectorStateIsCleanAfterClearing()
{
    if (!canReadVectorState())
        QSKIP("this processor does not report its vector register state");
    // Qt 6.4's hash of a short string leaves the upper halves in use (on the processors that take its AVX
    // path); clearUpperVectorState() ends that, and the guard does it before every event.
    QHash<QString, int> rows{{QStringLiteral("Z"), 1}};
    clearUpperVectorState();
    QVERIFY(!upperHalvesInUse());
    const bool dirtied = rows.contains(QStringLiteral("Z")) && upperHalvesInUse();
    clearUpperVectorState();
    QVERIFY(!upperHalvesInUse());
    if (!dirtied)
        QSKIP("this Qt or processor does not leave the state in use after a string hash");

    guardVectorState(QCoreApplication::instance());
    guardVectorState(QCoreApplication::instance()); // once is enough
    bool cleanInHandler = false;
    QMetaObject::invokeMethod(
            QCoreApplication::instance(), [&] { cleanInHandler = !upperHalvesInUse(); }, Qt::QueuedConnection);
    (void)rows.contains(QStringLiteral("Z")); // dirty again before the event loop runs the handler
    QCoreApplication::processEvents();
    QVERIFY(cleanInHandler);
}

// A sweep, the advice or a training is awaited by the user: it runs below the GUI thread, at nice 10, but not in
// the idle class, where a machine kept busy by a build would leave it no time at all.
void TestLatestJob::theWorkRunsBelowTheGuiButNotOnlyWhenIdle()
{
#if defined(__linux__)
    QObject context;
    LatestJob<std::pair<int, int>> job(&context, [](std::pair<int, int>) {});
    std::pair<int, int> seen {-1, -1};
    job.request([&](std::stop_token) {
        seen = {sched_getscheduler(0), getpriority(PRIO_PROCESS, 0)};
        return seen;
    });
    job.wait();
    QCOMPARE(seen.first, SCHED_OTHER);
    QVERIFY(seen.second >= 10);
#else
    QSKIP("thread scheduling classes are Linux's");
#endif
}

QTEST_GUILESS_MAIN(TestLatestJob)
#include "tst_latest_job.moc"
