// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

namespace crossroof::app {

void showError(QMainWindow *window, const QString &message)
{
    window->statusBar()->showMessage(message, 10000);
    auto *box = new QMessageBox(QMessageBox::Warning, QMainWindow::tr("Crossroof"), message, QMessageBox::Ok,
                                window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("ErrorMessage"));
    box->open();
}

void showStatus(QMainWindow *window, const QString &text, int milliseconds)
{
    window->statusBar()->showMessage(text, milliseconds);
}

} // namespace crossroof::app
