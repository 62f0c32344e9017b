// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMainWindow;

namespace crossroof::app {

/// Adds the Help menu to WINDOW's menu bar: About Crossroof and About Qt.
void addHelpMenu(QMainWindow *window);

} // namespace crossroof::app
