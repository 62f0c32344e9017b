// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::app {

class MainWindow;

/// Puts the views' inputs on the parameters' undo stack, one gesture a step, so that Edit > Undo takes
/// back a view's edit as it does a parameter's; what a profile switch does to the views is undone with it.
void trackViewUndo(MainWindow *window);

/// Ctrl+Z and Ctrl+Shift+Z (the platform's Undo and Redo) in a spin box of WINDOW undo and redo the
/// analysis, as everywhere else in the window, instead of the edit of the box's text: focus stays in the box
/// after a value is typed, and a user expects Undo to take that value back.
void routeUndoKeysToTheWindow(MainWindow *window);

} // namespace crossroof::app
