// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;
class QWidget;

namespace crossroof::app {

/// File > Open Recent: the last eight sessions saved or opened, kept in the settings, newest first.
class RecentFiles : public QObject
{
    Q_OBJECT
public:
    /// The menu is built each time it opens; PARENT owns it.
    explicit RecentFiles(QWidget *parent);

    QMenu *menu() const { return m_menu; }
    /// The sessions, absolute paths, newest first.
    static QStringList paths();
    /// Puts PATH first (once).
    static void add(const QString &path);

Q_SIGNALS:
    /// The user chose PATH in the menu.
    void openRequested(const QString &path);

private:
    void rebuild();

    QMenu *m_menu;
};

} // namespace crossroof::app
