// SPDX-License-Identifier: GPL-3.0-or-later
#include "tab_messages.h"

#include <QStatusBar>

#include <algorithm>
#include <utility>

namespace crossroof::app {

TabMessages::TabMessages(QStatusBar *bar, std::function<bool(const QString &)> shown, QObject *parent)
    : QObject(parent)
    , m_bar(bar)
    , m_shown(std::move(shown))
{
}

void TabMessages::show(const QString &view, const QString &text, int milliseconds)
{
    if (text.isEmpty()) {
        const bool had = !message(view).isEmpty();
        m_messages.remove(view);
        if (had && m_shown(view))
            m_bar->clearMessage();
        return;
    }
    m_messages.insert(view, {text, milliseconds > 0 ? QDeadlineTimer(milliseconds) : QDeadlineTimer::Forever});
    if (m_shown(view))
        m_bar->showMessage(text, milliseconds);
}

QString TabMessages::message(const QString &view) const
{
    const auto it = m_messages.find(view);
    return it == m_messages.end() || it->until.hasExpired() ? QString() : it->text;
}

void TabMessages::switched()
{
    m_bar->clearMessage();
    for (auto it = m_messages.cbegin(); it != m_messages.cend(); ++it) {
        if (!m_shown(it.key()) || it->until.hasExpired())
            continue;
        m_bar->showMessage(it->text, it->until.isForever() ? 0 : int(std::max<qint64>(1, it->until.remainingTime())));
        return; // the status bar has room for one
    }
}

} // namespace crossroof::app
