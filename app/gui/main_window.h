// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export_controller.h"
#include "import_controller.h"
#include "recent_files.h"
#include "session_controller.h"
#include "side_by_side.h"
#include "tab_messages.h"
#include "view_tabs.h"
#include "window_layout.h"

#include <QMainWindow>

class QDockWidget;

namespace crossroof::widgets {
class AnalysisDocument;
class BandwidthView;
class KernelState;
class KernelTableView;
class LevelsView;
class RooflineView;
class PredictionView;
class ExtrapolatePanel;
class SkeletonView;
class MappingView;
class MarkovView;
class OccupancyState;
class OccupancyView;
class ParameterPanel;
class ParameterState;
class ProfilePicker;
class ReadoutPanel;
class StabilityView;
class TraceState;
class TracesPanel;
class XGraphView;
class XModelEvaluation;
class ZigzagView;
} // namespace crossroof::widgets

namespace crossroof::app {

/// Assembles the state, the docks, the views and the menus. Views talk only to the state; sessions, export
/// and import are the controllers'.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Every input of the analysis; the views edit and draw its parts.
    widgets::AnalysisDocument *document() const { return m_document; }
    widgets::ParameterState *state() const { return m_state; }
    widgets::ParameterPanel *parameterPanel() const { return m_panel; }
    widgets::XGraphView *xgraphView() const { return m_xgraph; }
    widgets::ReadoutPanel *readout() const { return m_readout; }
    widgets::ProfilePicker *profilePicker() const { return m_picker; }
    widgets::OccupancyState *occupancyState() const { return m_occupancy; }
    widgets::OccupancyView *occupancyView() const { return m_occupancyView; }
    widgets::ZigzagView *zigzagView() const { return m_zigzag; }
    widgets::MarkovView *markovView() const { return m_markov; }
    widgets::MappingView *mappingView() const { return m_mapping; }
    widgets::StabilityView *stabilityView() const { return m_stability; }
    widgets::TraceState *traceState() const { return m_traces; }
    widgets::KernelState *kernelState() const { return m_kernelState; }
    widgets::TracesPanel *tracesPanel() const { return m_tracesPanel; }
    widgets::BandwidthView *bandwidthView() const { return m_bandwidth; }
    widgets::KernelTableView *kernelTable() const { return m_kernels; }
    widgets::RooflineView *rooflineView() const { return m_roofline; }
    widgets::PredictionView *predictionView() const { return m_prediction; }
    widgets::SkeletonView *skeletonView() const { return m_skeleton; }
    widgets::LevelsView *levelsView() const { return m_levels; }
    widgets::ExtrapolatePanel *extrapolatePanel() const { return m_extrapolate; }
    SessionController *sessions() const { return m_sessions; }
    ExportController *exporter() const { return m_export; }
    ImportController *importer() const { return m_import; }
    /// View > Side by Side: the X-graph, stability and occupancy views at once.
    SideBySide *sideBySide() const { return m_sideBySide; }
    /// The window's size and dock layout, saved on close; View > Reset Layout.
    WindowLayout *windowLayout() const { return m_layout; }
    /// The views' status bar messages, each shown while its view is in front.
    TabMessages *tabMessages() const { return m_messages; }

    // The views by name; see ViewTabs. Showing a view that Side by Side leaves out goes back to the tabs.
    bool showView(const QString &name);
    static QStringList viewNames() { return ViewTabs::names(); }
    QString currentViewName() const { return m_tabs->currentName(); }
    QList<QCustomPlot *> figurePlots(const QString &view) const { return m_tabs->figurePlots(view); }
    /// The name of the view that holds WIDGET, as viewNames() gives it (empty if none does).
    QString viewHolding(const QWidget *widget) const { return m_tabs->nameOf(widget); }
    /// Waits until the named view has finished its background work, as a figure of it needs.
    void settleView(const QString &view) const { m_tabs->settle(view); }
    /// Why the named view has nothing to draw (what its empty panel says, e.g. "No training data yet."), or
    /// an empty string when it has something.
    QString nothingToDraw(const QString &view) const;

    // The controllers' work, as the command line and the tests ask for it.
    bool openProfileFile(const QString &path) { return m_import->openProfileFile(path); }
    bool selectProfile(const QString &idOrPath) { return m_import->selectProfile(idOrPath); }
    core::Session captureSession() const { return m_sessions->capture(); }
    QStringList applySession(core::Session session) { return m_sessions->apply(std::move(session)); }
    bool newSession() { return m_sessions->newSession(); }
    bool saveSession(const QString &path) { return m_sessions->save(path); }
    bool openSession(const QString &path) { return m_sessions->open(path); }
    QAction *linkTracesAction() const { return m_sessions->linkTracesAction(); }
    QString recoveryPath() const { return m_sessions->recoveryPath(); }
    QString recoverableFile() const { return m_sessions->recoverableFile(); }
    void autosave() { m_sessions->autosave(); }
    void offerRecovery() { m_sessions->offerRecovery(); }
    static QStringList recentSessions() { return RecentFiles::paths(); }

private:
    void createMenus(QList<QAction *> dockActions);
    /// Gives the Markov and mapping views the CPU profiles with mapping strategies (see cpuProfiles()).
    void updateCpuProfiles();
    void closeEvent(QCloseEvent *event) override;

    ViewTabs *m_tabs;
    widgets::AnalysisDocument *m_document;
    widgets::ParameterState *m_state;
    widgets::XModelEvaluation *m_eval;
    widgets::ParameterPanel *m_panel;
    widgets::ProfilePicker *m_picker;
    widgets::XGraphView *m_xgraph;
    widgets::ReadoutPanel *m_readout;
    widgets::OccupancyState *m_occupancy;
    widgets::OccupancyView *m_occupancyView;
    widgets::ZigzagView *m_zigzag;
    widgets::MarkovView *m_markov;
    widgets::MappingView *m_mapping;
    widgets::StabilityView *m_stability;
    widgets::TraceState *m_traces;
    widgets::KernelState *m_kernelState;
    widgets::TracesPanel *m_tracesPanel;
    widgets::BandwidthView *m_bandwidth;
    widgets::KernelTableView *m_kernels;
    widgets::RooflineView *m_roofline;
    widgets::PredictionView *m_prediction;
    widgets::SkeletonView *m_skeleton;
    widgets::LevelsView *m_levels;
    widgets::ExtrapolatePanel *m_extrapolate;
    SessionController *m_sessions = nullptr;
    ExportController *m_export = nullptr;
    ImportController *m_import = nullptr;
    SideBySide *m_sideBySide = nullptr;
    WindowLayout *m_layout = nullptr;
    TabMessages *m_messages = nullptr;
    QDockWidget *m_paramDock = nullptr;
    QDockWidget *m_readoutDock = nullptr;
    QDockWidget *m_tracesDock = nullptr;
    QDockWidget *m_kernelsDock = nullptr;
};

} // namespace crossroof::app
