// SPDX-License-Identifier: GPL-3.0-or-later
// The session window's recovery: autosave to a recovery file of its own instance, what a failed autosave keeps
// and says, the newest orphan offered at start, its file name kept, a lock per recovery, and a named session
// never replaced by other work.
#include "main_window.h"
#include "session_controller.h"
#include "session_window_fixtures.h"
#include "support/full_disk.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <memory>

using namespace crossroof;
using namespace crossroof::session_window_test;

class TestSessionRecovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void autosaveWritesARecoveryFile();
    void failedAutosaveKeepsTheLastRecoveryAndSaysSoOnce();
    void recoveryFilesArePerInstance();
    void recoveryOffersTheNewestOrphan();
    void recoveredSessionKeepsItsFileName();
    void recoveryNeedsALockOfItsOwn();
    void aNamedSessionIsNotReplacedByOtherWork();
    void failedSaveLeavesTheFileAlone();

private:
    QTemporaryDir m_dir;
};

void TestSessionRecovery::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QDir(app::SessionController::recoveryDir()).removeRecursively();
}

void TestSessionRecovery::autosaveWritesARecoveryFile()
{
    app::MainWindow w;
    w.autosave();
    QVERIFY(!QFile::exists(w.recoveryPath())); // nothing unsaved, nothing written
    w.state()->applyValue(QStringLiteral("Z"), 3.0);
    w.autosave();
    QVERIFY(QFile::exists(w.recoveryPath()));
    const core::Session recovered = core::loadSessionFile(w.recoveryPath().toStdString());
    QCOMPARE(recovered.params.Z, 3.0);
    QVERIFY(w.saveSession(m_dir.filePath(QStringLiteral("saved.crossroof"))));
    QVERIFY(!QFile::exists(w.recoveryPath())); // saved: nothing left to recover
}

void TestSessionRecovery::failedAutosaveKeepsTheLastRecoveryAndSaysSoOnce()
{
    app::MainWindow w;
    w.state()->applyValue(QStringLiteral("Z"), 3.0);
    w.autosave();
    QFile recovery(w.recoveryPath());
    QVERIFY(recovery.open(QIODevice::ReadOnly));
    const QByteArray last = recovery.readAll();
    recovery.close();

    editEverything(w); // a larger session, which no longer fits on the full disk
    const auto errorBoxes = [&w] { return w.findChildren<QMessageBox *>(QStringLiteral("ErrorMessage")).size(); };
    {
        const test::FullDisk full(rlim_t(last.size()));
        QVERIFY(full.active());
        w.autosave();
        QCOMPARE(errorBoxes(), 1);
        auto *box = w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
        QVERIFY2(box->text().contains(QStringLiteral("Autosave failed"))
                         && box->text().contains(QDir::toNativeSeparators(w.recoveryPath())),
                 qPrintable(box->text()));
        w.autosave(); // still failing: not said again every minute
        QCOMPARE(errorBoxes(), 1);
    }
    QVERIFY(recovery.open(QIODevice::ReadOnly));
    QCOMPARE(recovery.readAll(), last); // the last good recovery file is still there to restore
    recovery.close();

    w.autosave(); // room again: the recovery file has the newest work
    QCOMPARE(errorBoxes(), 1);
    QCOMPARE(core::loadSessionFile(w.recoveryPath().toStdString()).params.Z, 5.5);
    QFile::remove(w.recoveryPath()); // a window that goes unsaved leaves its file, as after a crash
}

void TestSessionRecovery::recoveryFilesArePerInstance()
{
    // A running instance's unsaved work is never offered to, or removed by, another one.
    auto running = std::make_unique<app::MainWindow>();
    running->state()->applyValue(QStringLiteral("Z"), 5.0);
    running->autosave();
    const QString runningFile = running->recoveryPath();
    QVERIFY(QFile::exists(runningFile));
    {
        app::MainWindow other;
        QVERIFY(other.recoveryPath() != runningFile);
        QVERIFY2(other.recoverableFile().isEmpty(), qPrintable(other.recoverableFile()));
        other.state()->applyValue(QStringLiteral("Z"), 7.0);
        other.autosave();
        QVERIFY(other.saveSession(m_dir.filePath(QStringLiteral("other.crossroof"))));
    }
    QVERIFY(QFile::exists(runningFile)); // the other's save and close left it alone

    // The first instance goes without closing (as in a crash, its lock is gone): its file is offered.
    running.reset();
    QVERIFY(QFile::exists(runningFile));
    app::MainWindow next;
    QCOMPARE(next.recoverableFile(), QFileInfo(runningFile).absoluteFilePath());
    QCOMPARE(core::loadSessionFile(next.recoverableFile().toStdString()).params.Z, 5.0);
    QFile::remove(runningFile);
    QVERIFY(next.recoverableFile().isEmpty());
}

void TestSessionRecovery::recoveryOffersTheNewestOrphan()
{
    // Two instances that went without closing: the newer work is the one offered, whatever the names.
    QDir().mkpath(app::SessionController::recoveryDir());
    const QDir dir(app::SessionController::recoveryDir());
    const QDateTime now = QDateTime::currentDateTime();
    const std::pair<const char *, double> orphans[] = {{"recovery-zzz-older.crossroof", 2.0},
                                                      {"recovery-aaa-newer.crossroof", 4.0}};
    for (const auto &[name, z] : orphans) {
        app::MainWindow w;
        w.state()->applyValue(QStringLiteral("Z"), z);
        QFile f(dir.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(core::sessionToJson(w.captureSession())));
        QVERIFY(f.flush()); // written before the time is set, so that closing changes it no more
        QVERIFY(f.setFileTime(now.addSecs(z > 3 ? -60 : -3600), QFileDevice::FileModificationTime));
        f.close();
    }
    app::MainWindow next;
    QCOMPARE(QFileInfo(next.recoverableFile()).fileName(), QStringLiteral("recovery-aaa-newer.crossroof"));
    QCOMPARE(core::loadSessionFile(next.recoverableFile().toStdString()).params.Z, 4.0);
    for (const auto &[name, z] : orphans)
        QFile::remove(dir.filePath(QString::fromLatin1(name)));
}

void TestSessionRecovery::recoveredSessionKeepsItsFileName()
{
    // Unsaved work on a saved session, then a crash: restored, it is that session again (title, Save).
    const QString path = m_dir.filePath(QStringLiteral("named.crossroof"));
    QString recovery;
    {
        auto crashed = std::make_unique<app::MainWindow>();
        QVERIFY(crashed->saveSession(path));
        crashed->state()->applyValue(QStringLiteral("Z"), 6.5);
        crashed->autosave();
        recovery = crashed->recoveryPath();
        // Named at random, not by process id: instances in other PID namespaces share the ids.
        QVERIFY2(!QFileInfo(recovery).fileName().contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(recovery));
        QVERIFY(QFile::exists(recovery));
    }
    app::MainWindow next;
    QCOMPARE(next.recoverableFile(), QFileInfo(recovery).absoluteFilePath());
    QVERIFY(next.sessions()->restore(next.recoverableFile()));
    QCOMPARE(next.state()->params().Z, 6.5);
    QVERIFY(next.isWindowModified());
    QCOMPARE(next.sessions()->path(), path);
    QVERIFY2(next.windowTitle().startsWith(QStringLiteral("named.crossroof")), qPrintable(next.windowTitle()));
    QVERIFY(next.saveSession(next.sessions()->path()));
    QCOMPARE(core::loadSessionFile(path.toStdString()).params.Z, 6.5);

    // Work that was never saved comes back without a name.
    QFile::remove(recovery);
    QFile::remove(recovery.chopped(int(qstrlen(".crossroof"))) + QStringLiteral(".origin"));
    {
        auto crashed = std::make_unique<app::MainWindow>();
        crashed->state()->applyValue(QStringLiteral("Z"), 7.5);
        crashed->autosave();
        recovery = crashed->recoveryPath();
    }
    app::MainWindow third;
    QVERIFY(third.sessions()->restore(recovery));
    QCOMPARE(third.state()->params().Z, 7.5);
    QVERIFY(third.sessions()->path().isEmpty());
    QFile::remove(recovery);
}

void TestSessionRecovery::aNamedSessionIsNotReplacedByOtherWork()
{
    // An instance stopped (SIGTERM, a crash) with unsaved work; the next start names another session on its
    // command line. That session is what the user asked for: nothing is offered over it, and the work is kept.
    const QString named = m_dir.filePath(QStringLiteral("asked-for.crossroof"));
    {
        app::MainWindow w;
        w.state()->applyValue(QStringLiteral("Z"), 9.0);
        QVERIFY(w.saveSession(named));
    }
    QString recovery;
    {
        auto stopped = std::make_unique<app::MainWindow>();
        stopped->state()->applyValue(QStringLiteral("Z"), 2.5);
        stopped->autosave();
        recovery = stopped->recoveryPath();
    }
    QStringList asked; // what any box shown says; a box is answered Yes, as a user in a hurry would
    const auto answerBoxes = [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            asked << box->text();
            box->button(QMessageBox::Yes)->click();
        }
    };
    {
        app::MainWindow next;
        QVERIFY(next.openSession(named));
        QTimer timer;
        connect(&timer, &QTimer::timeout, answerBoxes);
        timer.start(50);
        next.offerRecovery();
        QVERIFY2(asked.isEmpty(), qPrintable(asked.join(QLatin1Char('|'))));
        QCOMPARE(next.state()->params().Z, 9.0);
        QVERIFY(!next.isWindowModified());
        QVERIFY(next.statusBar()->currentMessage().contains(QStringLiteral("start Crossroof without a file")));
        QVERIFY(QFile::exists(recovery)); // kept for a start without a file
    }
    // Unsaved work on that very session is offered, by its name.
    QFile::remove(recovery);
    QFile::remove(recovery.chopped(int(qstrlen(".crossroof"))) + QStringLiteral(".origin"));
    {
        auto stopped = std::make_unique<app::MainWindow>();
        QVERIFY(stopped->openSession(named));
        stopped->state()->applyValue(QStringLiteral("Z"), 4.5);
        stopped->autosave();
        recovery = stopped->recoveryPath();
    }
    app::MainWindow next;
    QVERIFY(next.openSession(named));
    QTimer timer;
    connect(&timer, &QTimer::timeout, answerBoxes);
    timer.start(50);
    next.offerRecovery();
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.front().contains(QStringLiteral("asked-for.crossroof")), qPrintable(asked.front()));
    QCOMPARE(next.state()->params().Z, 4.5);
    QVERIFY(!QFile::exists(recovery));
}

void TestSessionRecovery::recoveryNeedsALockOfItsOwn()
{
    // No lock can be taken (the recovery folder's place is taken by a file): no recovery file is written
    // that another instance might own, and autosave says once that it is off.
    const QString dir = app::SessionController::recoveryDir();
    QDir(dir).removeRecursively();
    QFile blocker(dir);
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    {
        app::MainWindow w;
        QVERIFY(w.recoveryPath().isEmpty());
        w.state()->applyValue(QStringLiteral("Z"), 3.0);
        w.autosave();
        w.autosave();
        const auto boxes = w.findChildren<QMessageBox *>(QStringLiteral("ErrorMessage"));
        QCOMPARE(boxes.size(), 1);
        QVERIFY2(boxes.front()->text().contains(QStringLiteral("Autosave is off"))
                         && boxes.front()->text().contains(QDir::toNativeSeparators(dir)),
                 qPrintable(boxes.front()->text()));
        QVERIFY(QFileInfo(dir).isFile()); // nothing written over it
    }
    QVERIFY(QFile::remove(dir));
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("CrossroofTests"));
    TestSessionRecovery test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

void TestSessionRecovery::failedSaveLeavesTheFileAlone()
{
    const QString path = m_dir.filePath(QStringLiteral("keep.crossroof"));
    app::MainWindow w;
    QVERIFY(w.saveSession(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    // A save that cannot complete (no such directory) reports it and changes nothing.
    w.state()->applyValue(QStringLiteral("Z"), 2.0);
    QVERIFY(!w.saveSession(m_dir.filePath(QStringLiteral("missing/dir/keep.crossroof"))));
    QVERIFY(w.isWindowModified());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    f.close();
    // The message gives the system's reason, here for a folder that is a file (which fails for root too).
    QVERIFY(!w.saveSession(path + QStringLiteral("/inside.crossroof")));
    const auto *notADirectory = w.findChildren<QMessageBox *>(QStringLiteral("ErrorMessage")).constLast();
    QVERIFY2(notADirectory->text().contains(QStringLiteral("Not a directory")), qPrintable(notADirectory->text()));

    // Saving over the file on a full disk: the new, larger session does not fit; the old file stays whole and
    // the message names the file and the reason.
    editEverything(w);
    QVERIFY(core::sessionToJson(w.captureSession(), path.toStdString()).size() > std::size_t(before.size()));
    qDeleteAll(w.findChildren<QMessageBox *>(QStringLiteral("ErrorMessage")));
    {
        const test::FullDisk full(rlim_t(before.size()));
        QVERIFY(full.active());
        QVERIFY(!w.saveSession(path));
    }
    QVERIFY(w.isWindowModified());
    auto *box = w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(path) && box->text().contains(QStringLiteral("unchanged"))
                     && box->text().contains(QString::fromLocal8Bit(std::strerror(EFBIG))),
             qPrintable(box->text())); // the system's reason ("File too large", as a full disk gives its own)
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    f.close();
    QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("keep.crossroof*")}, QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("keep.crossroof")}); // no temporary file left beside it
    QVERIFY(w.saveSession(path)); // with room again, the same save works
}

#include "tst_session_recovery.moc"
