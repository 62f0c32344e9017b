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

FileChooser &chooser()
{
    static FileChooser instance;
    return instance;
}

/// Asks REQUEST with the chooser set, else with QFileDialog's own dialog; remembers the answer's folder.
QString ask(QWidget *parent, const FileRequest &request)
{
    QString path;
    if (chooser())
        path = chooser()(request);
    else if (request.mode == FileRequest::Mode::Open)
        path = QFileDialog::getOpenFileName(parent, request.title, request.start, request.filter);
    else if (request.mode == FileRequest::Mode::Save)
        path = QFileDialog::getSaveFileName(parent, request.title, request.start, request.filter);
    else
        path = QFileDialog::getExistingDirectory(parent, request.title, request.start);
    rememberFileFolder(request.kind, path);
    return path;
}

} // namespace

void setFileChooser(FileChooser newChooser)
{
    chooser() = std::move(newChooser);
}

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
    return ask(parent, {FileRequest::Mode::Open, kind, title, fileFolder(kind), filter});
}

QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter)
{
    return ask(parent, {FileRequest::Mode::Save, kind, title, QDir(fileFolder(kind)).filePath(name), filter});
}

QString existingFolder(QWidget *parent, FileKind kind, const QString &title)
{
    return ask(parent, {FileRequest::Mode::Folder, kind, title, fileFolder(kind), QString()});
}

} // namespace crossroof::widgets
