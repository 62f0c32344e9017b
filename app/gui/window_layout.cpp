// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_layout.h"

#include "screen_fit.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QRect>
#include <QSettings>

#include <algorithm>
#include <utility>

namespace crossroof::app {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// Raised whenever the set of docks changes, so that an older layout is not applied to a different window.
constexpr int kStateVersion = 2;
// The share of the window's width the views keep when it gets narrow, in percent.
constexpr int kCentreShare = 60;
// Below this width (a 1024-pixel screen) the two side columns of docks cannot leave the views their share.
constexpr int kStackWidth = 1200;

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
    fitDialogsIntoTheirScreens(this);
}

bool WindowLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
        stackWhenNarrow();
        leaveTheCentreItsShare();
    }
    return QObject::eventFilter(watched, event);
}

void WindowLayout::leaveTheCentreItsShare()
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
    const int room = m_window->width() * (100 - kCentreShare) / 100;
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

void WindowLayout::stackWhenNarrow()
{
    const bool narrow = m_window->width() < kStackWidth;
    if (!narrow) {
        unstack();
        return;
    }
    if (isStacked())
        return;
    QList<QDockWidget *> left, right;
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        if (dock->parentWidget() != m_window || dock->isFloating())
            continue;
        if (m_window->dockWidgetArea(dock) == Qt::LeftDockWidgetArea && !dock->isHidden())
            left << dock;
        else if (m_window->dockWidgetArea(dock) == Qt::RightDockWidgetArea)
            right << dock;
    }
    if (left.isEmpty() || right.isEmpty())
        return;
    // The one a user sees in front goes first, so that it stays in front of the tabs it is moved with.
    std::stable_partition(right.begin(), right.end(),
                          [](const QDockWidget *dock) { return !dock->visibleRegion().isEmpty(); });
    m_stacked = right;
    m_window->splitDockWidget(left.back(), right.front(), Qt::Vertical);
    for (qsizetype i = 1; i < right.size(); ++i)
        m_window->tabifyDockWidget(right.front(), right[i]);
    right.front()->raise();
}

void WindowLayout::fitInto(QWidget *window, const QRect &available)
{
    if (!available.isValid())
        return;
    // The frame (title bar, borders) is known once the window was shown; before, it counts as nothing.
    const QSize frame = window->frameGeometry().size() - window->geometry().size();
    const QSize room = (available.size() - frame).expandedTo(window->minimumSize());
    window->resize(window->size().boundedTo(room));
    const QSize outer = window->size() + frame;
    const int x = std::clamp(window->x(), available.left(),
                             std::max(available.left(), available.right() + 1 - outer.width()));
    const int y = std::clamp(window->y(), available.top(),
                             std::max(available.top(), available.bottom() + 1 - outer.height()));
    window->move(x, y);
}

void WindowLayout::showInside(QWidget *window, const QRect &available)
{
    fitInto(window, available);
    window->show();
    fitInto(window, available);
}

void WindowLayout::showAtStart(QWidget *window, const QRect &available)
{
    showInside(window, available);
    window->raise();
    window->activateWindow();
}

void WindowLayout::unstack()
{
    if (!isStacked())
        return;
    const QList<QDockWidget *> docks = std::exchange(m_stacked, {});
    m_window->addDockWidget(Qt::RightDockWidgetArea, docks.front());
    for (qsizetype i = 1; i < docks.size(); ++i)
        m_window->tabifyDockWidget(docks.front(), docks[i]);
    docks.front()->raise();
}

void WindowLayout::reset()
{
    m_stacked.clear();
    m_window->restoreState(m_defaultState, kStateVersion);
    m_putAway.clear();
    m_wasInFront.clear();
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        if (dock->parentWidget() == m_window)
            dock->show();
    }
    m_defaultSizes();
    showFront(m_front);
    stackWhenNarrow();
}

void WindowLayout::save()
{
    unstack();
    // Docks put away for the view in front are saved as shown: the next start shows them with their views.
    for (QDockWidget *dock : m_putAway)
        dock->show();
    for (QDockWidget *dock : m_wasInFront)
        dock->raise();
    QSettings settings;
    settings.setValue(kGeometryKey, m_window->saveGeometry());
    settings.setValue(kStateKey, m_window->saveState(kStateVersion));
    for (QDockWidget *dock : m_putAway)
        dock->hide();
}

void WindowLayout::setDockViews(QDockWidget *dock, const QStringList &views)
{
    m_dockViews.append({dock, views});
}

void WindowLayout::showFront(const QStringList &front)
{
    m_front = front;
    QList<QDockWidget *> back;
    for (const auto &entry : std::as_const(m_dockViews)) {
        QDockWidget *dock = entry.first;
        const QStringList &views = entry.second;
        const bool belongs = std::any_of(front.cbegin(), front.cend(),
                                         [&views](const QString &view) { return views.contains(view); });
        if (!belongs && !dock->isHidden()) {
            m_putAway.insert(dock);
            if (!dock->visibleRegion().isEmpty()) {
                m_wasInFront.removeAll(dock);
                m_wasInFront.append(dock);
            }
            dock->hide();
        } else if (belongs && m_putAway.remove(dock)) {
            dock->show();
            back.append(dock);
        }
    }
    // In front of the docks tabbed with them, as they were; of two in one group, the one in front last.
    for (QDockWidget *dock : QList<QDockWidget *>(m_wasInFront)) {
        if (back.contains(dock)) {
            dock->raise();
            m_wasInFront.removeAll(dock);
        }
    }
    // The docks that came back in a narrow window: stacked, and the views their share, as a resize does (a
    // window made narrow while a view without left-hand docks was in front had nothing to stack then).
    if (m_window->isVisible() && m_window->width() < kStackWidth && !isStacked()) {
        stackWhenNarrow();
        leaveTheCentreItsShare();
    }
}

void WindowLayout::forget()
{
    QSettings settings;
    settings.remove(kGeometryKey);
    settings.remove(kStateKey);
}

} // namespace crossroof::app
