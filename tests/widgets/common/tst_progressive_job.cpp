// SPDX-License-Identifier: GPL-3.0-or-later
// ProgressiveJob: a computation off the GUI thread that publishes finer and finer results, each handed over
// on the GUI thread; a new start stops the running one and drops what it published. DragHold: what a view
// holds while the state's interaction is open, let go when it ends.
#include "common/drag_hold.h"
#include "common/parameter_state.h"
#include "common/progressive_job.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#if defined(__linux__)
#include <sched.h>
#endif

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace crossroof::widgets;

class TestProgressiveJob : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resultsComeBackOnTheGuiThread();
    void aNewStartDropsTheOldRun();
    void stopDropsWhatWasPublished();
    void dragHoldHoldsUntilTheInteractionEnds();
    void theWorkYieldsToTheGuiAtOnce();
    void startingNeverWaitsForTheOldRun();
};

void TestProgressiveJob::resultsComeBackOnTheGuiThread()
{
    QObject context;
    std::vector<int> seen;
    QThread *deliveredOn = nullptr;
    ProgressiveJob<int> job(&context, [&](int v) {
        seen.push_back(v);
        deliveredOn = QThread::currentThread();
    });
    std::atomic<QThread *> computedOn = nullptr;
    job.start([&](std::stop_token, const auto &publish) {
        computedOn = QThread::currentThread();
        publish(1);
        publish(2);
    });
    QTRY_VERIFY(!seen.empty() && seen.back() == 2); // delivered by the event loop, the last one always
    QVERIFY(computedOn.load() != QThread::currentThread());
    QCOMPARE(deliveredOn, QThread::currentThread());
    // wait() hands over the last result at once.
    seen.clear();
    job.start([](std::stop_token, const auto &publish) { publish(3); });
    job.wait();
    QCOMPARE(seen, std::vector<int> {3});
    QTest::qWait(10); // the queued hand-over finds nothing left
    QCOMPARE(seen, std::vector<int> {3});
}

void TestProgressiveJob::aNewStartDropsTheOldRun()
{
    QObject context;
    std::vector<int> seen;
    ProgressiveJob<int> job(&context, [&](int v) { seen.push_back(v); });
    std::atomic<bool> stopped = false;
    std::atomic<bool> published = false;
    job.start([&](std::stop_token stop, const auto &publish) {
        publish(1);
        published = true;
        while (!stop.stop_requested())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stopped = true;
        publish(99); // after the stop: never handed over
    });
    while (!published)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    job.start([](std::stop_token, const auto &publish) { publish(2); });
    job.wait();
    QVERIFY(stopped); // the first run was stopped, and ended before the second ran
    QTest::qWait(10);
    QCOMPARE(seen, std::vector<int> {2}); // 1 was published but not handed over before the new start
}

void TestProgressiveJob::stopDropsWhatWasPublished()
{
    QObject context;
    std::vector<int> seen;
    ProgressiveJob<int> job(&context, [&](int v) { seen.push_back(v); });
    std::atomic<bool> published = false;
    job.start([&](std::stop_token stop, const auto &publish) {
        publish(5);
        published = true;
        while (!stop.stop_requested())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (!published)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    job.stop();
    QTest::qWait(10);
    QVERIFY(seen.empty());
}

void TestProgressiveJob::dragHoldHoldsUntilTheInteractionEnds()
{
    ParameterState state;
    QObject context;
    int released = 0;
    DragHold<int> hold(&state, &context, [&released] { ++released; });
    hold.hold(4);
    QCOMPARE(hold.held(), nullptr); // no interaction open: nothing counts as held
    state.beginInteraction();
    QVERIFY(hold.held());
    QCOMPARE(*hold.held(), 4);
    hold.hold(5);
    QCOMPARE(*hold.held(), 5);
    state.endInteraction();
    QCOMPARE(released, 1);
    state.beginInteraction();
    QCOMPARE(hold.held(), nullptr); // let go when the last interaction ended
    state.endInteraction();
}

// The refinement and the helper threads it starts run on what no other thread wants (Linux's SCHED_IDLE): Qt's
// raster engine hands a tall fill of the GUI thread's paint to Qt's pool threads and waits for them, and under
// a mere lower nice value a woken pool thread could wait a whole time slice for a refinement thread to yield.
void TestProgressiveJob::theWorkYieldsToTheGuiAtOnce()
{
#if defined(__linux__)
    QObject context;
    std::atomic<int> workPolicy = -1;
    std::atomic<int> helperPolicy = -1;
    ProgressiveJob<int> job(&context, [](int) {});
    job.start([&](std::stop_token, const auto &publish) {
        workPolicy = sched_getscheduler(0);
        std::thread helper([&] { helperPolicy = sched_getscheduler(0); });
        helper.join();
        publish(1);
    });
    job.wait();
    QCOMPARE(workPolicy.load(), SCHED_IDLE);
    QCOMPARE(helperPolicy.load(), SCHED_IDLE);
    QCOMPARE(sched_getscheduler(0), SCHED_OTHER); // the GUI thread keeps its own
#else
    QSKIP("thread scheduling classes are Linux's");
#endif
}

// A run can be slow to see its stop: a thread of the idle class waits for a core while another process keeps
// the other one busy. A new start (a slider step) must not wait for it; the new run follows once it ends.
void TestProgressiveJob::startingNeverWaitsForTheOldRun()
{
    QObject context;
    std::vector<int> seen;
    ProgressiveJob<int> job(&context, [&](int v) { seen.push_back(v); });
    std::atomic<bool> running = false;
    std::atomic<bool> release = false;
    job.start([&](std::stop_token, const auto &) {
        running = true;
        while (!release) // blind to the stop for now
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (!running)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // Lets the old run end after two seconds at the latest, for a start() that waits for it.
    std::atomic<bool> started = false;
    std::thread releaser([&] {
        for (int i = 0; i < 2000 && !started; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        release = true;
    });
    job.start([](std::stop_token, const auto &publish) { publish(2); });
    const bool returnedFirst = !release;
    started = true;
    releaser.join();
    QVERIFY2(returnedFirst, "start() waited for the old run to end");
    job.wait();
    QCOMPARE(seen, std::vector<int> {2});
}

QTEST_MAIN(TestProgressiveJob)
#include "tst_progressive_job.moc"
