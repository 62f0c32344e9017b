// SPDX-License-Identifier: GPL-3.0-or-later
#include "narrow_layout.h"

#include <QAbstractScrollArea>
#include <QBoxLayout>
#include <QEvent>
#include <QPointer>
#include <QSplitter>
#include <QTabWidget>
#include <QWidget>

#include <algorithm>
#include <functional>
#include <utility>

namespace crossroof::widgets {

namespace {

/// The scroll area's viewport VIEW lies in, or null.
QWidget *areaViewport(const QWidget *view)
{
    QWidget *viewport = view->parentWidget();
    return viewport && qobject_cast<QAbstractScrollArea *>(viewport->parentWidget()) ? viewport : nullptr;
}

/// The width VIEW has to lay itself out in: its own, or in a scroll area (a view's tab, a pane of View > Side
/// by Side), where a view is never narrower than its minimum, the area's. Every turn of a view goes by this one
/// width, so that one turn's new minimum width cannot undo another.
int room(const QWidget *view)
{
    const QWidget *viewport = areaViewport(view);
    return viewport ? viewport->width() : view->width();
}

/// Calls TURN with the room VIEW has (room()) whenever VIEW or the scroll area around it is resized, or VIEW is
/// put somewhere else (View > Side by Side takes the views into panes of its own).
class RoomWatcher : public QObject
{
public:
    RoomWatcher(QWidget *view, std::function<void(int)> turn)
        : QObject(view)
        , m_view(view)
        , m_turn(std::move(turn))
    {
        view->installEventFilter(this);
        watchArea();
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view && event->type() == QEvent::ParentChange) {
            watchArea();
            m_turn(room(m_view));
        } else if (event->type() == QEvent::Resize && (watched == m_view || watched == m_viewport)) {
            m_turn(room(m_view));
        }
        return QObject::eventFilter(watched, event);
    }

private:
    void watchArea()
    {
        if (m_viewport)
            m_viewport->removeEventFilter(this);
        m_viewport = areaViewport(m_view);
        if (m_viewport)
            m_viewport->installEventFilter(this);
    }

    QWidget *m_view;
    QPointer<QWidget> m_viewport;
    std::function<void(int)> m_turn;
};

} // namespace

void stackWhenNarrow(QWidget *view, QBoxLayout *layout, int width)
{
    new RoomWatcher(view, [view, layout, width](int now) {
        // Side by side only where its parts fit too, at the least widths they have in this font (a bar of
        // controls with the H100's long trace names needed more than the width its view stacked it below).
        int need = 0;
        for (int i = 0; i < layout->count(); ++i)
            need += layout->itemAt(i)->minimumSize().width() + (i > 0 ? std::max(0, layout->spacing()) : 0);
        if (const QLayout *own = view->layout())
            need += own->contentsMargins().left() + own->contentsMargins().right();
        const auto direction = now < std::max(width, need) ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
        if (layout->direction() != direction)
            layout->setDirection(direction);
    });
}

void stackWhenNarrow(QWidget *view, QSplitter *splitter, int width)
{
    new RoomWatcher(view, [splitter, width](int now) {
        splitter->setOrientation(now < width ? Qt::Vertical : Qt::Horizontal);
    });
}

void besideWhenNarrow(QWidget *view, QSplitter *splitter, int width, int least)
{
    new RoomWatcher(view, [splitter, width, least](int now) {
        splitter->setOrientation(now < width && now >= least ? Qt::Horizontal : Qt::Vertical);
    });
}

void tabWhenNarrow(QWidget *view, QBoxLayout *layout, QTabWidget *tabs, const QList<NarrowPage> &pages, int width)
{
    for (const NarrowPage &page : pages)
        layout->addWidget(page.widget, page.stretch);
    layout->addWidget(tabs, 1);
    tabs->hide();
    new RoomWatcher(view, [layout, tabs, pages, width](int now) {
        const bool tabbed = now < width;
        if (tabbed == tabs->isVisible() || (tabbed && tabs->count() == pages.size()))
            return;
        if (tabbed) {
            for (const NarrowPage &page : pages) {
                layout->removeWidget(page.widget);
                tabs->addTab(page.widget, page.title);
            }
            tabs->show();
        } else {
            tabs->hide();
            int at = 0;
            for (const NarrowPage &page : pages) {
                tabs->removeTab(tabs->indexOf(page.widget));
                layout->insertWidget(at++, page.widget, page.stretch);
                page.widget->show();
            }
        }
    });
}

} // namespace crossroof::widgets
