// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QMainWindow;

namespace crossroof::app {

/// Tells the user MESSAGE: in WINDOW's status bar and in a window-modal box over it that does not block
/// (the application, and a test driving it, keeps running). The box is named "ErrorMessage".
void showError(QMainWindow *window, const QString &message);

/// Shows TEXT in WINDOW's status bar for MILLISECONDS.
void showStatus(QMainWindow *window, const QString &text, int milliseconds);

} // namespace crossroof::app
