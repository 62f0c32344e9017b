// SPDX-License-Identifier: GPL-3.0-or-later
// runWithProgress(): long work off the GUI thread, the window kept painting, a progress dialog with Cancel once
// it has run a while, and the result or the error back on the GUI thread.
#include "common/long_work.h"
#include "core/support/error.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <thread>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

QProgressDialog *progressDialog()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *dialog = qobject_cast<QProgressDialog *>(w); dialog && dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

/// Clicks Cancel in the progress dialog once it shows, noting its label and when it showed (ms after this
/// was made).
struct CancelWhenShown
{
    QString label;
    qint64 shownAfter = -1;
    QElapsedTimer clock;
    QTimer watch;

    CancelWhenShown()
    {
        clock.start();
        QObject::connect(&watch, &QTimer::timeout, [this] {
            if (QProgressDialog *dialog = progressDialog(); dialog && shownAfter < 0) {
                shownAfter = clock.elapsed();
                label = dialog->labelText();
                if (auto *cancel = dialog->findChild<QPushButton *>())
                    cancel->click(); // the user's Cancel
            }
        });
        watch.start(10);
    }
};

/// Read by work that is left running past its test (it must outlive the test).
std::atomic<bool> g_neverEnds = true;

} // namespace

class TestLongWork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void quickWorkGivesItsResultWithoutADialog();
    void anErrorIsThrownOnTheGuiThread();
    void theEventLoopRunsWhileItWaits();
    void slowWorkShowsProgressAndCanBeCancelled();
    void workThatNeverEndsCannotHoldTheEnd();
};

void TestLongWork::quickWorkGivesItsResultWithoutADialog()
{
    bool dialogSeen = false;
    QTimer watch;
    connect(&watch, &QTimer::timeout, this, [&] { dialogSeen = dialogSeen || progressDialog(); });
    watch.start(5);
    const std::thread::id gui = std::this_thread::get_id();
    std::thread::id workedOn;
    const auto result = runWithProgress<int>(nullptr, QStringLiteral("Reading"), [&] {
        workedOn = std::this_thread::get_id();
        return 7;
    });
    QCOMPARE(result, std::optional<int>(7));
    QVERIFY(workedOn != gui);
    QVERIFY(!dialogSeen);
}

void TestLongWork::anErrorIsThrownOnTheGuiThread()
{
    QVERIFY_THROWS_EXCEPTION(core::InputError, runWithProgress<int>(nullptr, QStringLiteral("Reading"), []() -> int {
                                 throw core::InputError("trace.csv:3: not a number");
                             }));
}

// Timers and paints go on while a file is read: the window does not freeze.
void TestLongWork::theEventLoopRunsWhileItWaits()
{
    bool fired = false;
    QTimer::singleShot(20, this, [&] { fired = true; });
    const auto result = runWithProgress<int>(nullptr, QStringLiteral("Reading"), [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        return 1;
    });
    QCOMPARE(result, std::optional<int>(1));
    QVERIFY(fired);
}

void TestLongWork::slowWorkShowsProgressAndCanBeCancelled()
{
    QWidget window;
    window.resize(400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    std::atomic<bool> release = false;
    std::atomic<bool> ended = false;
    const CancelWhenShown user;
    const auto result = runWithProgress<int>(&window, QStringLiteral("Reading big.csv…"), [&] {
        // Blind to everything for ten seconds at most: a core reader cannot be interrupted.
        for (int i = 0; i < 10000 && !release; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ended = true;
        return 1;
    });
    const bool endedFirst = ended;
    release = true; // lets the abandoned work end, so that the application can
    QVERIFY2(!endedFirst, "the wait lasted until the work ended");
    QVERIFY(!result);
    QVERIFY2(user.shownAfter >= kProgressDelayMs,
             qPrintable(QStringLiteral("shown after %1 ms").arg(user.shownAfter)));
    QCOMPARE(user.label, QStringLiteral("Reading big.csv…"));
    QTRY_VERIFY(ended);
}

// A read from a network mount that hangs never ends, even once cancelled: the application's end joins what
// ends within its wait and leaves the rest, rather than hang.
void TestLongWork::workThatNeverEndsCannotHoldTheEnd()
{
    QWidget window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const CancelWhenShown user;
    const auto result = runWithProgress<int>(&window, QStringLiteral("Reading the folder /net/gone…"), [] {
        while (g_neverEnds)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return 1;
    });
    QVERIFY(!result);
    QElapsedTimer ending;
    ending.start();
    QCOMPARE(detail::endAbandonedWork(std::chrono::milliseconds(50)), 1);
    QVERIFY(ending.elapsed() < 2000);
    g_neverEnds = false; // it ends on its own now, unjoined
    QCOMPARE(detail::endAbandonedWork(std::chrono::milliseconds(50)), 0); // nothing is left to join
}

QTEST_MAIN(TestLongWork)
#include "tst_long_work.moc"
