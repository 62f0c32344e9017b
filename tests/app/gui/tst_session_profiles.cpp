// SPDX-License-Identifier: GPL-3.0-or-later
// A session's embedded profile never takes the place of a library profile: a session that embeds an older
// h100-sxm shows it as an entry of its own, and the library's "H100 SXM 80GB" keeps the library's values
// through New Session, Save As and crash recovery.
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "main_window.h"
#include "session_controller.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace crossroof;

namespace {

const QString kLibraryName = QStringLiteral("H100 SXM 80GB (Hopper)");
const QString kSessionEntry
        = QStringLiteral("H100 SXM 80GB (Hopper), from study.crossroof: R, L, M, R_dram differ");

/// The h100-sxm an older Crossroof bundled: R 2022 GB/s, no R_dram, L 766.7, M 2.963.
core::HardwareProfile olderH100()
{
    core::HardwareProfile p = *core::findBundledProfile("h100-sxm");
    p.params.R = 2022;
    p.params.R_dram = 0;
    p.params.L = 766.7;
    p.params.M = 2.963;
    return p;
}

/// The library's values, as bundled now.
void checkLibraryValues(const app::MainWindow &w)
{
    const core::HardwareProfile &library = *core::findBundledProfile("h100-sxm");
    QCOMPARE(w.state()->profile().id, std::string("h100-sxm"));
    QCOMPARE(w.state()->params().R, library.params.R);
    QCOMPARE(w.state()->params().R_dram, library.params.R_dram);
    QCOMPARE(w.state()->params().L, library.params.L);
    QVERIFY(library.params.R_dram > 0 && library.params.R != 2022.0);
    QCOMPARE(w.profilePicker()->currentText(), kLibraryName);
}

void checkSessionValues(const app::MainWindow &w)
{
    QCOMPARE(w.state()->params().R, 2022.0);
    QCOMPARE(w.state()->params().R_dram, 0.0);
    QCOMPARE(w.state()->params().M, 2.963);
    QCOMPARE(w.profilePicker()->currentText(), kSessionEntry);
    QVERIFY(w.profilePicker()->toolTip().startsWith(kSessionEntry + QLatin1Char('\n'))); // the box may cut it
}

/// Chooses the item with TEXT in the profile list as a user does.
void choose(app::MainWindow &w, const QString &text)
{
    widgets::ProfilePicker *picker = w.profilePicker();
    const int index = picker->findText(text);
    QVERIFY2(index >= 0, qPrintable(text));
    picker->setCurrentIndex(index);
    Q_EMIT picker->activated(index);
}

} // namespace

class TestSessionProfiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void embeddedProfileIsAnEntryOfItsOwn();
    void newSessionReturnsToTheLibrary();
    void sameProfileAddsNoEntry();
    void recoveryKeepsTheEntryApart();

private:
    QTemporaryDir m_dir;
    QString m_study;
};

void TestSessionProfiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QDir(app::SessionController::recoveryDir()).removeRecursively();
    m_study = m_dir.filePath(QStringLiteral("study.crossroof"));
    app::MainWindow old;
    const core::HardwareProfile profile = olderH100();
    old.state()->setProfile(profile, profile.params);
    QVERIFY(old.saveSession(m_study));
    QCOMPARE(core::loadSessionFile(m_study.toStdString()).profile.params.R, 2022.0);
}

void TestSessionProfiles::embeddedProfileIsAnEntryOfItsOwn()
{
    app::MainWindow w;
    const int before = w.profilePicker()->count();
    QVERIFY(w.openSession(m_study));
    // The session's values, under a name that says whose they are and what differs.
    QCOMPARE(w.profilePicker()->count(), before + 1);
    checkSessionValues(w);
    // "H100 SXM 80GB" in the list is still the library's.
    QCOMPARE(w.profilePicker()->itemText(w.profilePicker()->findData(QStringLiteral("h100-sxm"))),
             kLibraryName);
    choose(w, kLibraryName);
    checkLibraryValues(w);
    // Undo returns to the session's entry, shown as such.
    w.state()->undoStack()->undo();
    checkSessionValues(w);
    // Opening it again replaces its entry rather than adding another.
    QVERIFY(w.openSession(m_study));
    QCOMPARE(w.profilePicker()->count(), before + 1);
}

void TestSessionProfiles::newSessionReturnsToTheLibrary()
{
    app::MainWindow w;
    QVERIFY(w.openSession(m_study));
    QVERIFY(w.newSession());
    QCOMPARE(w.state()->profile().id, std::string(core::defaultProfileId()));
    choose(w, kLibraryName);
    checkLibraryValues(w);
    // Save As writes the library's values, not the session's.
    const QString copy = m_dir.filePath(QStringLiteral("after-new.crossroof"));
    QVERIFY(w.saveSession(copy));
    const core::Session saved = core::loadSessionFile(copy.toStdString());
    QCOMPARE(saved.profile.params.R, core::findBundledProfile("h100-sxm")->params.R);
    QCOMPARE(saved.profile.params.R_dram, core::findBundledProfile("h100-sxm")->params.R_dram);
    // The session's entry still holds the session's values.
    choose(w, kSessionEntry);
    checkSessionValues(w);
}

void TestSessionProfiles::sameProfileAddsNoEntry()
{
    const QString path = m_dir.filePath(QStringLiteral("library.crossroof"));
    {
        app::MainWindow w;
        choose(w, kLibraryName);
        QVERIFY(w.saveSession(path));
    }
    app::MainWindow w;
    const int before = w.profilePicker()->count();
    QVERIFY(w.openSession(path));
    QCOMPARE(w.profilePicker()->count(), before);
    checkLibraryValues(w);
}

void TestSessionProfiles::recoveryKeepsTheEntryApart()
{
    // Unsaved work on the study, then a crash (kill -9: the window never closes its session).
    QString recovery;
    {
        auto crashed = std::make_unique<app::MainWindow>();
        QVERIFY(crashed->openSession(m_study));
        crashed->state()->applyValue(QStringLiteral("Z"), 6.5);
        crashed->autosave();
        recovery = crashed->recoveryPath();
        QVERIFY(QFile::exists(recovery));
    }
    app::MainWindow next;
    QVERIFY(next.sessions()->restore(recovery));
    QCOMPARE(next.state()->params().Z, 6.5);
    checkSessionValues(next); // named after the study it was work on, not the recovery file
    choose(next, kLibraryName);
    checkLibraryValues(next);
    QFile::remove(recovery);
    QFile::remove(recovery.chopped(int(qstrlen(".crossroof"))) + QStringLiteral(".origin"));
}

QTEST_MAIN(TestSessionProfiles)
#include "tst_session_profiles.moc"
