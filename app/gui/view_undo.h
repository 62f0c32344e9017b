// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::app {

class MainWindow;

/// Puts the views' inputs on the parameters' undo stack, one gesture a step, so that Edit > Undo takes
/// back a view's edit as it does a parameter's; what a profile switch does to the views is undone with it.
void trackViewUndo(MainWindow *window);

} // namespace crossroof::app
