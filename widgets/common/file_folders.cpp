// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_folders.h"

#include "common/file_browser_dialog.h"
#include "common/native_path.h"

#include <QDir>
#include <QSettings>

#include <filesystem>

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

/// Asks REQUEST with the chooser set, else with the FileBrowserDialog (QFileDialog cannot list a folder whose
/// name is not UTF-8); remembers the answer's folder.
QString ask(QWidget *parent, const FileRequest &request)
{
    const QString path = chooser() ? chooser()(request) : FileBrowserDialog::choose(parent, request);
    rememberFileFolder(request.kind, path);
    return path;
}

} // namespace

void setFileChooser(FileChooser newChooser)
{
    chooser() = std::move(newChooser);
}

// A folder is looked at and kept as its bytes. QFileInfo encodes a path as UTF-8, so a folder named in
// Latin-1 (pathFromNative()'s lone surrogates) was never a folder to it; QSettings writes a lone surrogate as
// U+FFFD, so such a folder would come back as another path after a restart: it is kept as a byte array, any
// other folder as text.
QString fileFolder(FileKind kind)
{
    const QVariant value = QSettings().value(keyOf(kind));
    const QString folder = value.typeId() == QMetaType::QByteArray
                                   ? pathFromNative(value.toByteArray().toStdString())
                                   : value.toString();
    std::error_code error;
    if (folder.isEmpty() || !std::filesystem::is_directory(nativePath(folder), error))
        return QDir::homePath();
    return folder;
}

void rememberFileFolder(FileKind kind, const QString &path)
{
    if (path.isEmpty())
        return;
    std::string bytes = normalFolder(nativePath(path));
    if (std::error_code error; !std::filesystem::is_directory(bytes, error))
        bytes = normalFolder(std::filesystem::path(bytes).parent_path().string());
    const QString text = QString::fromStdString(bytes);
    if (nativePath(text) == bytes)
        QSettings().setValue(keyOf(kind), text);
    else
        QSettings().setValue(keyOf(kind), QByteArray::fromStdString(bytes));
}

QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter)
{
    return ask(parent, {FileRequest::Mode::Open, kind, title, fileFolder(kind), filter});
}

QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter, const QString &suffix)
{
    // An absolute NAME replaces the folder.
    const std::filesystem::path proposed
            = std::filesystem::path(nativePath(fileFolder(kind))) / nativePath(name);
    return ask(parent, {FileRequest::Mode::Save, kind, title, pathFromNative(proposed.string()), filter, suffix});
}

QString existingFolder(QWidget *parent, FileKind kind, const QString &title)
{
    return ask(parent, {FileRequest::Mode::Folder, kind, title, fileFolder(kind), QString()});
}

} // namespace crossroof::widgets
