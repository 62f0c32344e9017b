// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

class QStatusBar;

namespace crossroof::app {

/// The status bar's messages per view: what a view says (its hover text, its notes about the data) shows
/// while the view is in front and comes back when it is brought to the front again, until its time is up; a
/// view that is not in front shows nothing. Bringing another view to the front takes away whatever was shown
/// (a view's message, or any other note), so the status bar never shows a message about a view not in front.
class TabMessages : public QObject
{
    Q_OBJECT
public:
    /// Messages in BAR; SHOWN tells whether a view (by name) is in front. Call switched() whenever the views
    /// in front change.
    TabMessages(QStatusBar *bar, std::function<bool(const QString &)> shown, QObject *parent);

    /// VIEW's message: TEXT for MILLISECONDS (0: until VIEW says something else), shown at once if VIEW is in
    /// front. An empty TEXT takes VIEW's message away.
    void show(const QString &view, const QString &text, int milliseconds = 0);
    /// VIEW's message, or an empty string (none, or its time is up).
    QString message(const QString &view) const;
    /// Other views are in front: clears the status bar and shows their messages.
    void switched();

private:
    struct Message
    {
        QString text;
        QDeadlineTimer until;
    };
    QStatusBar *m_bar;
    std::function<bool(const QString &)> m_shown;
    QHash<QString, Message> m_messages;
};

} // namespace crossroof::app
