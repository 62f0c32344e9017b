// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "context_help.h"
#include "docks.h"
#include "help_menu.h"
#include "extrapolate_link.h"
#include "kernel_links.h"
#include "dialog_focus.h"
#include "undo_keys.h"

#include "bandwidth/bandwidth_view.h"
#include "common/empty_state.h"
#include "common/labelled.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "kernels/kernel_table_view.h"
#include "levels/levels_view.h"
#include "markov/cpu_profiles.h"
#include "common/vector_state.h"
#include "markov/extrapolate_panel.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "state/occupancy_state.h"
#include "occupancy/occupancy_view.h"
#include "kernels/prediction_view.h"
#include "state/analysis_document.h"
#include "state/kernel_state.h"
#include "roofline/roofline_view.h"
#include "skeleton/skeleton_view.h"
#include "stability/stability_view.h"
#include "traces/trace_overlay.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "xgraph/readout_panel.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QCloseEvent>
#include <QLabel>
#include <QTextDocumentFragment>
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QCoreApplication>
#include <QStyle>
#include <QUndoStack>
#include <QVBoxLayout>

namespace crossroof::app {

using namespace crossroof::widgets;

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new ViewTabs(this))
    , m_document(new AnalysisDocument(this))
    , m_state(m_document->parameters())
    , m_eval(new XModelEvaluation(m_state, this))
    , m_occupancy(m_document->occupancy())
    , m_traces(m_document->traces())
    , m_kernelState(m_document->kernels())
{
    // Every event handler of the application starts with clean vector registers (see vector_state.h).
    guardVectorState(QCoreApplication::instance());
    setWindowIcon(QIcon(QStringLiteral(":/icons/hicolor/256x256/apps/crossroof.png")));

    // Centre: one tab per view (view_tabs.cpp registers them), each editing its part of the document.
    const auto kernelsDone = [this] { m_kernelState->wait(); };
    m_xgraph = m_tabs->addView("xgraph", new XGraphView(m_eval, m_tabs), kernelsDone);
    m_stability = m_tabs->addView("stability", new StabilityView(m_state, m_tabs),
                                  [this] { m_stability->waitForMap(); });
    m_occupancyView = m_tabs->addView("occupancy", new OccupancyView(m_occupancy, m_tabs));
    m_zigzag = m_tabs->addView("zigzag", new ZigzagView(m_occupancy, m_tabs));
    m_markov = m_tabs->addView("markov", new MarkovView(m_tabs));
    m_mapping = m_tabs->addView("mapping", new MappingView(m_tabs));
    m_extrapolate = m_tabs->addView("extrapolate", new ExtrapolatePanel(m_tabs),
                                    [this] { m_extrapolate->waitForResult(); });
    m_bandwidth = m_tabs->addView("bandwidth", new BandwidthView(m_traces, m_tabs));
    m_roofline = m_tabs->addView("roofline", new RooflineView(m_kernelState, m_tabs), kernelsDone);
    m_roofline->setTraces(m_traces); // gpu-benches' measured rooflines with their ridges
    m_prediction = m_tabs->addView("prediction", new PredictionView(m_kernelState, m_tabs), kernelsDone);
    m_levels = m_tabs->addView("levels", new LevelsView(m_state, m_traces, m_tabs));
    m_skeleton = m_tabs->addView("skeleton", new SkeletonView(m_state, m_tabs));
    updateCpuProfiles();
    bindView(m_document->tmm(), m_zigzag);
    bindView(m_document->markov(), m_markov);
    bindView(m_document->mapping(), m_mapping);
    bindView(m_document->stability(), m_stability);
    bindView(m_document->roofline(), m_roofline);
    bindView(m_document->skeleton(), m_skeleton);
    bindView(m_document->extrapolate(), m_extrapolate);
    linkExtrapolationToMarkov(m_extrapolate, m_document->markov(), m_tabs);
    linkExtrapolationToMapping(m_extrapolate, m_mapping);

    // Measurements on the model's plots: f(k) traces and kernel points on the X-graph, runtimes on the zigzag.
    auto *xgraphTraces = new TraceOverlay(m_xgraph->plot(), m_traces, TraceOverlay::Target::XGraph, m_xgraph);
    xgraphTraces->setPrediction(TraceOverlay::xmodelPrediction(m_state));
    connect(m_eval, &XModelEvaluation::updated, xgraphTraces, &TraceOverlay::refresh);
    connect(m_traces, &TraceState::changed, m_xgraph, &XGraphView::refresh);
    m_xgraph->setTraceNames([this](const QString &id) {
        const core::MeasuredTrace *t = m_traces->trace(id);
        return t ? QString::fromStdString(t->name) : QString();
    });
    new TraceOverlay(m_zigzag->plot(), m_traces, TraceOverlay::Target::Zigzag, m_zigzag);
    // The centre: the tabs, or (View > Side by Side) the X-graph, stability and occupancy views at once.
    auto *centre = new QStackedWidget(this);
    centre->addWidget(m_tabs);
    setCentralWidget(centre);
    m_sideBySide = new SideBySide(m_tabs, centre, ViewTabs::sideBySideNames(), this);

    // Left: profile and parameters.
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 6, 0);
    m_picker = new ProfilePicker(m_state, left);
    addLabelled(leftLayout, tr("&Profile"), m_picker);
    m_panel = new ParameterPanel(m_state, left);
    leftLayout->addWidget(scrollable(m_panel), 1);
    auto *paramDock = m_paramDock
            = addDock(this, Qt::LeftDockWidgetArea, tr("Parameters"), QStringLiteral("ParametersDock"), left);
    // As narrow as the panel allows (its sliders shrink, its fields do not), with room for the scroll bar.
    paramDock->setMinimumWidth(m_panel->minimumSizeHint().width() + leftLayout->contentsMargins().left()
                               + leftLayout->contentsMargins().right()
                               + style()->pixelMetric(QStyle::PM_ScrollBarExtent));

    // Right: the readout.
    m_readout = new ReadoutPanel(m_eval, this);
    auto *readoutArea = scrollable(m_readout);
    auto *readoutDock = m_readoutDock
            = addDock(this, Qt::RightDockWidgetArea, tr("Readout"), QStringLiteral("ReadoutDock"), readoutArea);
    keepWideEnough(readoutArea, 260);

    // Measured traces: import, show or hide, calibrate.
    m_tracesPanel = new TracesPanel(m_traces, m_state, this);
    auto *tracesDock = m_tracesDock = addDock(this, Qt::RightDockWidgetArea, tr("Traces"),
                                              QStringLiteral("TracesDock"), m_tracesPanel);
    tabifyDockWidget(readoutDock, tracesDock);
    connect(m_traces, &TraceState::traceAdded, tracesDock, &QDockWidget::raise);
    connect(m_levels, &LevelsView::sweepImported, this, [this] { showView(QStringLiteral("levels")); });
    connect(m_tracesPanel, &TracesPanel::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 6000); });

    // Nsight Compute kernels: a table beside the traces, drawn on the roofline and ringed on the X-graph.
    m_kernels = new KernelTableView(m_kernelState, this);
    auto *kernelsDock = m_kernelsDock
            = addKernelsDock(this, tracesDock, m_kernels, {m_roofline, m_tracesPanel}, xgraphTraces, m_traces);
    // A selected kernel is ringed (after the line above): the X-graph fits the larger marker and draws the
    // levels.
    m_xgraph->setKernels(m_kernelState);
    connect(m_kernels, &KernelTableView::selectionChanged, m_xgraph, &XGraphView::setSelectedKernels);
    connect(m_kernels, &KernelTableView::selectionChanged, m_prediction, &PredictionView::setHighlighted);


    resize(1280, 800);
    readoutDock->raise(); // in front of the traces and kernels tabbed with it
    m_layout = new WindowLayout(this, [this] {
        resizeDocks({m_paramDock, m_readoutDock}, {320, 300}, Qt::Horizontal);
    });
    // Each dock with the views it means something to (viewSpecs()): the GPU parameters and the X-model's readout
    // leave the CPU views (Markov, Mapping, Extrapolate, Bandwidth), which have their inputs in the view.
    m_layout->setDockViews(paramDock, ViewTabs::namesWith(Dock::Parameters));
    m_layout->setDockViews(readoutDock, ViewTabs::namesWith(Dock::Readout));
    m_layout->setDockViews(tracesDock, ViewTabs::namesWith(Dock::Traces));
    m_layout->setDockViews(kernelsDock, ViewTabs::namesWith(Dock::Kernels));
    const auto showFront = [this] {
        m_layout->showFront(m_sideBySide->isActive() ? m_sideBySide->names() : QStringList{currentViewName()});
    };
    connect(m_tabs, &QTabWidget::currentChanged, this, showFront);
    connect(m_sideBySide, &SideBySide::activeChanged, this, showFront);
    showFront();
    // Side by Side brings the readout forward (after its docks come back): it reads what the three views show.
    connect(m_sideBySide, &SideBySide::activeChanged, readoutDock, [readoutDock](bool active) {
        if (active)
            readoutDock->raise();
    });

    m_sessions = new SessionController(this);
    m_export = new ExportController(this);
    m_import = new ImportController(this);
    createMenus({paramDock->toggleViewAction(), readoutDock->toggleViewAction(), tracesDock->toggleViewAction(),
                 kernelsDock->toggleViewAction()});

    // What a view says shows while it is in front, and only then (tab_messages.h).
    m_messages = new TabMessages(
            statusBar(),
            [this](const QString &view) {
                return m_sideBySide->isActive() ? m_sideBySide->names().contains(view) : currentViewName() == view;
            },
            this);
    connect(m_tabs, &QTabWidget::currentChanged, m_messages, &TabMessages::switched);
    connect(m_sideBySide, &SideBySide::activeChanged, m_messages, &TabMessages::switched);
    connect(m_xgraph, &XGraphView::hoverTextChanged, m_messages,
            [this](const QString &text) { m_messages->show(QStringLiteral("xgraph"), text); });
    connect(m_xgraph, &XGraphView::dataNoticeChanged, m_messages,
            [this](const QString &text) { m_messages->show(QStringLiteral("xgraph"), text, 10000); });
    connect(m_markov, &MarkovView::hoverTextChanged, m_messages,
            [this](const QString &text) { m_messages->show(QStringLiteral("markov"), text); });
    connect(m_stability, &StabilityView::hoverTextChanged, m_messages,
            [this](const QString &text) { m_messages->show(QStringLiteral("stability"), text); });
    // Compare on X-graph: the what-if is drawn there, so the X-graph comes to the front (unless it is beside the
    // advisor already) with the what-if's operating point in the status bar.
    connect(m_stability, &StabilityView::comparisonShown, this, [this](const QString &text) {
        const QString xgraph = QStringLiteral("xgraph");
        if (!(m_sideBySide->isActive() && m_sideBySide->names().contains(xgraph)))
            showView(xgraph);
        m_messages->show(xgraph, text, 15000);
    });
    connect(m_state, &ParameterState::profileChanged, this, &MainWindow::updateCpuProfiles);
    m_document->trackUndo();
    showUndoneInputs(this);
    routeUndoKeysToTheWindow(this);
    focusFirstFieldOfDialogs(this);
    statusBar()->showMessage(tr("Drag a slider; hover the graph to see each curve's formula."), 8000);
    m_sideBySide->setActive(SideBySide::remembered());
}

bool MainWindow::showView(const QString &name)
{
    if (m_sideBySide->isActive() && ViewTabs::names().contains(name) && !m_sideBySide->names().contains(name))
        m_sideBySide->setActive(false);
    return m_tabs->showView(name);
}

MainWindow::~MainWindow()
{
    // The undo stack, destroyed with the state, says it is clean again: not to a window half destroyed.
    m_state->undoStack()->disconnect(m_sessions);
}

QString MainWindow::nothingToDraw(const QString &view) const
{
    // A plot covered by its empty panel draws nothing; the panel's first paragraph says what is missing.
    for (const QCustomPlot *plot : figurePlots(view)) {
        for (const EmptyState *empty : plot->findChildren<EmptyState *>(Qt::FindDirectChildrenOnly)) {
            if (!empty->isHidden())
                return QTextDocumentFragment::fromHtml(empty->label()->text()).toPlainText().section(QLatin1Char('\n'), 0, 0);
        }
    }
    return {};
}

void MainWindow::createMenus(QList<QAction *> dockActions)
{
    auto *file = menuBar()->addMenu(tr("&File"));
    m_sessions->addActionsTo(file);
    file->addSeparator();
    m_import->addActionsTo(file);
    file->addSeparator();
    m_export->addActionsTo(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    auto *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_state->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_state->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addAction(m_export->copyAction());
    edit->addSeparator();
    auto *reset = edit->addAction(tr("Reset to &Profile"), m_state, &ParameterState::applyResetToProfile);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));

    auto *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_sideBySide->action());
    view->addSeparator();
    view->addActions(dockActions);
    view->addSeparator();
    view->addAction(m_layout->resetAction());
    addHelpMenu(this);
    addContextHelp(m_tabs, {{QStringLiteral("readout"), m_readout}, {QStringLiteral("traces"), m_tracesPanel},
                            {QStringLiteral("kernels"), m_kernels}, {QStringLiteral("parameters"), m_panel}});
}

void MainWindow::updateCpuProfiles()
{
    const auto cpus = cpuProfiles(m_state->profile());
    m_markov->setCpuProfiles(cpus);
    m_mapping->setCpuProfiles(cpus);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    event->setAccepted(m_sessions->mayClose());
    if (event->isAccepted())
        m_layout->save();
}

} // namespace crossroof::app
