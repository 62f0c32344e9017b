// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"
#include "session/session.h"

#include <QMainWindow>

class QMenu;
class QTimer;

class QCustomPlot;
class QTabWidget;

namespace crossroof::widgets {
class ParameterPanel;
class MarkovView;
class MappingView;
class BandwidthView;
class KernelTableView;
class RooflineView;
class OccupancyState;
class TraceOverlay;
class TraceState;
class TracesPanel;
class StabilityView;
class OccupancyView;
class ParameterState;
class ProfilePicker;
class ReadoutPanel;
class XGraphView;
class XModelEvaluation;
class ZigzagView;
} // namespace crossroof::widgets

namespace crossroof::app {

/// Assembles the state, the docks, the views and the menus. Views talk only to the state.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

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
    widgets::TracesPanel *tracesPanel() const { return m_tracesPanel; }
    widgets::BandwidthView *bandwidthView() const { return m_bandwidth; }
    widgets::KernelTableView *kernelTable() const { return m_kernels; }
    widgets::RooflineView *rooflineView() const { return m_roofline; }

    /// Opens a profile file; on failure shows the validation message and keeps the current profile.
    bool openProfileFile(const QString &path);
    /// Selects a bundled profile by id or opens a file path; false (with a message) if neither works.
    bool selectProfile(const QString &idOrPath);
    /// Brings a view to the front by name: xgraph, occupancy or zigzag. False for an unknown name.
    bool showView(const QString &name);
    /// The names showView() accepts.
    static QStringList viewNames();
    /// The name of the view in front.
    QString currentViewName() const;
    /// The plots a figure of the named view shows (empty for an unknown name).
    QList<QCustomPlot *> figurePlots(const QString &view) const;
    /// Exports every view into DIRECTORY as crossroof-<view>.<suffix>; returns the errors (empty: all written).
    QStringList exportAllViews(const QString &directory, const QString &suffix, const widgets::FigureOptions &options);

    /// The whole analysis as a session: profile, parameters, view settings.
    core::Session captureSession() const;
    /// Replaces the whole analysis with a session's (clears the undo history).
    void applySession(const core::Session &session);
    /// Writes the session atomically; on failure says why and leaves any existing file untouched.
    bool saveSession(const QString &path);
    /// Opens a session; on failure says why (file, field) and keeps the current analysis. A linked trace
    /// whose file cannot be read is left out, and a message names it; the rest of the session opens.
    bool openSession(const QString &path);
    /// File > Save Traces as Links to Their Files: saved with the session, off (embedded) by default.
    QAction *linkTracesAction() const { return m_linkTraces; }
    QString sessionPath() const { return m_sessionPath; }
    /// Where the autosave (every minute while there are unsaved changes) goes.
    static QString recoveryPath();
    /// Writes the recovery file now if there are unsaved changes (the autosave timer calls this).
    void autosave();
    /// After a crash: offers to restore the recovery file. Call once the window is shown.
    void offerRecovery();
    static QStringList recentSessions();

private:
    void createMenus();
    void exportFigureInteractively();
    void exportAllInteractively();
    void exportDataInteractively();
    void copyFigure();
    void markModified();
    void setSessionPath(const QString &path);
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    bool maybeSave();
    void saveInteractively(bool askForName);
    void closeEvent(QCloseEvent *event) override;
    void updateTitle();
    /// Gives the Markov and mapping views the CPU profiles with mapping strategies: the bundled ones and the
    /// current profile when it has a topology.
    void updateCpuProfiles();
    void showError(const QString &message);
    /// Tells the user which linked traces of SESSION could not be read (if any).
    void reportTraceProblems(const core::Session &session);

    QTabWidget *m_tabs;
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
    widgets::TracesPanel *m_tracesPanel;
    widgets::BandwidthView *m_bandwidth;
    widgets::KernelTableView *m_kernels;
    widgets::RooflineView *m_roofline;
    QString m_sessionPath;
    QMenu *m_recentMenu = nullptr;
    QAction *m_linkTraces = nullptr;
    QTimer *m_autosave;
    bool m_applying = false; ///< applying a session: its changes are not the user's
};

} // namespace crossroof::app
