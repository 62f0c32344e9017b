// SPDX-License-Identifier: GPL-3.0-or-later
#include "narrow_layout.h"

#include <QBoxLayout>
#include <QEvent>
#include <QSplitter>
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

} // namespace crossroof::widgets
