// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>

class QWidget;

namespace crossroof::app {

/// The What's This text (setContextHelp()) of a part of the main window: a view by its name (ViewTabs::names())
/// or a dock's content ("readout", "traces", "kernels"): what it shows and how to read it. Empty for another name.
QString contextHelpText(const QString &part);

class ViewTabs;
/// Gives every view of TABS and each of DOCKS (a part's name and its widget) its What's This text, and their
/// controls theirs (addControlHelp()).
void addContextHelp(ViewTabs *tabs, const QList<QPair<QString, QWidget *>> &docks);

} // namespace crossroof::app
