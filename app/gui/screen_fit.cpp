// SPDX-License-Identifier: GPL-3.0-or-later
#include "screen_fit.h"

#include "window_layout.h"

#include <QApplication>
#include <QEvent>
#include <QPointer>
#include <QScreen>
#include <QTimer>
#include <QWidget>

namespace crossroof::app {

namespace {

void fit(QWidget *window)
{
    if (const QScreen *screen = window->screen())
        WindowLayout::fitInto(window, screen->availableGeometry());
}

class ScreenFit : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Show || !watched->isWidgetType())
            return false;
        auto *window = static_cast<QWidget *>(watched);
        const Qt::WindowType type = window->windowType();
        if (!window->isWindow() || (type != Qt::Dialog && type != Qt::Sheet))
            return false;
        // Before it shows (no flash at a size that does not fit), and once the platform has given it its frame.
        fit(window);
        QTimer::singleShot(0, window, [w = QPointer<QWidget>(window)] {
            if (w && w->isVisible())
                fit(w);
        });
        return false;
    }
};

} // namespace

void fitDialogsIntoTheirScreens(QObject *owner)
{
    qApp->installEventFilter(new ScreenFit(owner));
}

} // namespace crossroof::app
