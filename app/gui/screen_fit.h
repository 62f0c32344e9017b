// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QObject;

namespace crossroof::app {

/// Every dialog the application shows (message boxes such as the recovery prompt included) opens inside the
/// available geometry of its screen, at every scale factor, as the main window does at the start
/// (WindowLayout::showInside): one larger than the screen is shrunk to it (never below its minimum size) and
/// moved so that its top-left corner, and as much of it as fits, lies inside (WindowLayout::fitInto). A dialog
/// sized for 1600x1000 opened half off an 800x500 screen (1600x1000 at a scale factor of 2). Menus, tool tips
/// and other pop-ups are left as Qt places them. The filter lives as long as OWNER.
void fitDialogsIntoTheirScreens(QObject *owner);

} // namespace crossroof::app
