// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_undo.h"

#include "main_window.h"

#include "common/parameter_state.h"
#include "common/settings_undo.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "state/occupancy_state.h"
#include "stability/stability_view.h"
#include "zigzag/zigzag_view.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QKeyEvent>

namespace crossroof::app {

using namespace crossroof::widgets;

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

void trackViewUndo(MainWindow *window)
{
    ParameterState *state = window->state();
    OccupancyState *occupancy = window->occupancyState();
    auto *undo = new SettingsUndo(state->undoStack(), window);
    const int occupancyInputs
            = undo->track(occupancy, &OccupancyState::undoSnapshot, &OccupancyState::restoreUndoSnapshot,
                          &OccupancyState::settingsChanged, MainWindow::tr("occupancy inputs"));
    // What a profile switch does to the SM count, or a parameter change to n, is undone with it.
    undo->resyncOn(occupancyInputs, occupancy, &OccupancyState::changed);
    undo->resyncOn(occupancyInputs, state, &ParameterState::changed);
    undo->track(window->zigzagView(), &ZigzagView::settings, &ZigzagView::setSettings,
                &ZigzagView::settingsChanged, MainWindow::tr("TMM inputs"));
    const int markovInputs
            = undo->track(window->markovView(), &MarkovView::settings, &MarkovView::setSettings,
                          &MarkovView::settingsChanged, MainWindow::tr("Markov CPI inputs"));
    const int mappingInputs
            = undo->track(window->mappingView(), &MappingView::settings, &MappingView::setSettings,
                          &MappingView::settingsChanged, MainWindow::tr("mapping inputs"));
    // A profile switch changes which CPU profiles these two offer; what that does is undone with the switch.
    undo->resyncOn(markovInputs, state, &ParameterState::profileChanged);
    undo->resyncOn(mappingInputs, state, &ParameterState::profileChanged);
    undo->track(window->stabilityView(), &StabilityView::settings, &StabilityView::setSettings,
                &StabilityView::settingsChanged, MainWindow::tr("stability map settings"));
}

void routeUndoKeysToTheWindow(MainWindow *window)
{
    qApp->installEventFilter(new UndoKeysToWindow(window));
}

} // namespace crossroof::app
