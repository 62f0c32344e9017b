// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/session.h"

#include <QLockFile>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QAction;
class QMenu;
class QTimer;

namespace crossroof::app {

class MainWindow;
class RecentFiles;

/// The analysis as a session file: File > New Session, Open Session, Open Recent, Save, Save As and Save Traces
/// as Links; the window's modified mark and title; the autosave every minute and the recovery after a crash.
class SessionController : public QObject
{
    Q_OBJECT
public:
    /// Watches WINDOW's states and views for changes; its actions are WINDOW's children.
    explicit SessionController(MainWindow *window);

    /// Adds the actions to FILE in menu order.
    void addActionsTo(QMenu *file);
    QAction *linkTracesAction() const { return m_linkTraces; }

    /// The whole analysis: profile, parameters, view settings, traces, training runs, the Kernels dock's
    /// file, the view in front and the zoomed plots.
    core::Session capture() const;
    /// capture() without the traces (their data can be millions of points).
    core::Session captureSettings() const;
    /// Replaces the whole analysis with SESSION's (clears the undo history): every view starts again from
    /// what SESSION holds, nothing of the analysis before stays (what-if curves, kernels, training runs,
    /// zoom). Returns what could not be restored (the Kernels dock's file), one message each.
    QStringList apply(core::Session session);
    /// File > New Session: the analysis a new window starts with, after asking to save unsaved changes;
    /// false if the user cancelled.
    bool newSession();
    /// Writes the session atomically; on failure says why and leaves any existing file untouched.
    bool save(const QString &path);
    /// Opens a session; on failure says why (file, field) and keeps the current analysis. A linked trace
    /// whose file cannot be read is left out, and a message names it; the rest of the session opens. A read
    /// that takes long shows its progress and can be cancelled (false, the analysis kept as it was).
    bool open(const QString &path);
    QString path() const { return m_path; }

    /// Where this window's autosave goes: a file of its own in the recovery folder, of a random name (never
    /// the process id, which instances in other PID namespaces share), guarded by a lock file for as long as
    /// the window lives, so that other Crossroof instances leave it alone. Empty when no lock could be taken
    /// (a folder that cannot be written to): autosave is then off and says so.
    QString recoveryPath() const;
    /// The folder of every instance's recovery files.
    static QString recoveryDir();
    /// Writes the recovery file now if there are unsaved changes (the autosave timer calls this).
    void autosave();
    /// The newest recovery file left by an instance that is gone (its lock is stale or missing), or "".
    QString recoverableFile() const;
    /// After a crash: offers to restore the newest recovery file a gone instance left; the ones left behind
    /// by gone instances are then removed. Files of running instances are never touched. With a session
    /// open (named on the command line), only unsaved work on that session is offered; other work is kept
    /// for a start without a file, and the status bar says so.
    void offerRecovery();
    /// Replaces the analysis with the one in RECOVERYFILE, unsaved, under the name of the session file it
    /// was unsaved work on (if any), so that Save writes there; on failure says why and keeps the analysis.
    bool restore(const QString &recoveryFile);
    /// Whether the window may close: asks to save unsaved changes (false: the user cancelled); on yes, the
    /// recovery file goes, as a clean exit leaves nothing to recover.
    bool mayClose();

private:
    /// Picks a recovery file of a new random name and locks it (recoveryPath()); sets m_recoveryProblem if
    /// none can be locked.
    void claimRecoveryFile();
    void markModified();
    /// The present analysis in the form m_savedText keeps: the session's text without the traces' data, and
    /// each trace by its id, name, source and size. Cheap for a session of millions of points.
    std::string analysisText() const;
    /// Remembers the present analysis as the saved one (m_savedText).
    void rememberSaved();
    /// Back at the undo stack's clean state: unmodified again when the analysis is the saved one.
    void undoneToClean(bool clean);
    void setPath(const QString &path);
    void updateTitle();
    /// Asks to save unsaved changes; false if the user cancels (or the save fails).
    bool maybeSave();
    void saveInteractively(bool askForName);
    void openInteractively();
    /// Tells the user which linked traces of SESSION (and other files, PROBLEMS) could not be read (if any).
    void reportTraceProblems(const std::vector<std::string> &traceProblems, const QStringList &problems);
    /// Reads the session file NATIVE (bytes) with its linked files, off the GUI thread: a read that takes long
    /// shows its progress, as opening NAME, and can be cancelled (a note in the status bar). Nothing when it
    /// was cancelled or failed; a failure is shown in a box that starts with FAILURE.
    std::optional<core::Session> readSession(const std::string &native, const QString &name, const QString &failure);

    MainWindow *m_window;
    RecentFiles *m_recent;
    QAction *m_new;
    QAction *m_open;
    QAction *m_save;
    QAction *m_saveAs;
    QAction *m_linkTraces;
    QTimer *m_autosave;
    QString m_path;
    core::Session m_pristine; ///< what the window showed when it was made: File > New Session's analysis
    QString m_recoveryPath;
    std::unique_ptr<QLockFile> m_recoveryLock;
    QString m_recoveryProblem; ///< why there is no recovery file (recoveryPath() empty)
    /// The analysis as last saved, opened or begun (analysisText()): undoing back to it leaves nothing to save
    /// (the undo stack's clean state alone cannot say so: some inputs change outside it).
    std::string m_savedText;
    bool m_applying = false; ///< applying a session: its changes are not the user's
    bool m_autosaveFailed = false; ///< the last autosave failed and the user was told
};

} // namespace crossroof::app
