// SPDX-License-Identifier: GPL-3.0-or-later
#include "recent_files.h"

#include "common/native_path.h"

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

// The paths are kept as their bytes (widgets::nativePath()): the settings file is UTF-8, and a name that is
// not (a Latin-1 "r\xe9sultats") came back from it as U+FFFD, a file that does not exist. Settings of earlier
// versions hold strings, which are read as they are.
QStringList RecentFiles::paths()
{
    const QVariant value = QSettings().value(kKey);
    const auto pathOf = [](const QVariant &entry) {
        return entry.typeId() == QMetaType::QByteArray ? widgets::pathFromNative(entry.toByteArray().toStdString())
                                                       : entry.toString();
    };
    if (value.typeId() == QMetaType::QByteArray) // a list of one
        return {pathOf(value)};
    if (value.typeId() != QMetaType::QVariantList)
        return value.toStringList();
    QStringList paths;
    for (const QVariant &entry : value.toList())
        paths << pathOf(entry);
    return paths;
}

void RecentFiles::add(const QString &path)
{
    QStringList recent = paths();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kKept)
        recent.removeLast();
    QVariantList kept;
    for (const QString &p : recent)
        kept << QByteArray::fromStdString(widgets::nativePath(p));
    QSettings().setValue(kKey, kept);
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
