// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QString;

class QDialog;
class QMainWindow;
class QWidget;

namespace crossroof::app {

/// Adds the Help menu to WINDOW's menu bar: help on the focused control (F1, showHelpForFocus()), the User
/// Guide, What's This (Shift+F1), About Crossroof and About Qt.
void addHelpMenu(QMainWindow *window);

/// Sets WIDGET's What's This text (Help > What's This, Shift+F1, then a click) and puts it first in that of
/// every plot inside it, whose own text says how to zoom and pan.
void setContextHelp(QWidget *widget, const QString &text);

/// Shows the User Guide (resources/guide/guide.html) in a window of its own beside WINDOW, creating it the
/// first time; returns it.
QDialog *showUserGuide(QMainWindow *window);

} // namespace crossroof::app
