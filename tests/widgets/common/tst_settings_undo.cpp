// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/settings_undo.h"

#include <QLineEdit>
#include <QTest>
#include <QUndoCommand>
#include <QUndoStack>

using namespace crossroof::widgets;

/// A view's settings reduced to one number, with the API SettingsUndo expects.
class Knob : public QObject
{
    Q_OBJECT
public:
    int settings() const { return m_value; }
    void setSettings(const int &value)
    {
        ++restores;
        set(value);
    }
    /// What a user's edit does: change and say so.
    void set(int value)
    {
        m_value = value;
        Q_EMIT settingsChanged();
    }
    /// A change the knob makes on its own, following something else (as the SM count follows the profile).
    void follow(int value)
    {
        m_value = value;
        Q_EMIT followedSomething();
    }
    int restores = 0;

Q_SIGNALS:
    void settingsChanged();
    void followedSomething();

private:
    int m_value = 0;
};

class TestSettingsUndo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void eachChangeWithoutAGestureIsAStep();
    void undoRestoresWithoutRecording();
    void aHeldMouseButtonMergesIntoOneStep();
    void typingInOneFieldIsOneStep();
    void oneGestureAcrossViewsIsOneStep();
    void aGestureBackToItsStartLeavesNoStep();
    void otherCommandsEndTheGesture();
    void resyncedChangesAreNotSteps();

private:
    QUndoStack *m_stack = nullptr;
    SettingsUndo *m_undo = nullptr;
    Knob *m_a = nullptr;
    Knob *m_b = nullptr;
    QWidget *m_window = nullptr;
    QLineEdit *m_field = nullptr;
    int m_aHandle = -1;
};

void TestSettingsUndo::init()
{
    m_stack = new QUndoStack;
    m_a = new Knob;
    m_b = new Knob;
    m_undo = new SettingsUndo(m_stack);
    m_aHandle = m_undo->track(m_a, &Knob::settings, &Knob::setSettings, &Knob::settingsChanged, QStringLiteral("a"));
    m_undo->track(m_b, &Knob::settings, &Knob::setSettings, &Knob::settingsChanged, QStringLiteral("b"));
    m_window = new QWidget;
    m_field = new QLineEdit(m_window);
}

void TestSettingsUndo::cleanup()
{
    delete m_window;
    delete m_stack;
    delete m_undo;
    delete m_a;
    delete m_b;
}

void TestSettingsUndo::eachChangeWithoutAGestureIsAStep()
{
    m_a->set(1);
    m_a->set(2);
    m_a->set(2); // no change: no step
    QCOMPARE(m_stack->count(), 2);
    QCOMPARE(m_stack->undoText(), QStringLiteral("Change a"));
    QCOMPARE(m_a->restores, 0); // the view already showed the change; pushing did not set it again
}

void TestSettingsUndo::undoRestoresWithoutRecording()
{
    m_a->set(5);
    m_b->set(7);
    m_stack->undo();
    QCOMPARE(m_b->settings(), 0);
    QCOMPARE(m_a->settings(), 5);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 0);
    QCOMPARE(m_stack->count(), 2); // undo pushed nothing
    QCOMPARE(m_stack->index(), 0);
    m_stack->redo();
    m_stack->redo();
    QCOMPARE(m_a->settings(), 5);
    QCOMPARE(m_b->settings(), 7);
    QCOMPARE(m_stack->count(), 2);
    // A new change after an undo starts from what the undo restored.
    m_stack->undo();
    m_b->set(9);
    QCOMPARE(m_stack->count(), 2);
    m_stack->undo();
    QCOMPARE(m_b->settings(), 0);
}

void TestSettingsUndo::aHeldMouseButtonMergesIntoOneStep()
{
    // A spin box arrow held down: many changes between one press and its release.
    QTest::mousePress(m_window, Qt::LeftButton);
    for (int v = 1; v <= 10; ++v)
        m_a->set(v);
    QTest::mouseRelease(m_window, Qt::LeftButton);
    QCOMPARE(m_stack->count(), 1);
    // The next press is the next gesture.
    QTest::mousePress(m_window, Qt::LeftButton);
    m_a->set(11);
    m_a->set(12);
    QTest::mouseRelease(m_window, Qt::LeftButton);
    QCOMPARE(m_stack->count(), 2);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 10);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 0);
}

void TestSettingsUndo::typingInOneFieldIsOneStep()
{
    m_window->show();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
    m_field->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), m_field);
    for (int v : {3, 38, 384}) // "384" typed digit by digit
        m_a->set(v);
    QCOMPARE(m_stack->count(), 1);
    QTest::keyClick(m_field, Qt::Key_Return); // Enter ends the entry
    m_a->set(385);
    QCOMPARE(m_stack->count(), 2);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 384);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 0);
}

void TestSettingsUndo::oneGestureAcrossViewsIsOneStep()
{
    // One click that changes two views (the APSP preset fills the TMM inputs and widens the zigzag).
    QTest::mousePress(m_window, Qt::LeftButton);
    m_a->set(4);
    m_b->set(6);
    m_a->set(5);
    QTest::mouseRelease(m_window, Qt::LeftButton);
    QCOMPARE(m_stack->count(), 1);
    QCOMPARE(m_stack->undoText(), QStringLiteral("Change a, b"));
    m_stack->undo();
    QCOMPARE(m_a->settings(), 0);
    QCOMPARE(m_b->settings(), 0);
    m_stack->redo();
    QCOMPARE(m_a->settings(), 5);
    QCOMPARE(m_b->settings(), 6);
}

void TestSettingsUndo::aGestureBackToItsStartLeavesNoStep()
{
    m_a->set(1);
    QTest::mousePress(m_window, Qt::LeftButton);
    m_a->set(2);
    m_a->set(1);
    QTest::mouseRelease(m_window, Qt::LeftButton);
    QCOMPARE(m_stack->count(), 1);
    QCOMPARE(m_stack->index(), 1);
}

void TestSettingsUndo::otherCommandsEndTheGesture()
{
    QTest::mousePress(m_window, Qt::LeftButton);
    m_a->set(1);
    m_stack->push(new QUndoCommand(QStringLiteral("something else")));
    m_a->set(2);
    QTest::mouseRelease(m_window, Qt::LeftButton);
    QCOMPARE(m_stack->count(), 3);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 1);
}

void TestSettingsUndo::resyncedChangesAreNotSteps()
{
    m_undo->resyncOn(m_aHandle, m_a, &Knob::followedSomething);
    m_a->set(3);
    m_a->follow(8); // undone with whatever it followed, not here
    QCOMPARE(m_stack->count(), 1);
    m_a->set(9);
    QCOMPARE(m_stack->count(), 2);
    m_stack->undo();
    QCOMPARE(m_a->settings(), 8); // back to what it followed, not to 3
}

QTEST_MAIN(TestSettingsUndo)
#include "tst_settings_undo.moc"
