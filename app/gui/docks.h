// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Qt>

class QDockWidget;
class QMainWindow;
class QScrollArea;
class QString;
class QWidget;

namespace crossroof::app {

/// WIDGET in a frameless scroll area that scrolls only vertically, for a dock.
QScrollArea *scrollable(QWidget *widget);

/// A dock of WINDOW in AREA showing WIDGET; NAME saves its place in the window state.
QDockWidget *addDock(QMainWindow *window, Qt::DockWidgetArea area, const QString &title, const QString &name,
                     QWidget *widget);

} // namespace crossroof::app
