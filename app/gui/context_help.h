// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace crossroof::app {

/// The What's This text (setContextHelp()) of a part of the main window: a view by its name (ViewTabs::names())
/// or a dock's content ("readout", "traces", "kernels"): what it shows and how to read it. Empty for another name.
QString contextHelpText(const QString &part);

} // namespace crossroof::app
