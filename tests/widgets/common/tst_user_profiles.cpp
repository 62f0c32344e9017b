// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "common/user_profiles.h"
#include "core/profiles/profile_library.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace crossroof;
using widgets::ParameterState;
using widgets::ProfilePicker;
using widgets::UserProfiles;

namespace {

/// A valid profile: the default bundled one under a new id and name.
QByteArray profileText(const std::string &id, const std::string &name)
{
    core::HardwareProfile p = *core::findBundledProfile(core::defaultProfileId());
    p.id = id;
    p.name = name;
    return QByteArray::fromStdString(core::profileToText(p));
}

} // namespace

class TestUserProfiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void directoryIsTheOneCoreUses();
    void goodProfileIsListedAfterTheBundledOnesMarked();
    void badFileIsSkippedAndNamed();
    void reloadShowsANewFileAtOnce();
    void choosingAUserProfileAppliesIt();

private:
    void write(const QString &fileName, const QByteArray &text);

    QTemporaryDir m_home;
    QString m_dir;
};

void TestUserProfiles::initTestCase()
{
    QVERIFY(m_home.isValid());
    // Before the first UserProfiles::instance(): the process-wide instance reads this directory.
    qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    m_dir = m_home.path() + QStringLiteral("/Crossroof/profiles");
    QVERIFY(QDir().mkpath(m_dir));
    write(QStringLiteral("a_good.json"), profileText("my-gpu", "My GPU"));
    write(QStringLiteral("b_bad.json"), QByteArrayLiteral("{ \"id\": \"broken\", "));
}

void TestUserProfiles::write(const QString &fileName, const QByteArray &text)
{
    QFile file(m_dir + QLatin1Char('/') + fileName);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text), text.size());
}

void TestUserProfiles::directoryIsTheOneCoreUses()
{
    // The CLI (core::userProfileDir()) and the GUI read the same directory.
    QCOMPARE(UserProfiles::instance()->directory(), m_dir);
    QCOMPARE(UserProfiles::instance()->directory(), QString::fromStdString(core::userProfileDir().string()));
}

void TestUserProfiles::goodProfileIsListedAfterTheBundledOnesMarked()
{
    ParameterState state;
    ProfilePicker picker(&state);
    const int bundled = int(core::bundledProfiles().size());
    QCOMPARE(picker.count(), bundled + 1);
    const int index = picker.findData(QStringLiteral("my-gpu"));
    QCOMPARE(index, bundled);
    QCOMPARE(picker.itemText(index), QStringLiteral("My GPU (user)"));
    const QString tip = picker.itemData(index, Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(m_dir + QStringLiteral("/a_good.json")), qPrintable(tip));
    // Bundled profiles carry no mark.
    for (int i = 0; i < bundled; ++i)
        QVERIFY2(!picker.itemText(i).endsWith(QStringLiteral("(user)")), qPrintable(picker.itemText(i)));
}

void TestUserProfiles::badFileIsSkippedAndNamed()
{
    const QStringList problems = UserProfiles::instance()->problems();
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.front().contains(QStringLiteral("b_bad.json")), qPrintable(problems.front()));
    ParameterState state;
    ProfilePicker picker(&state);
    QCOMPARE(picker.findData(QStringLiteral("broken")), -1);
    QVERIFY2(picker.toolTip().contains(QStringLiteral("b_bad.json")), qPrintable(picker.toolTip()));
}

void TestUserProfiles::reloadShowsANewFileAtOnce()
{
    ParameterState state;
    ProfilePicker picker(&state);
    const int before = picker.count();
    write(QStringLiteral("c_new.json"), profileText("calibrated", "Calibrated GPU"));
    QCOMPARE(picker.findData(QStringLiteral("calibrated")), -1);

    QSignalSpy changed(UserProfiles::instance(), &UserProfiles::changed);
    UserProfiles::instance()->reload();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(picker.count(), before + 1);
    QCOMPARE(picker.itemText(picker.findData(QStringLiteral("calibrated"))),
             QStringLiteral("Calibrated GPU (user)"));

    // Fixing the bad file clears its message from the tooltip.
    write(QStringLiteral("b_bad.json"), profileText("fixed", "Fixed GPU"));
    UserProfiles::instance()->reload();
    QVERIFY(UserProfiles::instance()->problems().isEmpty());
    QVERIFY2(!picker.toolTip().contains(QStringLiteral("b_bad.json")), qPrintable(picker.toolTip()));
    QVERIFY(picker.findData(QStringLiteral("fixed")) >= 0);
}

void TestUserProfiles::choosingAUserProfileAppliesIt()
{
    ParameterState state;
    ProfilePicker picker(&state);
    QVERIFY(picker.selectId(QStringLiteral("my-gpu")));
    QCOMPARE(state.profile().id, std::string("my-gpu"));
    QCOMPARE(picker.currentText(), QStringLiteral("My GPU (user)"));
    // A reload keeps the choice shown.
    UserProfiles::instance()->reload();
    QCOMPARE(picker.currentText(), QStringLiteral("My GPU (user)"));
}

QTEST_MAIN(TestUserProfiles)
#include "tst_user_profiles.moc"
