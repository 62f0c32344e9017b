// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::app {

class MainWindow;

/// Ctrl+Z and Ctrl+Shift+Z (the platform's Undo and Redo) in a spin box of WINDOW undo and redo the
/// analysis, as everywhere else in the window, instead of the edit of the box's text: focus stays in the box
/// after a value is typed, and a user expects Undo to take that value back.
void routeUndoKeysToTheWindow(MainWindow *window);

} // namespace crossroof::app
