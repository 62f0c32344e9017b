// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_menu.h"

#include <QApplication>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>

namespace crossroof::app {

void addHelpMenu(QMainWindow *window)
{
    auto *help = window->menuBar()->addMenu(QMainWindow::tr("&Help"));
    help->addAction(QMainWindow::tr("&About Crossroof"), window, [window] {
        QMessageBox::about(
                window, QMainWindow::tr("About Crossroof"),
                QMainWindow::tr("<h3>Crossroof %1</h3><p>A visual analyzer for analytic performance models of "
                                "parallel machines: X-graphs (Li et al., the X-model) with equilibria, "
                                "stability and landmarks.</p><p>Licensed under the GNU GPL, version 3 or "
                                "later.</p>")
                        .arg(QApplication::applicationVersion()));
    });
    help->addAction(QMainWindow::tr("About &Qt"), qApp, &QApplication::aboutQt);
}

} // namespace crossroof::app
