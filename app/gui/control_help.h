// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QMainWindow;
class QWidget;

namespace crossroof::app {

/// Gives each input control inside ROOT (spin boxes, combo boxes, fields, buttons, check boxes) a What's This of
/// its own, headed with its name (its label's text or its own): for the main inputs of the view or dock named
/// PART (as ViewTabs::names() and contextHelpText() name them) what it does and where its value comes from,
/// for the others what its tool tip says. A control without either keeps what its view says.
void addControlHelp(QWidget *root, const QString &part);

/// The help for WIDGET: its own What's This, else that of the nearest widget around it that has one (its view's);
/// empty when none has.
QString helpFor(const QWidget *widget);

/// F1: shows the help for the focused control (helpFor()) beside it; where nothing has help, the User Guide.
/// Returns the text shown, empty for the User Guide.
QString showHelpForFocus(QMainWindow *window);

} // namespace crossroof::app
