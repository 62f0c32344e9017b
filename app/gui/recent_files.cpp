// SPDX-License-Identifier: GPL-3.0-or-later
#include "recent_files.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace crossroof::app {

namespace {

const QString kKey = QStringLiteral("recentSessions");
constexpr int kKept = 8;

} // namespace

RecentFiles::RecentFiles(QWidget *parent)
    : QObject(parent)
    , m_menu(new QMenu(tr("Open &Recent"), parent))
{
    connect(m_menu, &QMenu::aboutToShow, this, &RecentFiles::rebuild);
}

QStringList RecentFiles::paths()
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = paths();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kKept)
        recent.removeLast();
    QSettings().setValue(kKey, recent);
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const QStringList recent = paths();
    for (const QString &path : recent)
        m_menu->addAction(QFileInfo(path).fileName(), this, [this, path] {
                  Q_EMIT openRequested(path);
              })->setStatusTip(path);
    if (recent.isEmpty())
        m_menu->addAction(tr("(none)"))->setEnabled(false);
}

} // namespace crossroof::app
