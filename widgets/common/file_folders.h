// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace crossroof::widgets {

/// The kinds of file whose dialogs remember their folder apart: choosing a trace does not move the folder the
/// session or kernel dialogs open in.
enum class FileKind {
    Traces,      ///< measured traces (gpu-benches, tables, perf stat for the bandwidth view)
    Kernels,     ///< Nsight Compute exports for the Kernels dock
    Sessions,    ///< *.crossroof
    Profiles,    ///< hardware profiles, opened or saved
    Training,    ///< Extrapolate's training runs
    Counters,    ///< perf stat runs for p, q from Counters
    Calibration, ///< Calibrate from Measurements' sources
    Export,      ///< figures and plot data written
};

/// The folder KIND's dialogs open in: where a file of that kind was last chosen, in this run or an earlier one
/// (QSettings), else the home folder.
QString fileFolder(FileKind kind);
/// Remembers PATH's folder (PATH itself when it is a folder) for KIND, byte for byte.
void rememberFileFolder(FileKind kind, const QString &path);

/// One question a file dialog asks: what kind of file, its title, where it opens (a folder, or for a save the
/// proposed path) and its name filter.
struct FileRequest {
    enum class Mode { Open, Save, Folder };
    Mode mode = Mode::Open;
    FileKind kind = FileKind::Traces;
    QString title;
    QString start;
    QString filter;
    /// Save: the suffix (without its dot) a name typed without one gets, before the question whether to
    /// replace a file of that name; none: the name is taken as typed.
    QString suffix = {};
};

/// Who answers file requests: returns the chosen path, or an empty string for Cancel.
using FileChooser = std::function<QString(const FileRequest &)>;
/// Answers every later request with CHOOSER instead of a FileBrowserDialog (scripted runs and tests drive the
/// folders each kind remembers through it); an empty CHOOSER brings the dialogs back.
void setFileChooser(FileChooser chooser);

// Each returns the path as pathFromNative() makes it (nativePath() gives core its bytes), or an empty string
// for Cancel.

/// Asks for an existing file in KIND's folder (FileBrowserDialog); the chosen file's folder is remembered.
QString openFileName(QWidget *parent, FileKind kind, const QString &title, const QString &filter);
/// Asks for a file name to save to, proposing NAME in KIND's folder (NAME itself when it is an absolute path);
/// a name typed without a suffix gets SUFFIX (none when empty) and replacing a file is confirmed. The chosen
/// file's folder is remembered.
QString saveFileName(QWidget *parent, FileKind kind, const QString &title, const QString &name,
                     const QString &filter, const QString &suffix = {});
/// Asks for a folder, from KIND's folder; the chosen folder is remembered.
QString existingFolder(QWidget *parent, FileKind kind, const QString &title);

} // namespace crossroof::widgets
