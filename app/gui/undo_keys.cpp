// SPDX-License-Identifier: GPL-3.0-or-later
#include "undo_keys.h"

#include "main_window.h"

#include "state/analysis_document.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>
#include <QStatusBar>
#include <QMenu>
#include <QMenuBar>

namespace crossroof::app {

namespace {

/// Turns the spin boxes' claim on Undo, Redo and the window's other menu shortcuts (a shortcut override: the
/// line edit in a spin box takes Ctrl+E as End of line) down, so the window's actions fire.
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
        if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo) && !isMenuShortcut(key))
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
    /// Whether KEY is the shortcut of an action of the window's menus (Export Figure's Ctrl+E, ...).
    bool isMenuShortcut(const QKeyEvent *key) const
    {
        const QKeySequence pressed(key->keyCombination());
        for (const QAction *menu : m_window->menuBar()->actions()) {
            if (!menu->menu())
                continue;
            for (const QAction *action : menu->menu()->actions()) {
                if (action->isEnabled() && action->shortcuts().contains(pressed))
                    return true;
            }
        }
        return false;
    }

    MainWindow *m_window;
};

} // namespace

void routeUndoKeysToTheWindow(MainWindow *window)
{
    qApp->installEventFilter(new UndoKeysToWindow(window));
}

void showUndoneInputs(MainWindow *window)
{
    QObject::connect(window->document(), &widgets::AnalysisDocument::inputsRestored, window,
                     [window](const QString &view, const QString &description) {
                         SideBySide *sideBySide = window->sideBySide();
                         const bool shown = sideBySide->isActive() ? sideBySide->names().contains(view)
                                                                   : window->currentViewName() == view;
                         if (!shown)
                             window->showView(view);
                         window->statusBar()->showMessage(
                                 MainWindow::tr("%1: %2").arg(ViewTabs::title(view), description), 8000);
                     });
}

} // namespace crossroof::app
