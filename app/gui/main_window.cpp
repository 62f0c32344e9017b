// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "export/export_dialog.h"
#include "bandwidth/bandwidth_view.h"
#include "calibration/family_calibration_dialog.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "occupancy/occupancy_state.h"
#include "occupancy/occupancy_view.h"
#include "stability/stability_view.h"
#include "traces/trace_overlay.h"
#include "traces/trace_state.h"
#include "traces/traces_panel.h"
#include "zigzag/zigzag_view.h"

#include "support/error.h"
#include "profiles/profile_library.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "xgraph/readout_panel.h"
#include "common/settings_undo.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <QApplication>
#include <QCloseEvent>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QClipboard>
#include <QDir>
#include <QSettings>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace crossroof::app {

using namespace crossroof::widgets;

namespace {

/// A view in a tab: it scrolls instead of forcing the window wider when the docks leave too little room, so
/// one wide view never makes the whole window larger than the screen.
QScrollArea *scrollable(QWidget *view)
{
    auto *area = new QScrollArea;
    area->setWidget(view);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_state(new ParameterState(this))
    , m_eval(new XModelEvaluation(m_state, this))
    , m_occupancy(new OccupancyState(m_state, this))
    , m_traces(new TraceState(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/hicolor/256x256/apps/crossroof.png")));

    // Centre: one tab per view.
    QTabWidget *tabs = m_tabs;
    tabs->setDocumentMode(true);
    m_xgraph = new XGraphView(m_eval, tabs);
    tabs->addTab(scrollable(m_xgraph), tr("&X-graph"));
    m_stability = new StabilityView(m_state, tabs);
    tabs->addTab(scrollable(m_stability), tr("S&tability"));
    m_occupancyView = new OccupancyView(m_occupancy, tabs);
    tabs->addTab(scrollable(m_occupancyView), tr("&Occupancy"));
    m_zigzag = new ZigzagView(m_occupancy, tabs);
    tabs->addTab(scrollable(m_zigzag), tr("&Zigzag"));
    m_markov = new MarkovView(tabs);
    tabs->addTab(scrollable(m_markov), tr("&Markov CPI"));
    m_mapping = new MappingView(tabs);
    tabs->addTab(scrollable(m_mapping), tr("Ma&pping"));
    updateCpuProfiles();
    m_bandwidth = new BandwidthView(m_traces, tabs);
    tabs->addTab(scrollable(m_bandwidth), tr("&Bandwidth"));

    // Measurements on the model's plots: f(k) traces and kernel points on the X-graph, runtimes on the zigzag.
    auto *xgraphTraces = new TraceOverlay(m_xgraph->plot(), m_traces, TraceOverlay::Target::XGraph, m_xgraph);
    xgraphTraces->setPrediction(TraceOverlay::xmodelPrediction(m_state));
    connect(m_eval, &XModelEvaluation::updated, xgraphTraces, &TraceOverlay::refresh);
    connect(m_traces, &TraceState::changed, m_xgraph, &XGraphView::refresh);
    new TraceOverlay(m_zigzag->plot(), m_traces, TraceOverlay::Target::Zigzag, m_zigzag);
    setCentralWidget(tabs);

    // Left: profile and parameters.
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 6, 0);
    auto *profileLabel = new QLabel(tr("&Profile"), left);
    m_picker = new ProfilePicker(m_state, left);
    profileLabel->setBuddy(m_picker);
    leftLayout->addWidget(profileLabel);
    leftLayout->addWidget(m_picker);
    m_panel = new ParameterPanel(m_state, left);
    auto *scroll = new QScrollArea(left);
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftLayout->addWidget(scroll, 1);
    auto *paramDock = new QDockWidget(tr("Parameters"), this);
    paramDock->setObjectName(QStringLiteral("ParametersDock"));
    paramDock->setWidget(left);
    paramDock->setMinimumWidth(340);
    addDockWidget(Qt::LeftDockWidgetArea, paramDock);

    // Right: the readout.
    m_readout = new ReadoutPanel(m_eval, this);
    auto *readoutScroll = new QScrollArea(this);
    readoutScroll->setWidget(m_readout);
    readoutScroll->setWidgetResizable(true);
    readoutScroll->setFrameShape(QFrame::NoFrame);
    readoutScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *readoutDock = new QDockWidget(tr("Readout"), this);
    readoutDock->setObjectName(QStringLiteral("ReadoutDock"));
    readoutDock->setWidget(readoutScroll);
    readoutDock->setMinimumWidth(320);
    addDockWidget(Qt::RightDockWidgetArea, readoutDock);

    // Measured traces: import, show or hide, calibrate.
    m_tracesPanel = new TracesPanel(m_traces, m_state, this);
    auto *tracesDock = new QDockWidget(tr("Traces"), this);
    tracesDock->setObjectName(QStringLiteral("TracesDock"));
    tracesDock->setWidget(m_tracesPanel);
    addDockWidget(Qt::RightDockWidgetArea, tracesDock);
    tabifyDockWidget(readoutDock, tracesDock);
    readoutDock->raise();
    connect(m_traces, &TraceState::traceAdded, tracesDock, &QDockWidget::raise);
    connect(m_tracesPanel, &TracesPanel::message, this, [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(m_traces, &TraceState::changed, this, &MainWindow::markModified);

    // Each view shows the docks it uses, like an IDE's perspectives: the readout describes the X-graph, the
    // parameters drive the X-graph and (through the link) the occupancy views; the Markov view needs neither.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, paramDock, readoutDock, tracesDock](int index) {
        const QWidget *view = qobject_cast<QScrollArea *>(m_tabs->widget(index))->widget();
        readoutDock->setVisible(view == m_xgraph);
        paramDock->setVisible(view != m_markov && view != m_mapping && view != m_bandwidth);
        tracesDock->setVisible(view == m_xgraph || view == m_zigzag || view == m_bandwidth);
    });

    createMenus();
    auto *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(paramDock->toggleViewAction());
    viewMenu->addAction(readoutDock->toggleViewAction());
    viewMenu->addAction(tracesDock->toggleViewAction());
    auto *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Crossroof"), this, [this] {
        QMessageBox::about(this, tr("About Crossroof"),
                           tr("<h3>Crossroof %1</h3><p>A visual analyzer for analytic performance models of "
                              "parallel machines: X-graphs (Li et al., the X-model) with equilibria, "
                              "stability and landmarks.</p><p>Licensed under the GNU GPL, version 3 or later.</p>")
                               .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    auto showHover = [this](const QString &text) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text);
    };
    connect(m_xgraph, &XGraphView::hoverTextChanged, this, showHover);
    connect(m_markov, &MarkovView::hoverTextChanged, this, showHover);
    connect(m_stability, &StabilityView::hoverTextChanged, this, showHover);
    connect(m_state, &ParameterState::profileChanged, this, &MainWindow::updateTitle);
    connect(m_state, &ParameterState::changed, this, &MainWindow::markModified);
    connect(m_occupancy, &OccupancyState::changed, this, &MainWindow::markModified);
    connect(m_zigzag, &ZigzagView::settingsChanged, this, &MainWindow::markModified);
    connect(m_markov, &MarkovView::settingsChanged, this, &MainWindow::markModified);
    connect(m_mapping, &MappingView::settingsChanged, this, &MainWindow::markModified);
    connect(m_state, &ParameterState::profileChanged, this, &MainWindow::updateCpuProfiles);
    connect(m_stability, &StabilityView::settingsChanged, this, &MainWindow::markModified);
    // The views' inputs are undone on the parameters' stack, through the Edit menu, one gesture a step.
    auto *viewUndo = new SettingsUndo(m_state->undoStack(), this);
    const int occupancyInputs = viewUndo->track(m_occupancy, &OccupancyState::undoSnapshot,
                                                &OccupancyState::restoreUndoSnapshot,
                                                &OccupancyState::settingsChanged, tr("occupancy inputs"));
    // What a profile switch does to the SM count, or a parameter change to n, is undone with it.
    viewUndo->resyncOn(occupancyInputs, m_occupancy, &OccupancyState::changed);
    viewUndo->resyncOn(occupancyInputs, m_state, &ParameterState::changed);
    viewUndo->track(m_zigzag, &ZigzagView::settings, &ZigzagView::setSettings, &ZigzagView::settingsChanged,
                    tr("TMM inputs"));
    const int markovInputs = viewUndo->track(m_markov, &MarkovView::settings, &MarkovView::setSettings,
                                             &MarkovView::settingsChanged, tr("Markov CPI inputs"));
    const int mappingInputs = viewUndo->track(m_mapping, &MappingView::settings, &MappingView::setSettings,
                                              &MappingView::settingsChanged, tr("mapping inputs"));
    // A profile switch changes which CPU profiles these two offer; what that does is undone with the switch.
    viewUndo->resyncOn(markovInputs, m_state, &ParameterState::profileChanged);
    viewUndo->resyncOn(mappingInputs, m_state, &ParameterState::profileChanged);
    viewUndo->track(m_stability, &StabilityView::settings, &StabilityView::setSettings,
                    &StabilityView::settingsChanged, tr("stability map settings"));
    m_autosave = new QTimer(this);
    m_autosave->setInterval(60 * 1000);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosave);
    m_autosave->start();
    setWindowModified(false);
    statusBar()->showMessage(tr("Drag a slider; hover the graph to see each curve's formula."), 8000);
    updateTitle();
    resize(1280, 800);
    resizeDocks({paramDock, readoutDock}, {340, 330}, Qt::Horizontal);
}

void MainWindow::createMenus()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    auto *openSessionAction = file->addAction(tr("&Open Session…"), this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), QFileInfo(m_sessionPath).absolutePath(),
                                                          tr("Crossroof sessions (*.crossroof);;All files (*)"));
        if (!path.isEmpty())
            openSession(path);
    });
    openSessionAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    auto *save = file->addAction(tr("&Save Session"), this, [this] { saveInteractively(false); });
    save->setShortcut(QKeySequence::Save);
    auto *saveAs = file->addAction(tr("Save Session &As…"), this, [this] { saveInteractively(true); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    m_linkTraces = file->addAction(tr("Save Traces as &Links to Their Files"));
    m_linkTraces->setCheckable(true);
    m_linkTraces->setStatusTip(
            tr("Save each trace as the path of its file, relative to the session, and read it "
               "again on opening, instead of its points"));
    connect(m_linkTraces, &QAction::toggled, this, &MainWindow::markModified);
    file->addSeparator();
    auto *open = file->addAction(tr("Open &Profile…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Hardware Profile"), QString(),
                                                          tr("Hardware profiles (*.json);;All files (*)"));
        if (!path.isEmpty())
            openProfileFile(path);
    });
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    auto *importTrace = file->addAction(tr("&Import Trace…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import Measured Trace"), QString(),
            tr("Measurements (*.csv *.tsv *.txt);;All files (*)"));
        if (!path.isEmpty())
            m_tracesPanel->importFile(path);
    });
    importTrace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    importTrace->setStatusTip(tr("gpu-benches stream output, Nsight Compute --csv, perf stat -x, or any CSV/TSV"));
    // Whole-model calibration to a measured kernel family (widgets/calibration).
    auto *calibrateFamily = file->addAction(tr("Calibrate from &Kernel Family…"), this, [this] {
        auto *dialog = new FamilyCalibrationDialog(m_state, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &FamilyCalibrationDialog::message, this,
                [this](const QString &text) { statusBar()->showMessage(text, 6000); });
        dialog->show();
    });
    calibrateFamily->setStatusTip(tr("Fit R, L, M and L_c to a measured kernel family (n, Z, E, GB/s)"));
    file->addSeparator();
    auto *exportFigure = file->addAction(tr("&Export Figure…"), this, &MainWindow::exportFigureInteractively);
    exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportFigure->setStatusTip(tr("PDF, SVG or PNG of the current view at an exact size in mm"));
    file->addAction(tr("Export &All Views…"), this, &MainWindow::exportAllInteractively);
    file->addAction(tr("Export Plot &Data (CSV)…"), this, &MainWindow::exportDataInteractively);
    file->addSeparator();
    auto *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_state->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_state->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    auto *copy = edit->addAction(tr("&Copy Figure"), this, &MainWindow::copyFigure);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    edit->addSeparator();
    auto *reset = edit->addAction(tr("Reset to &Profile"), m_state, &ParameterState::applyResetToProfile);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
}

void MainWindow::updateTitle()
{
    // "[*]" is where Qt shows the modified mark.
    const QString name = m_sessionPath.isEmpty() ? QString::fromStdString(m_state->profile().name)
                                                 : QFileInfo(m_sessionPath).fileName();
    setWindowTitle(tr("%1[*] — Crossroof").arg(name));
}

void MainWindow::markModified()
{
    if (!m_applying)
        setWindowModified(true);
}

void MainWindow::updateCpuProfiles()
{
    std::vector<core::HardwareProfile> cpus;
    const core::HardwareProfile &current = m_state->profile();
    for (const auto &prof : core::bundledProfiles()) {
        if (prof.topology)
            cpus.push_back(prof);
    }
    // A profile opened from a file (or a session) may replace a bundled one of the same id.
    if (current.topology) {
        std::erase_if(cpus, [&](const core::HardwareProfile &p) { return p.id == current.id; });
        cpus.insert(cpus.begin(), current);
    }
    m_markov->setCpuProfiles(cpus);
    m_mapping->setCpuProfiles(cpus);
}

core::Session MainWindow::captureSession() const
{
    core::Session s;
    s.profile = m_state->profile();
    s.params = m_state->params();
    s.current_view = currentViewName().toStdString();
    s.occupancy = m_occupancy->settings();
    s.tmm = m_zigzag->settings();
    s.markov = m_markov->settings();
    s.mapping = m_mapping->settings();
    s.stability = m_stability->settings();
    s.traces = m_traces->traces();
    s.link_traces = m_linkTraces->isChecked();
    return s;
}

void MainWindow::applySession(const core::Session &s)
{
    m_applying = true;
    m_state->setProfile(s.profile, s.params);
    m_picker->addProfile(s.profile);
    m_occupancy->setSettings(s.occupancy);
    m_zigzag->setSettings(s.tmm);
    m_markov->setSettings(s.markov);
    m_mapping->setSettings(s.mapping);
    m_stability->setSettings(s.stability);
    m_traces->setTraces(s.traces);
    m_linkTraces->setChecked(s.link_traces);
    showView(QString::fromStdString(s.current_view));
    m_state->undoStack()->clear(); // after the views, whose new settings went onto it
    m_applying = false;
}

bool MainWindow::saveSession(const QString &path)
{
    const core::Session session = captureSession();
    const std::string text = core::sessionToJson(session, path.toStdString());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !file.commit()) {
        showError(tr("The session was not saved to %1: %2. The file on disk is unchanged.").arg(path, file.errorString()));
        return false;
    }
    setSessionPath(path);
    setWindowModified(false);
    m_state->undoStack()->setClean();
    QFile::remove(recoveryPath());
    addRecent(path);
    const auto embedded = std::count_if(session.traces.begin(), session.traces.end(),
                                        [&session](const auto &t) { return !core::savesAsLink(session, t); });
    if (session.link_traces && embedded > 0)
        statusBar()->showMessage(
                tr("Saved %1 with %n trace(s) embedded, not linked: their files are gone, or they came from "
                   "an older session",
                   "", int(embedded))
                        .arg(path),
                8000);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::openSession(const QString &path)
{
    core::Session session;
    try {
        session = core::loadSessionFile(path.toStdString());
    } catch (const core::InputError &e) {
        showError(tr("The session was not opened:\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
    applySession(session);
    setSessionPath(path);
    setWindowModified(false);
    addRecent(path);
    reportTraceProblems(session);
    return true;
}

void MainWindow::reportTraceProblems(const core::Session &session)
{
    if (session.trace_problems.empty())
        return;
    QStringList problems;
    for (const auto &p : session.trace_problems)
        problems << QString::fromStdString(p);
    // Not modified: the file keeps the links until the user saves over it.
    showError(tr("The session was opened without %n linked trace(s) whose file could not be read:\n%1\n\n"
                 "Saving the session now leaves them out; put the files back and open it again to keep them.",
                 "", int(problems.size()))
                      .arg(problems.join(QLatin1Char('\n'))));
}

void MainWindow::setSessionPath(const QString &path)
{
    m_sessionPath = path;
    updateTitle();
}

QString MainWindow::recoveryPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("recovery.crossroof"));
}

void MainWindow::autosave()
{
    if (!isWindowModified())
        return;
    QDir().mkpath(QFileInfo(recoveryPath()).absolutePath());
    const std::string text = core::sessionToJson(captureSession(), recoveryPath().toStdString());
    QSaveFile file(recoveryPath());
    if (file.open(QIODevice::WriteOnly) && file.write(text.data(), qint64(text.size())) == qint64(text.size()))
        file.commit();
}

void MainWindow::offerRecovery()
{
    const QFileInfo info(recoveryPath());
    if (!info.exists())
        return;
    const auto answer = QMessageBox::question(
        this, tr("Restore Unsaved Work"),
        tr("Crossroof did not close normally. Restore the unsaved analysis autosaved at %1?")
            .arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
    if (answer == QMessageBox::Yes) {
        try {
            const core::Session session = core::loadSessionFile(info.filePath().toStdString());
            applySession(session);
            setWindowModified(true);
            reportTraceProblems(session);
        } catch (const core::InputError &e) {
            showError(tr("The recovery file could not be read:\n%1").arg(QString::fromStdString(e.what())));
        }
    }
    QFile::remove(info.filePath());
}

QStringList MainWindow::recentSessions()
{
    return QSettings().value(QStringLiteral("recentSessions")).toStringList();
}

void MainWindow::addRecent(const QString &path)
{
    QStringList recent = recentSessions();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > 8)
        recent.removeLast();
    QSettings().setValue(QStringLiteral("recentSessions"), recent);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentSessions();
    for (const QString &path : recent) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (maybeSave())
                openSession(path);
        })->setStatusTip(path);
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::saveInteractively(bool askForName)
{
    QString path = m_sessionPath;
    if (askForName || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save Session"),
                                            path.isEmpty() ? QDir::home().filePath(QStringLiteral("analysis.crossroof")) : path,
                                            tr("Crossroof sessions (*.crossroof)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".crossroof");
    }
    saveSession(path);
}

bool MainWindow::maybeSave()
{
    if (!isWindowModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved Changes"),
                                             tr("The analysis has unsaved changes. Save them first?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                             QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        saveInteractively(false);
        return !isWindowModified();
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QFile::remove(recoveryPath()); // a clean exit leaves nothing to recover
    event->accept();
}

void MainWindow::showError(const QString &message)
{
    statusBar()->showMessage(message, 10000);
    // Window-modal but not blocking: the application (and a test driving it) keeps running.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Crossroof"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("ErrorMessage"));
    box->open();
}

QStringList MainWindow::viewNames()
{
    return {QStringLiteral("xgraph"), QStringLiteral("stability"), QStringLiteral("occupancy"), QStringLiteral("zigzag"),
            QStringLiteral("markov"), QStringLiteral("mapping"), QStringLiteral("bandwidth")};
}

bool MainWindow::showView(const QString &name)
{
    const int index = int(viewNames().indexOf(name));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index);
    return true;
}

QString MainWindow::currentViewName() const
{
    return viewNames().value(m_tabs->currentIndex());
}

QList<QCustomPlot *> MainWindow::figurePlots(const QString &view) const
{
    if (view == QLatin1String("xgraph"))
        return m_xgraph->figurePlots();
    if (view == QLatin1String("stability"))
        return m_stability->figurePlots();
    if (view == QLatin1String("occupancy"))
        return m_occupancyView->figurePlots();
    if (view == QLatin1String("zigzag"))
        return m_zigzag->figurePlots();
    if (view == QLatin1String("markov"))
        return m_markov->figurePlots();
    if (view == QLatin1String("mapping"))
        return m_mapping->figurePlots();
    if (view == QLatin1String("bandwidth"))
        return m_bandwidth->figurePlots();
    return {};
}

void MainWindow::exportFigureInteractively()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString();
    const QString suffix = settings.value(QStringLiteral("export/suffix"), QStringLiteral("pdf")).toString();
    ExportDialog dialog(QDir(dir).filePath(QStringLiteral("crossroof-%1.%2").arg(currentViewName(), suffix)), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureOptions options = dialog.options();
    ExportDialog::saveOptions(options);
    const QFileInfo info(dialog.path());
    settings.setValue(QStringLiteral("export/directory"), info.absolutePath());
    settings.setValue(QStringLiteral("export/suffix"), info.suffix().toLower());
    const QString error = widgets::exportFigure(figurePlots(currentViewName()), dialog.path(), options);
    if (!error.isEmpty())
        showError(tr("The figure was not exported: %1").arg(error));
    else
        statusBar()->showMessage(tr("Exported %1 (%2 × %3 mm)").arg(dialog.path()).arg(options.width_mm).arg(options.height_mm), 6000);
}

QStringList MainWindow::exportAllViews(const QString &directory, const QString &suffix, const FigureOptions &options)
{
    QStringList errors;
    for (const QString &view : viewNames()) {
        const QString path = QDir(directory).filePath(QStringLiteral("crossroof-%1.%2").arg(view, suffix));
        const QString error = widgets::exportFigure(figurePlots(view), path, options);
        if (!error.isEmpty())
            errors << error;
    }
    return errors;
}

void MainWindow::exportAllInteractively()
{
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Export All Views Into"), settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString());
    if (dir.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/directory"), dir);
    const QString suffix = settings.value(QStringLiteral("export/suffix"), QStringLiteral("pdf")).toString();
    const QStringList errors = exportAllViews(dir, suffix, ExportDialog::savedOptions());
    if (!errors.isEmpty())
        showError(tr("Some views were not exported:\n%1").arg(errors.join(QLatin1Char('\n'))));
    else
        statusBar()->showMessage(tr("Exported %1 views into %2 as .%3").arg(viewNames().size()).arg(dir, suffix), 6000);
}

void MainWindow::exportDataInteractively()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Plot Data"), QDir(dir).filePath(QStringLiteral("crossroof-%1.csv").arg(currentViewName())),
        tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = widgets::exportPlotData(figurePlots(currentViewName()), path);
    if (!error.isEmpty())
        showError(tr("The data were not exported: %1").arg(error));
    else
        statusBar()->showMessage(tr("Exported the plotted data to %1").arg(path), 6000);
}

void MainWindow::copyFigure()
{
    const QImage image = widgets::renderFigure(figurePlots(currentViewName()), ExportDialog::savedOptions());
    if (image.isNull()) {
        showError(tr("The figure could not be drawn with the saved export settings."));
        return;
    }
    QGuiApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Copied the figure (%1 × %2 px)").arg(image.width()).arg(image.height()), 4000);
}

bool MainWindow::openProfileFile(const QString &path)
{
    try {
        m_picker->addAndSelect(core::loadProfileFile(path.toStdString()));
        return true;
    } catch (const core::InputError &e) {
        showError(tr("The profile was not loaded:\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
}

bool MainWindow::selectProfile(const QString &idOrPath)
{
    if (m_picker->selectId(idOrPath))
        return true;
    if (idOrPath.contains(QLatin1Char('/')) || idOrPath.endsWith(QLatin1String(".json")))
        return openProfileFile(idOrPath);
    showError(tr("Unknown profile '%1'. Choose one from the Profile list or open a profile file.").arg(idOrPath));
    return false;
}

} // namespace crossroof::app
