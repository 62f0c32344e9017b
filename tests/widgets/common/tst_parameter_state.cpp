// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;
using namespace crossroof::widgets;

class TestParameterState : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsOnTheDefaultProfile();
    void setValueClampsAndSignals();
    void oneDragIsOneUndoStep();
    void separateEditsAreSeparateSteps();
    void profileSwitchIsOneUndoStep();
    void resetToProfile();
};

void TestParameterState::startsOnTheDefaultProfile()
{
    ParameterState s;
    QCOMPARE(s.profile().id, std::string(core::defaultProfileId()));
    QVERIFY(s.params() == s.profile().params);
}

void TestParameterState::setValueClampsAndSignals()
{
    ParameterState s;
    QSignalSpy changed(&s, &ParameterState::changed);
    s.setValue(QStringLiteral("h"), 7.0);
    QCOMPARE(s.params().h, 1.0);
    s.setValue(QStringLiteral("n"), 12.4);
    QCOMPARE(s.params().n, 12.0);
    s.setValue(QStringLiteral("Z"), std::nan(""));
    QCOMPARE(changed.count(), 2);
}

void TestParameterState::oneDragIsOneUndoStep()
{
    ParameterState s;
    const double before = s.params().Z;
    s.beginInteraction();
    for (double z : {2.0, 3.0, 4.0, 5.0})
        s.applyValue(QStringLiteral("Z"), z);
    s.endInteraction();
    QCOMPARE(s.undoStack()->count(), 1);
    QCOMPARE(s.params().Z, 5.0);
    s.undoStack()->undo();
    QCOMPARE(s.params().Z, before);
    s.undoStack()->redo();
    QCOMPARE(s.params().Z, 5.0);
}

void TestParameterState::separateEditsAreSeparateSteps()
{
    ParameterState s;
    s.applyValue(QStringLiteral("Z"), 2.0);
    s.applyValue(QStringLiteral("Z"), 3.0);
    s.beginInteraction();
    s.applyValue(QStringLiteral("E"), 2.0);
    s.applyValue(QStringLiteral("n"), 20.0); // another key inside the same drag: its own step
    s.endInteraction();
    QCOMPARE(s.undoStack()->count(), 4);
    s.applyValue(QStringLiteral("n"), 20.0); // no change: no step
    QCOMPARE(s.undoStack()->count(), 4);
}

void TestParameterState::profileSwitchIsOneUndoStep()
{
    ParameterState s;
    s.applyValue(QStringLiteral("Z"), 2.0);
    QSignalSpy spy(&s, &ParameterState::profileChanged);
    s.applyProfile(*core::findBundledProfile("v100"));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(s.profile().id, std::string("v100"));
    QCOMPARE(s.params().R, core::findBundledProfile("v100")->params.R);
    s.undoStack()->undo();
    QCOMPARE(s.profile().id, std::string(core::defaultProfileId()));
    QCOMPARE(s.params().Z, 2.0); // the edit made before the switch comes back too
}

void TestParameterState::resetToProfile()
{
    ParameterState s;
    s.applyValue(QStringLiteral("Z"), 2.0);
    s.applyValue(QStringLiteral("L"), 100.0);
    s.applyResetToProfile();
    QVERIFY(s.params() == s.profile().params);
    s.undoStack()->undo();
    QCOMPARE(s.params().L, 100.0);
}

QTEST_MAIN(TestParameterState)
#include "tst_parameter_state.moc"
