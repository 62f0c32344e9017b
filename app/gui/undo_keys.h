// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::app {

class MainWindow;

/// Ctrl+Z and Ctrl+Shift+Z (the platform's Undo and Redo) in a spin box of WINDOW undo and redo the
/// analysis, as everywhere else in the window, instead of the edit of the box's text: focus stays in the box
/// after a value is typed, and a user expects Undo to take that value back. The other shortcuts of the window's
/// menus that a spin box would take for its text (Ctrl+E, Export Figure, is End of line there) reach the window
/// too.
void routeUndoKeysToTheWindow(MainWindow *window);

/// Undoing a view's inputs changes nothing visible while another view is in front: that view comes forward
/// (unless Side by Side shows it already), and the status bar says what changed back.
void showUndoneInputs(MainWindow *window);

} // namespace crossroof::app
