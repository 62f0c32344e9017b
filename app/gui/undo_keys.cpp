// SPDX-License-Identifier: GPL-3.0-or-later
#include "undo_keys.h"

#include "main_window.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>

namespace crossroof::app {

namespace {

/// Turns the spin boxes' claim on Undo and Redo (a shortcut override) down, so the window's actions fire.
class UndoKeysToWindow : public QObject
{
public:
    UndoKeysToWindow(MainWindow *window)
        : QObject(window)
        , m_window(window)
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::ShortcutOverride)
            return false;
        auto *key = static_cast<QKeyEvent *>(event);
        if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo))
            return false;
        auto *widget = qobject_cast<QWidget *>(watched);
        const bool inSpinBox = widget
                               && (qobject_cast<QAbstractSpinBox *>(widget)
                                   || qobject_cast<QAbstractSpinBox *>(widget->parentWidget()));
        if (!inSpinBox || widget->window() != m_window)
            return false;
        event->ignore(); // not the box's: the shortcut map goes on to the window's Undo or Redo
        return true;
    }

private:
    MainWindow *m_window;
};

} // namespace

void routeUndoKeysToTheWindow(MainWindow *window)
{
    qApp->installEventFilter(new UndoKeysToWindow(window));
}

} // namespace crossroof::app
