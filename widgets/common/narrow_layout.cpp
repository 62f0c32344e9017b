// SPDX-License-Identifier: GPL-3.0-or-later
#include "narrow_layout.h"

#include <QBoxLayout>
#include <QEvent>
#include <QSplitter>
#include <QTabWidget>
#include <QWidget>

#include <functional>
#include <utility>

namespace crossroof::widgets {

namespace {

/// Calls TURN with VIEW's width each time VIEW is resized.
class WidthWatcher : public QObject
{
public:
    WidthWatcher(QWidget *view, std::function<void(int)> turn)
        : QObject(view)
        , m_turn(std::move(turn))
    {
        view->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            m_turn(static_cast<QWidget *>(watched)->width());
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void(int)> m_turn;
};

} // namespace

void stackWhenNarrow(QWidget *view, QBoxLayout *layout, int width)
{
    new WidthWatcher(view, [layout, width](int now) {
        const auto direction = now < width ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
        if (layout->direction() != direction)
            layout->setDirection(direction);
    });
}

void stackWhenNarrow(QWidget *view, QSplitter *splitter, int width)
{
    new WidthWatcher(view, [splitter, width](int now) {
        splitter->setOrientation(now < width ? Qt::Vertical : Qt::Horizontal);
    });
}

void besideWhenNarrow(QWidget *view, QSplitter *splitter, int width)
{
    new WidthWatcher(view, [splitter, width](int now) {
        splitter->setOrientation(now < width ? Qt::Horizontal : Qt::Vertical);
    });
}

void tabWhenNarrow(QWidget *view, QBoxLayout *layout, QTabWidget *tabs, const QList<NarrowPage> &pages, int width)
{
    for (const NarrowPage &page : pages)
        layout->addWidget(page.widget, page.stretch);
    layout->addWidget(tabs, 1);
    tabs->hide();
    new WidthWatcher(view, [layout, tabs, pages, width](int now) {
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
