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

/// Keeps AREA at least as wide as the widget it scrolls needs (its minimum size hint and a vertical scroll
/// bar), and at least LEAST pixels, as the widget's contents change: a readout's values are never cut at the
/// dock's edge, since the area does not scroll sideways.
void keepWideEnough(QScrollArea *area, int least);

/// A dock of WINDOW in AREA showing WIDGET; NAME saves its place in the window state.
QDockWidget *addDock(QMainWindow *window, Qt::DockWidgetArea area, const QString &title, const QString &name,
                     QWidget *widget);

} // namespace crossroof::app
