// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_folders.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace crossroof::widgets {

namespace {

/// The settings key of KIND's folder (traces and export kept the keys they had before the other kinds).
QString keyOf(FileKind kind)
{
    switch (kind) {
    case FileKind::Traces:
        return QStringLiteral("traces/directory");
    case FileKind::Kernels:
        return QStringLiteral("kernels/directory");
    case FileKind::Sessions:
        return QStringLiteral("sessions/directory");
    case FileKind::Profiles:
        return QStringLiteral("profiles/directory");
    case FileKind::Training:
        return QStringLiteral("training/directory");
    case FileKind::Counters:
        return QStringLiteral("counters/directory");
    case FileKind::Calibration:
        return QStringLiteral("calibration/directory");
    case FileKind::Export:
        return QStringLiteral("export/directory");
    }
    return QStringLiteral("files/directory");
}

} // namespace

QString fileFolder(FileKind kind)
{
    const QString folder = QSettings().value(keyOf(kind)).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFileFolder(FileKind kind, const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(keyOf(kind), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, fileFolder(kind), filter);
    rememberFileFolder(kind, path);
    return path;
}

QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, QDir(fileFolder(kind)).filePath(name), filter);
    rememberFileFolder(kind, path);
    return path;
}

QString existingFolder(QWidget *parent, FileKind kind, const QString &title)
{
    const QString folder = QFileDialog::getExistingDirectory(parent, title, fileFolder(kind));
    rememberFileFolder(kind, folder);
    return folder;
}

} // namespace crossroof::widgets
