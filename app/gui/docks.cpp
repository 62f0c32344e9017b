// SPDX-License-Identifier: GPL-3.0-or-later
#include "docks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

namespace crossroof::app {

QScrollArea *scrollable(QWidget *widget)
{
    auto *area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

QDockWidget *addDock(QMainWindow *window, Qt::DockWidgetArea area, const QString &title, const QString &name,
                     QWidget *widget)
{
    auto *d = new QDockWidget(title, window);
    d->setObjectName(name);
    d->setWidget(widget);
    window->addDockWidget(area, d);
    return d;
}

} // namespace crossroof::app
