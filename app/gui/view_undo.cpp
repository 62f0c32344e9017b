// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_undo.h"

#include "main_window.h"

#include "common/parameter_state.h"
#include "common/settings_undo.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "occupancy/occupancy_state.h"
#include "stability/stability_view.h"
#include "zigzag/zigzag_view.h"

namespace crossroof::app {

using namespace crossroof::widgets;

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

} // namespace crossroof::app
