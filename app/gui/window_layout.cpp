// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_layout.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QSettings>

#include <algorithm>
#include <utility>

namespace crossroof::app {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// Raised whenever the set of docks changes, so that an older layout is not applied to a different window.
constexpr int kStateVersion = 2;

} // namespace

WindowLayout::WindowLayout(QMainWindow *window, std::function<void()> defaultSizes)
    : QObject(window)
    , m_window(window)
    , m_defaultSizes(std::move(defaultSizes))
    , m_defaultState(window->saveState(kStateVersion))
    , m_reset(new QAction(tr("Reset &Layout"), this))
{
    m_defaultSizes();
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    m_reset->setStatusTip(tr("Show every panel again, in its first-run place"));
    connect(m_reset, &QAction::triggered, this, &WindowLayout::reset);

    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (!geometry.isEmpty())
        m_window->restoreGeometry(geometry);
    const QByteArray state = settings.value(kStateKey).toByteArray();
    if (!state.isEmpty())
        m_window->restoreState(state, kStateVersion); // refused (false) when it is of another version
    m_window->installEventFilter(this);
}

bool WindowLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        leaveTheCentreHalf();
    return QObject::eventFilter(watched, event);
}

void WindowLayout::leaveTheCentreHalf()
{
    // The widest shown dock of each side stands for its side (docks stacked or tabbed share a width).
    QList<QDockWidget *> sides;
    QList<int> widths;
    for (Qt::DockWidgetArea area : {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea}) {
        QDockWidget *widest = nullptr;
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
            if (dock->parentWidget() == m_window && dock->isVisible() && !dock->isFloating()
                && m_window->dockWidgetArea(dock) == area && (!widest || dock->width() > widest->width()))
                widest = dock;
        }
        if (widest) {
            sides << widest;
            widths << widest->width();
        }
    }
    int total = 0;
    for (int w : widths)
        total += w;
    const int room = m_window->width() / 2;
    if (sides.isEmpty() || total <= room)
        return;
    bool changed = false;
    for (qsizetype i = 0; i < sides.size(); ++i) {
        const int narrower = std::max(sides[i]->minimumWidth(), int(qint64(widths[i]) * room / total));
        changed = changed || narrower < widths[i];
        widths[i] = narrower;
    }
    if (changed)
        m_window->resizeDocks(sides, widths, Qt::Horizontal);
}

void WindowLayout::reset()
{
    m_window->restoreState(m_defaultState, kStateVersion);
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        if (dock->parentWidget() == m_window)
            dock->show();
    }
    m_defaultSizes();
}

void WindowLayout::save() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kStateVersion));
}

void WindowLayout::forget()
{
    QSettings settings;
    settings.remove(kGeometryKey);
    settings.remove(kStateKey);
}

} // namespace crossroof::app
