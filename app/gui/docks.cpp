// SPDX-License-Identifier: GPL-3.0-or-later
#include "docks.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QScrollArea>
#include <QStyle>

#include <algorithm>

namespace crossroof::app {

namespace {

/// Follows the layout requests of a scroll area's widget (a value that grew past the width its label asked
/// for) and widens the area to match.
class WidthKeeper : public QObject
{
public:
    WidthKeeper(QScrollArea *area, int least)
        : QObject(area)
        , m_area(area)
        , m_least(least)
    {
        area->widget()->installEventFilter(this);
        fit();
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest && watched == m_area->widget())
            fit();
        return false;
    }

private:
    void fit()
    {
        const int needed = m_area->widget()->minimumSizeHint().width()
                + m_area->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_area)
                + 2 * m_area->frameWidth();
        m_area->setMinimumWidth(std::max(m_least, needed));
    }

    QScrollArea *m_area;
    int m_least;
};

} // namespace

QScrollArea *scrollable(QWidget *widget)
{
    auto *area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

void keepWideEnough(QScrollArea *area, int least)
{
    new WidthKeeper(area, least);
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
