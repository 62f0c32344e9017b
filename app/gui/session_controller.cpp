// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_controller.h"

#include "main_window.h"
#include "messages.h"
#include "recent_files.h"

#include "common/long_work.h"
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "common/file_folders.h"
#include "common/native_path.h"
#include "common/plot_navigator.h"
#include "common/save_file.h"
#include "core/support/error.h"
#include "state/analysis_document.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QAction>
#include <QFileInfo>
#include <QCoreApplication>
#include <QDir>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QUuid>

#include <algorithm>

namespace crossroof::app {

using namespace crossroof::widgets;

namespace {

/// The lock file beside a recovery file.
QString lockPathOf(const QString &recoveryFile)
{
    return recoveryFile.left(recoveryFile.size() - int(qstrlen(".crossroof"))) + QStringLiteral(".lock");
}

/// The file beside a recovery file that holds the path of the session it is unsaved work on, if any.
QString originPathOf(const QString &recoveryFile)
{
    return recoveryFile.left(recoveryFile.size() - int(qstrlen(".crossroof"))) + QStringLiteral(".origin");
}

/// Removes a recovery file and the origin beside it (nothing for "": a window without one).
void removeRecoveryFile(const QString &recoveryFile)
{
    if (recoveryFile.isEmpty())
        return;
    QFile::remove(recoveryFile);
    QFile::remove(originPathOf(recoveryFile));
}

/// The recovery files of instances that are gone: no lock, or a lock whose process has ended.
QFileInfoList orphanedRecoveryFiles(const QString &own)
{
    QFileInfoList orphans;
    const QFileInfoList files = QDir(SessionController::recoveryDir())
                                        .entryInfoList({QStringLiteral("recovery-*.crossroof")}, QDir::Files,
                                                       QDir::Time);
    for (const QFileInfo &file : files) {
        if (file.absoluteFilePath() == QFileInfo(own).absoluteFilePath())
            continue;
        QLockFile lock(lockPathOf(file.absoluteFilePath()));
        lock.setStaleLockTime(0); // only a gone owner makes a lock stale, never its age
        if (!lock.tryLock(0))
            continue; // its instance is running
        orphans << file;
        lock.unlock();
    }
    return orphans;
}

/// Writes SESSION to PATH (core::saveSessionFile()): an empty string, or why it was not written.
QString saveSessionTo(const core::Session &session, const QString &path)
{
    return QString::fromStdString(core::saveSessionFile(session, widgets::nativePath(path)));
}

} // namespace

SessionController::SessionController(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_recent(new RecentFiles(window))
    , m_new(new QAction(tr("&New Session"), window))
    , m_open(new QAction(tr("&Open Session…"), window))
    , m_save(new QAction(tr("&Save Session"), window))
    , m_saveAs(new QAction(tr("Save Session &As…"), window))
    , m_linkTraces(new QAction(tr("Save Traces as &Links to Their Files"), window))
    , m_autosave(new QTimer(this))
{
    m_new->setShortcut(QKeySequence::New);
    m_new->setStatusTip(tr("Start again from the analysis a new window shows"));
    m_open->setShortcut(QKeySequence::Open);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    claimRecoveryFile();

    m_linkTraces->setCheckable(true);
    m_linkTraces->setStatusTip(
            tr("Save each trace as the path of its file, relative to the session, and read it "
               "again on opening, instead of its points"));
    connect(m_new, &QAction::triggered, this, &SessionController::newSession);
    connect(m_open, &QAction::triggered, this, &SessionController::openInteractively);
    connect(m_save, &QAction::triggered, this, [this] { saveInteractively(false); });
    connect(m_saveAs, &QAction::triggered, this, [this] { saveInteractively(true); });
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString &path) {
        if (maybeSave())
            open(path);
    });

    // Everything a session holds marks the window modified when it changes: the document, and the link choice.
    connect(m_linkTraces, &QAction::toggled, this, &SessionController::markModified);
    connect(window->document(), &AnalysisDocument::changed, this, &SessionController::markModified);
    connect(window->state(), &ParameterState::profileChanged, this, &SessionController::updateTitle);

    m_autosave->setInterval(60 * 1000);
    connect(m_autosave, &QTimer::timeout, this, &SessionController::autosave);
    m_autosave->start();
    m_window->setWindowModified(false);
    updateTitle();
    m_pristine = capture();
    rememberSaved();
    connect(window->state()->undoStack(), &QUndoStack::cleanChanged, this, &SessionController::undoneToClean);
}

void SessionController::addActionsTo(QMenu *file)
{
    file->addAction(m_new);
    file->addAction(m_open);
    file->addMenu(m_recent->menu());
    file->addAction(m_save);
    file->addAction(m_saveAs);
    file->addAction(m_linkTraces);
}

void SessionController::updateTitle()
{
    // "[*]" is where Qt shows the modified mark.
    const QString name = m_path.isEmpty() ? QString::fromStdString(m_window->state()->profile().name)
                                          : QFileInfo(m_path).fileName();
    m_window->setWindowTitle(tr("%1[*] — Crossroof").arg(name));
}

void SessionController::markModified()
{
    if (!m_applying)
        m_window->setWindowModified(true);
}

std::string SessionController::analysisText() const
{
    std::string text = core::sessionToJson(captureSettings(), widgets::nativePath(m_path));
    for (const core::MeasuredTrace &t : m_window->document()->traces()->traces())
        text += '\n' + t.id + '\t' + t.name + '\t' + t.source + '\t' + std::to_string(t.x.size()) + '\t'
                + std::to_string(t.y.size()) + '\t' + std::to_string(t.extra.size());
    return text;
}

void SessionController::rememberSaved()
{
    m_savedText = analysisText();
}

void SessionController::undoneToClean(bool clean)
{
    // Only when the stack comes back to where the session was saved: one comparison, not one per change.
    if (clean && !m_applying && m_window->isWindowModified()
        && analysisText() == m_savedText)
        m_window->setWindowModified(false);
}

core::Session SessionController::capture() const
{
    core::Session s = captureSettings();
    s.traces = m_window->document()->traces()->traces();
    return s;
}

core::Session SessionController::captureSettings() const
{
    // The document, and what the window shows of it: the view in front, the zoom, the link choice.
    core::Session s = m_window->document()->toSession(AnalysisDocument::Traces::Without);
    s.current_view = m_window->currentViewName().toStdString();
    // Only the views with a zoomed plot are asked for their figure's plots (to number them): asking brings a view
    // up to date (waits for a map being refined, draws a hidden view), which an autosave in the middle of a
    // drag must not do.
    QStringList zoomedViews;
    for (const PlotNavigator *navigator : m_window->findChildren<PlotNavigator *>()) {
        if (navigator->isZoomed())
            zoomedViews.append(m_window->viewHolding(qobject_cast<const QWidget *>(navigator->parent())));
    }
    for (const QString &view : MainWindow::viewNames()) {
        if (!zoomedViews.contains(view))
            continue;
        const QList<QCustomPlot *> plots = m_window->figurePlots(view);
        for (int i = 0; i < plots.size(); ++i) {
            const PlotNavigator *navigator = PlotNavigator::of(plots[i]);
            if (!navigator || !navigator->isZoomed())
                continue;
            const QCPRange x = navigator->userXRange();
            const QCPRange y = navigator->userYRange();
            s.zoom.push_back({view.toStdString(), i, x.lower, x.upper, y.lower, y.upper});
        }
    }
    s.link_traces = m_linkTraces->isChecked();
    return s;
}

QStringList SessionController::apply(core::Session s)
{
    m_applying = true;
    // Nothing of the analysis before stays: the document is replaced whole, and the zoom goes.
    for (const QString &view : MainWindow::viewNames()) {
        for (QCustomPlot *plot : m_window->figurePlots(view)) {
            if (PlotNavigator *navigator = PlotNavigator::of(plot))
                navigator->resetRanges();
        }
    }
    // The session's profile is the library's where it is the same machine, else an entry of its own: it never
    // takes the place of a library profile for later sessions.
    s.profile = m_window->profilePicker()->addProfile(s.profile);
    const bool linkTraces = s.link_traces;
    const std::string currentView = s.current_view;
    const std::vector<core::PlotZoom> zoom = s.zoom;
    const QStringList problems = m_window->document()->fromSession(std::move(s), m_window);
    m_linkTraces->setChecked(linkTraces);
    m_window->showView(QString::fromStdString(currentView));
    for (const core::PlotZoom &z : zoom) {
        const QList<QCustomPlot *> plots = m_window->figurePlots(QString::fromStdString(z.view));
        if (z.plot >= plots.size())
            continue;
        if (PlotNavigator *navigator = PlotNavigator::of(plots[z.plot]))
            navigator->setUserRanges(QCPRange(z.x_lower, z.x_upper), QCPRange(z.y_lower, z.y_upper));
    }
    m_window->state()->undoStack()->clear(); // the link choice and the view in front are no steps either
    m_applying = false;
    return problems;
}

bool SessionController::newSession()
{
    if (!maybeSave())
        return false;
    apply(m_pristine);
    setPath(QString());
    m_window->setWindowModified(false);
    rememberSaved();
    QFile::remove(recoveryPath()); // nothing unsaved is left to recover
    return true;
}

bool SessionController::save(const QString &path)
{
    const core::Session session = capture();
    if (const QString why = saveSessionTo(session, path); !why.isEmpty()) {
        showError(m_window, tr("The session was not saved to %1: %2. The file on disk is unchanged.").arg(path, why));
        return false;
    }
    setPath(path);
    m_window->setWindowModified(false);
    m_window->state()->undoStack()->setClean();
    rememberSaved();
    removeRecoveryFile(m_recoveryPath);
    RecentFiles::add(path);
    const auto embedded = std::count_if(session.traces.begin(), session.traces.end(),
                                        [&session](const auto &t) { return !core::savesAsLink(session, t); });
    if (session.link_traces && embedded > 0)
        showStatus(
                m_window,
                tr("Saved %1 with %n trace(s) embedded, not linked: their files are gone, or they came from "
                   "an older session",
                   "", int(embedded))
                        .arg(path),
                8000);
    else
        showStatus(m_window, tr("Saved %1").arg(path), 4000);
    return true;
}

std::optional<core::Session> SessionController::readSession(const std::string &native, const QString &name,
                                                            const QString &failure)
{
    std::optional<core::Session> read;
    try {
        // Its linked files are read with it: a trace of millions of rows takes seconds.
        read = widgets::runWithProgress<core::Session>(m_window, tr("Opening %1…").arg(name),
                                                       [native] { return core::loadSessionFile(native); });
    } catch (const core::InputError &e) {
        showError(m_window, QStringLiteral("%1\n%2").arg(failure, QString::fromStdString(e.what())));
        return std::nullopt;
    }
    if (!read)
        showStatus(m_window, tr("Opening %1 was cancelled").arg(name), 6000);
    return read;
}

bool SessionController::open(const QString &path)
{
    std::optional<core::Session> read
            = readSession(widgets::nativePath(path), QFileInfo(path).fileName(), tr("The session was not opened:"));
    if (!read)
        return false;
    core::Session session = std::move(*read);
    const std::vector<std::string> traceProblems = session.trace_problems;
    const QStringList problems = apply(std::move(session));
    setPath(path);
    m_window->setWindowModified(false);
    rememberSaved();
    RecentFiles::add(path);
    reportTraceProblems(traceProblems, problems);
    return true;
}

void SessionController::reportTraceProblems(const std::vector<std::string> &traceProblems, const QStringList &others)
{
    QStringList problems;
    for (const auto &p : traceProblems)
        problems << QString::fromStdString(p);
    problems << others;
    if (problems.isEmpty())
        return;
    // Not modified: the file keeps the links until the user saves over it.
    showError(m_window,
              tr("The session was opened without %n linked file(s) that could not be read:\n%1\n\n"
                 "Saving the session now leaves them out; put the files back and open it again to keep them.",
                 "", int(problems.size()))
                      .arg(problems.join(QLatin1Char('\n'))));
}

void SessionController::setPath(const QString &path)
{
    m_path = path;
    updateTitle();
}

QString SessionController::recoveryDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
            .filePath(QStringLiteral("recovery"));
}

QString SessionController::recoveryPath() const
{
    return m_recoveryPath;
}

void SessionController::claimRecoveryFile()
{
    // A random name rather than the process id: instances in other PID namespaces (Flatpak, containers
    // sharing a home folder) have the same few ids, and would write each other's files.
    QDir().mkpath(recoveryDir());
    for (int attempt = 0; attempt < 4; ++attempt) {
        const QString path = QDir(recoveryDir()).filePath(
                QStringLiteral("recovery-%1.crossroof").arg(QUuid::createUuid().toString(QUuid::Id128)));
        auto lock = std::make_unique<QLockFile>(lockPathOf(path));
        lock->setStaleLockTime(0); // only a gone owner makes a lock stale, never its age
        if (lock->tryLock(0)) {
            m_recoveryPath = path;
            m_recoveryLock = std::move(lock);
            return;
        }
        if (lock->error() != QLockFile::LockFailedError) {
            // The folder refuses the lock file; another name fares no better.
            m_recoveryProblem = lock->error() == QLockFile::PermissionError
                                        ? tr("the folder %1 cannot be written to")
                                        : tr("no lock file can be made in %1");
            m_recoveryProblem = m_recoveryProblem.arg(QDir::toNativeSeparators(recoveryDir()));
            return;
        }
    }
    m_recoveryProblem = tr("every name tried in %1 is locked by another instance")
                                .arg(QDir::toNativeSeparators(recoveryDir()));
}

QString SessionController::recoverableFile() const
{
    const QFileInfoList orphans = orphanedRecoveryFiles(m_recoveryPath);
    return orphans.isEmpty() ? QString() : orphans.front().absoluteFilePath(); // newest first
}

void SessionController::autosave()
{
    if (!m_window->isWindowModified())
        return;
    if (m_recoveryPath.isEmpty()) {
        // No recovery file of its own could be locked: writing one that another instance may own would
        // lose its work, so there is none, and the user hears so once.
        if (!m_autosaveFailed)
            showError(m_window, tr("Autosave is off: %1. The unsaved work is not protected against a crash; "
                                   "save the session to keep it.")
                                        .arg(m_recoveryProblem));
        m_autosaveFailed = true;
        return;
    }
    QDir().mkpath(recoveryDir());
    QString why = saveSessionTo(capture(), m_recoveryPath);
    // Beside it, the session file this is unsaved work on, so that a restored session saves back there.
    const QString origin = originPathOf(m_recoveryPath);
    if (why.isEmpty() && !m_path.isEmpty())
        why = widgets::saveFileAtomically(origin, QByteArray::fromStdString(widgets::nativePath(m_path)));
    else if (why.isEmpty())
        QFile::remove(origin);
    // A failed autosave leaves the last recovery file as it was; the user hears of it once, not every minute,
    // and again only after an autosave has worked in between.
    if (!why.isEmpty() && !m_autosaveFailed)
        showError(m_window, tr("Autosave failed: %1: %2. The unsaved work is not protected against a crash; "
                               "save the session to keep it.")
                                    .arg(QDir::toNativeSeparators(m_recoveryPath), why));
    m_autosaveFailed = !why.isEmpty();
}

void SessionController::offerRecovery()
{
    const QString newest = recoverableFile();
    if (newest.isEmpty())
        return;
    // A session named on the command line is what the user asked for: the work of a gone instance is offered
    // over it only when it is unsaved work on that same session. Other work stays for a start without a file.
    QString origin;
    if (QFile file(originPathOf(newest)); file.open(QIODevice::ReadOnly))
        origin = widgets::pathFromNative(file.readAll().toStdString());
    const bool sameSession = !m_path.isEmpty() && !origin.isEmpty()
                             && QFileInfo(origin).canonicalFilePath() == QFileInfo(m_path).canonicalFilePath();
    if (!m_path.isEmpty() && !sameSession) {
        m_window->statusBar()->showMessage(tr("Unsaved work from a run that did not close normally is kept: "
                                              "start Crossroof without a file to restore it."),
                                           15000);
        return;
    }
    const QString when = QLocale().toString(QFileInfo(newest).lastModified(), QLocale::ShortFormat);
    const QString question
            = sameSession ? tr("Crossroof did not close normally. Restore the unsaved changes to %1 autosaved "
                               "at %2?")
                                    .arg(QFileInfo(m_path).fileName(), when)
                          : tr("Crossroof did not close normally. Restore the unsaved analysis autosaved at %1?")
                                    .arg(when);
    const auto answer = QMessageBox::question(m_window, tr("Restore Unsaved Work"), question,
                                              QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        restore(newest);
    // Restored or declined, the work of gone instances has been offered; what was restored is this window's
    // now and goes to its own recovery file.
    for (const QFileInfo &orphan : orphanedRecoveryFiles(m_recoveryPath))
        removeRecoveryFile(orphan.absoluteFilePath());
}

bool SessionController::restore(const QString &recoveryFile)
{
    const QByteArray native = QFile::encodeName(recoveryFile);
    std::optional<core::Session> read = readSession(std::string(native.constData(), std::size_t(native.size())),
                                                    QFileInfo(recoveryFile).fileName(),
                                                    tr("The recovery file could not be read:"));
    if (!read)
        return false;
    core::Session session = std::move(*read);
    // The session it was unsaved work on, if it had been saved or opened: Save writes there again, and a
    // profile of its own is named after it rather than after the recovery file.
    QFile origin(originPathOf(recoveryFile));
    const QString path
            = origin.open(QIODevice::ReadOnly) ? widgets::pathFromNative(origin.readAll().toStdString()) : QString();
    session.profile.origin = "session " + (path.isEmpty() ? tr("recovered work") : path).toStdString();
    const std::vector<std::string> traceProblems = session.trace_problems;
    const QStringList problems = apply(std::move(session));
    setPath(path);
    m_window->setWindowModified(true);
    reportTraceProblems(traceProblems, problems);
    return true;
}

void SessionController::openInteractively()
{
    if (!maybeSave())
        return;
    const QString path = openFileName(m_window, FileKind::Data, tr("Open Session"),
                                      tr("Crossroof sessions (*.crossroof);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void SessionController::saveInteractively(bool askForName)
{
    QString path = m_path;
    if (askForName || path.isEmpty()) {
        path = saveFileName(m_window, FileKind::Data, tr("Save Session"),
                            path.isEmpty() ? QStringLiteral("analysis.crossroof") : QFileInfo(path).fileName(),
                            tr("Crossroof sessions (*.crossroof)"), QStringLiteral("crossroof"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty()) // a chooser set for a scripted run answers as it likes
            path += QStringLiteral(".crossroof");
    }
    save(path);
}

bool SessionController::maybeSave()
{
    if (!m_window->isWindowModified())
        return true;
    const auto answer = QMessageBox::warning(
            m_window, tr("Unsaved Changes"), tr("The analysis has unsaved changes. Save them first?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        saveInteractively(false);
        return !m_window->isWindowModified();
    }
    return true;
}

bool SessionController::mayClose()
{
    if (!maybeSave())
        return false;
    removeRecoveryFile(m_recoveryPath);
    return true;
}

} // namespace crossroof::app
