// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages.h"

#include "common/error_message.h"

#include <QMainWindow>
#include <QStatusBar>

namespace crossroof::app {

void showError(QMainWindow *window, const QString &message)
{
    window->statusBar()->showMessage(message, 10000);
    widgets::showError(window, message);
}

void showStatus(QMainWindow *window, const QString &text, int milliseconds)
{
    window->statusBar()->showMessage(text, milliseconds);
}

} // namespace crossroof::app
