// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_folders.h"

#include "common/error_message.h"
#include "common/native_path.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include <filesystem>

namespace crossroof::widgets {

namespace {

/// The settings key of KIND's folder ("export/directory" is the key exports had before).
QString keyOf(FileKind kind)
{
    return kind == FileKind::Export ? QStringLiteral("export/directory") : QStringLiteral("files/directory");
}

FileChooser &chooser()
{
    static FileChooser instance;
    return instance;
}

/// Asks REQUEST in a QFileDialog over PARENT: the chosen path, or an empty string for Cancel.
QString askDialog(QWidget *parent, const FileRequest &request)
{
    QFileDialog dialog(parent, request.title);
    if (!request.filter.isEmpty())
        dialog.setNameFilter(request.filter);
    switch (request.mode) {
    case FileRequest::Mode::Open:
        dialog.setAcceptMode(QFileDialog::AcceptOpen);
        dialog.setFileMode(QFileDialog::ExistingFile);
        dialog.setDirectory(request.start);
        break;
    case FileRequest::Mode::Save: {
        // The proposed path's folder is where it opens, its name is in the name field; the default suffix is
        // added before the dialog asks whether to replace a file of that name.
        const QFileInfo proposed(request.start);
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        dialog.setFileMode(QFileDialog::AnyFile);
        dialog.setDefaultSuffix(request.suffix);
        dialog.setDirectory(proposed.absolutePath());
        dialog.selectFile(proposed.fileName());
        break;
    }
    case FileRequest::Mode::Folder:
        dialog.setAcceptMode(QFileDialog::AcceptOpen);
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly);
        dialog.setDirectory(request.start);
        break;
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().constFirst();
}

/// Asks REQUEST with the chooser set, else with a QFileDialog; a path Qt could not pass is refused with a
/// message over PARENT. Remembers the answer's folder.
QString ask(QWidget *parent, const FileRequest &request)
{
    const QString path = chooser() ? chooser()(request) : askDialog(parent, request);
    if (const QString problem = unreachablePathProblem(path, request.mode); !problem.isEmpty()) {
        showError(parent, problem);
        return {};
    }
    rememberFileFolder(request.kind, path);
    return path;
}

} // namespace

void setFileChooser(FileChooser newChooser)
{
    chooser() = std::move(newChooser);
}

QString unreachablePathProblem(const QString &path, FileRequest::Mode mode)
{
    if (!path.contains(QChar::ReplacementCharacter))
        return {};
    // The first part of the path, from the root, that is not there and shows U+FFFD: Qt decoded a name that
    // is not UTF-8 there. A file to save need not be there, its folder must.
    namespace fs = std::filesystem;
    const fs::path whole(nativePath(path));
    const auto parts = std::distance(whole.begin(), whole.end());
    fs::path reached;
    std::ptrdiff_t index = 0;
    for (const fs::path &part : whole) {
        reached /= part;
        const bool last = ++index == parts;
        if (last && mode == FileRequest::Mode::Save)
            return {};
        std::error_code error;
        if (fs::exists(reached, error))
            continue;
        if (!QString::fromStdString(part.string()).contains(QChar::ReplacementCharacter))
            return {};
        const QString shown = QString::fromStdString(reached.string());
        const bool file = last && mode == FileRequest::Mode::Open;
        const QString where = file ? QObject::tr("The file %1 cannot be opened from the file dialog")
                                   : QObject::tr("The folder %1 cannot be reached from the file dialog");
        const QString instead
                = mode == FileRequest::Mode::Save
                          ? QObject::tr("Save into a folder whose name is UTF-8, or rename this one.")
                          : QObject::tr("Give its path on the command line instead (crossroof PATH opens a "
                                        "session or a profile; crossroof-cli reads every file by its bytes), "
                                        "or rename it.");
        return QObject::tr("%1: its name is not UTF-8, and Qt's file dialog passes each byte it cannot read "
                           "as \u201c\uFFFD\u201d, which names no file. %2")
                .arg(where.arg(shown), instead);
    }
    return {};
}

QString fileFolder(FileKind kind)
{
    const QString folder = QSettings().value(keyOf(kind)).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        return QDir::homePath();
    return folder;
}

void rememberFileFolder(FileKind kind, const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    QSettings().setValue(keyOf(kind),
                         QDir::cleanPath(info.isDir() ? info.absoluteFilePath() : info.absolutePath()));
}

QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter)
{
    return ask(parent, {FileRequest::Mode::Open, kind, title, fileFolder(kind), filter});
}

QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter, const QString &suffix)
{
    // An absolute NAME replaces the folder; a name kept from a path that is not UTF-8 is shown as Qt shows
    // it.
    const QString proposed = QDir(fileFolder(kind)).filePath(displayedPath(name));
    return ask(parent, {FileRequest::Mode::Save, kind, title, proposed, filter, suffix});
}

QString existingFolder(QWidget *parent, FileKind kind, const QString &title)
{
    return ask(parent, {FileRequest::Mode::Folder, kind, title, fileFolder(kind), QString()});
}

} // namespace crossroof::widgets
