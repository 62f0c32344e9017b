// SPDX-License-Identifier: GPL-3.0-or-later
// Files are chosen with Qt's QFileDialog: the platform's own dialog where there is one (its bookmarks,
// completion, the desktop portal), Qt's widget dialog elsewhere. Qt decodes every file name as UTF-8, so a
// name that is not (a Latin-1 "r\xe9sultats") comes back with U+FFFD in it and names no file: such an answer
// is refused with a message that names the folder and points to the command line, which keeps the bytes
// (pathFromNative()).
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace crossroof::widgets {

/// Which remembered folder a dialog opens in: every data file (sessions, profiles, traces, Nsight Compute
/// exports, training runs, perf stat runs, calibration sources) shares one, the last one chosen; figures and
/// plot data written keep theirs, where the last export went.
enum class FileKind {
    Data,
    Export,
};

/// The folder KIND's dialogs open in: where a file of that kind was last chosen, in this run or an earlier
/// one (QSettings), else the home folder.
QString fileFolder(FileKind kind);
/// Remembers PATH's folder (PATH itself when it is a folder) for KIND.
void rememberFileFolder(FileKind kind, const QString &path);

/// One question a file dialog asks: what kind of file, its title, where it opens (a folder, or for a save the
/// proposed path) and its name filter.
struct FileRequest {
    enum class Mode { Open, Save, Folder };
    Mode mode = Mode::Open;
    FileKind kind = FileKind::Data;
    QString title;
    QString start;
    QString filter;
    /// Save: the suffix (without its dot) a name typed without one gets, before the question whether to
    /// replace a file of that name (QFileDialog::setDefaultSuffix()); none: the name is taken as typed.
    QString suffix = {};
};

/// Who answers file requests: returns the chosen path, or an empty string for Cancel.
using FileChooser = std::function<QString(const FileRequest &)>;
/// Answers every later request with CHOOSER instead of a QFileDialog (scripted runs and tests drive the
/// remembered folders through it); an empty CHOOSER brings the dialogs back. Its answers are checked as the
/// dialog's are (unreachablePathProblem()).
void setFileChooser(FileChooser chooser);

/// Why PATH, chosen in a file dialog for MODE, cannot be used: Qt passed a name that is not UTF-8 as U+FFFD,
/// so the file (Open), its folder (Save) or the folder (Folder) is not there under the name Qt gives. The
/// message names the first such folder (or the file) and suggests the command line. Empty when PATH is usable
/// or is missing for another reason (the caller's own message says so).
QString unreachablePathProblem(const QString &path, FileRequest::Mode mode);

// Each returns the chosen path, or an empty string for Cancel (and for a path Qt could not pass, after a
// message box over PARENT says so).

/// Asks for an existing file in KIND's folder; the chosen file's folder is remembered.
QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter);
/// Asks for a file name to save to, proposing NAME in KIND's folder (NAME itself when it is an absolute
/// path); a name typed without a suffix gets SUFFIX (none when empty) and replacing a file is confirmed. The
/// chosen file's folder is remembered.
QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter, const QString &suffix = {});
/// Asks for a folder, from KIND's folder; the chosen folder is remembered.
QString existingFolder(QWidget *parent, FileKind kind, const QString &title);

} // namespace crossroof::widgets
