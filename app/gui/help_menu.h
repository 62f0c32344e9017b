// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDialog;
class QMainWindow;

namespace crossroof::app {

/// Adds the Help menu to WINDOW's menu bar: the User Guide (F1), What's This (Shift+F1), About Crossroof and
/// About Qt.
void addHelpMenu(QMainWindow *window);

/// Shows the User Guide (resources/guide/guide.html) in a window of its own beside WINDOW, creating it the
/// first time; returns it.
QDialog *showUserGuide(QMainWindow *window);

} // namespace crossroof::app
