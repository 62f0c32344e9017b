// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_menu.h"

#include "control_help.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QWhatsThis>

namespace crossroof::app {

QDialog *showUserGuide(QMainWindow *window)
{
    auto *guide = window->findChild<QDialog *>(QStringLiteral("UserGuide"));
    if (!guide) {
        guide = new QDialog(window);
        guide->setObjectName(QStringLiteral("UserGuide"));
        guide->setWindowTitle(QMainWindow::tr("Crossroof User Guide"));
        auto *browser = new QTextBrowser(guide);
        browser->setOpenExternalLinks(true);
        browser->setSource(QUrl(QStringLiteral("qrc:/guide/guide.html")));
        auto *layout = new QVBoxLayout(guide);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(browser);
        guide->resize(760, 820);
    }
    guide->show();
    guide->raise();
    guide->activateWindow();
    return guide;
}

void setContextHelp(QWidget *widget, const QString &text)
{
    widget->setWhatsThis(text);
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>())
        plot->setWhatsThis(plot->whatsThis().isEmpty() ? text : text + QStringLiteral("\n\n") + plot->whatsThis());
}

void addHelpMenu(QMainWindow *window)
{
    auto *help = window->menuBar()->addMenu(QMainWindow::tr("&Help"));
    // F1 is context help: what the focused control does and where its value comes from (its What's This, or its
    // view's), the whole guide only where nothing has help of its own.
    QAction *focused = help->addAction(QMainWindow::tr("&Help on the Focused Control"), window,
                                       [window] { showHelpForFocus(window); });
    focused->setShortcut(QKeySequence::HelpContents);
    focused->setShortcutContext(Qt::ApplicationShortcut);
    help->addAction(QMainWindow::tr("User &Guide"), window, [window] { showUserGuide(window); });
    QAction *whatsThis = QWhatsThis::createAction(window);
    help->addAction(whatsThis);
    help->addSeparator();
    help->addAction(QMainWindow::tr("&About Crossroof"), window, [window] {
        QMessageBox::about(
                window, QMainWindow::tr("About Crossroof"),
                QMainWindow::tr("<h3>Crossroof %1</h3><p>A visual analyzer for analytic performance models of "
                                "parallel machines: X-graphs with equilibria, stability and the what-if "
                                "advisor, occupancy and scheduling, Markov CPI surfaces and thread "
                                "mappings, bandwidth curves, code skeletons and model trees, calibrated to "
                                "measured GPUs and Nsight Compute exports.</p><p>Help > User Guide explains "
                                "every view; F1 explains the focused control.</p><p>Licensed under the GNU GPL, version 3 or "
                                "later.</p>")
                        .arg(QApplication::applicationVersion()));
    });
    help->addAction(QMainWindow::tr("About &Qt"), qApp, &QApplication::aboutQt);
}

} // namespace crossroof::app
