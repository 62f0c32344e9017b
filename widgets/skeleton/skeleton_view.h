// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/skeleton/graph_layout.h"
#include "core/skeleton/skeleton_settings.h"
#include "core/skeleton/projection.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QCPItemText;
class QCustomPlot;
class QTabWidget;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;
class QTimer;

namespace crossroof::widgets {

class GanttBoxes;
class GraphLinks;
class ParameterState;
class SkeletonEvaluation;

/// Code skeletons (MODEL.md 8; the SKOPE/KNL paper): an editor for the skeleton, projected on the core model
/// of a CPU profile once typing pauses (kEditPauseMs after the last keystroke, so that a skeleton of thousands
/// of statements, which takes half a second to project, does not hold up every key), and at once when the
/// text is set, a sample is chosen or the profile or unroll factor changes. Shows the dependency graph with its critical path, the schedule as a Gantt
/// chart by cycle and pipeline at the chosen unroll factor, and cycles per iteration against the unroll factor
/// with the best one marked. While the text does not parse, the last good projection stays, marked stale on
/// every plot, and the error
/// (line and column) is shown under the editor and every plot is marked stale. "Use in X-graph" sets the skeleton's Z and E on the shared
/// parameters as one undo step.
class SkeletonView : public QWidget
{
    Q_OBJECT
public:
    explicit SkeletonView(ParameterState *state, QWidget *parent = nullptr);

    /// How long the editor waits after an edit before it projects the text.
    static constexpr int kEditPauseMs = 300;

    void setText(const QString &text);
    QString text() const;
    /// Puts the bundled sample NAME (e.g. "haccmk.skel") in the editor; false for an unknown name.
    bool loadSample(const QString &name);
    /// The sample a new view shows.
    static QString defaultSample() { return QStringLiteral("haccmk.skel"); }
    /// Selects the core model of the profile ID (one with a core_model); false if there is none.
    bool setProfile(const QString &id);
    QString profileId() const;
    /// The unroll factor the Gantt chart and Z and E use (1..16).
    void setUnroll(int factor);
    int unroll() const;

    /// What a session saves: the text, the profile and the unroll factor.
    core::SkeletonSettings settings() const;
    /// Restores them; a settings' text of none is the default sample, an unknown profile keeps the current.
    void setSettings(const core::SkeletonSettings &settings);

    /// The last projection that parsed, or none before the first.
    const std::optional<core::SkeletonProjection> &projection() const;
    const std::optional<core::SkeletonWorkload> &workload() const;
    /// The parse error of the current text, empty when it parses.
    const QString &error() const;
    /// The projection, schedule and workload, computed from the view's text, profile and unroll factor.
    SkeletonEvaluation *evaluation() const { return m_eval; }
    /// Sets Z (when the skeleton has memory statements) and E on the parameters, one undo step; the text
    /// typed last is projected first. Refused, with the reason in useNote(), while the text does not parse or
    /// the X-graph's profile is not a CPU; useNote() says what was set where.
    void useInXGraph();
    QLabel *useNote() const { return m_useNote; }
    /// Whether the plots show the last projection that parsed, not the text in the editor (each says so).
    bool isStale() const { return !m_staleMarks.isEmpty(); }
    /// Whether an edit waits for typing to pause before it is projected.
    bool editPending() const;

    QCustomPlot *graphPlot() const { return m_graphPlot; }
    QCustomPlot *ganttPlot() const { return m_ganttPlot; }
    QCustomPlot *unrollPlot() const { return m_unrollPlot; }
    /// The schedule chart's boxes: the statements off the critical path, then those on it.
    QList<GanttBoxes *> ganttBoxes() const { return {m_ganttBoxes, m_ganttCritical}; }
    /// The graph's edges off and on the critical path, and its nodes' dots off and on it.
    QList<GraphLinks *> graphLinks() const { return {m_edges, m_criticalEdges, m_dots, m_criticalDots}; }
    QList<QCustomPlot *> figurePlots() const { return {m_graphPlot, m_ganttPlot, m_unrollPlot}; }
    QPlainTextEdit *editor() const { return m_editor; }
    QLabel *errorLabel() const { return m_errorLabel; }
    QLabel *readout() const { return m_readout; }
    /// One row per unroll factor: projected cycles of the nest, the measured cycles the user types, the error.
    QTableWidget *measuredTable() const { return m_table; }
    /// Columns of measuredTable().
    enum MeasuredColumn { FactorColumn, ProjectedColumn, MeasuredColumn, ErrorColumn };
    /// The measured cycles typed so far, (unroll factor, cycles of the nest), by factor.
    std::vector<std::pair<int, double>> measured() const;
    void setMeasured(const std::vector<std::pair<int, double>> &measured);
    QPushButton *useButton() const { return m_use; }

Q_SIGNALS:
    /// The text, the profile or the unroll factor changed.
    void settingsChanged();

private:
    /// Hands the text, the core model and the unroll factor to the evaluation; showProjection() draws.
    void recompute();
    void showProjection();
    void drawGraph();
    /// The dependency graph laid out at the plot's size with its labels' boxes in their font of the moment
    /// (core::layOutGraph()): the labels' places, the edges' routes and the ranges, a pixel a unit.
    void fitGraphRanges();
    /// The graph's share of a figure's height (plot_style::setFigureShare()): what it needs laid out, its nodes
    /// numbered, at a single column's width, against the other plots' share of 1.
    double graphFigureShare() const;
    /// While a figure draws the graph: its share of the figure's height set to what the graph needs at the
    /// figure's width and fonts (the next layout of the figure stacks the plots by it).
    void fitGraphShareToFigure();
    /// IN's boxes of NODE's size and the gaps that go with them.
    static void setGraphGaps(core::GraphLayoutInput &in, QSizeF node);
    /// The widest and the tallest node's box in the graph as its labels' fonts draw them now, pixels: with the
    /// statements' names, or NUMBERED with their lines.
    QSize largestGraphNode(bool numbered) const;
    void drawGantt();
    void drawUnroll();
    void updateReadout();
    /// Marks every plot as showing the last projection that parsed; drawing a new one clears the marks.
    void markStale();
    void clearStale();
    /// Projected and error columns of the table, and the measured points on the unroll chart.
    void updateMeasured();
    void measuredEdited(QTableWidgetItem *item);

    ParameterState *m_state;
    QTimer *m_editPause;      ///< restarted by each edit in the editor; projects when it runs out
    bool m_settingText = false; ///< setText() is filling the editor: project at once
    QComboBox *m_sampleBox;
    QComboBox *m_profileBox;
    QSpinBox *m_unroll;
    QPushButton *m_use;
    QPlainTextEdit *m_editor;
    QLabel *m_errorLabel;
    QLabel *m_useNote;
    QList<QPointer<QCPItemText>> m_staleMarks;
    QLabel *m_readout;
    QTableWidget *m_table;
    QCustomPlot *m_graphPlot;
    QCustomPlot *m_ganttPlot;
    QCustomPlot *m_unrollPlot;
    QTabWidget *m_plotTabs; ///< the plots, one at a time, in a narrow view (tabWhenNarrow())
    core::GraphLayoutInput m_graphInput; ///< the graph last drawn, with the room and boxes it was last fitted to
    std::vector<QCPItemText *> m_graphNodes; ///< its nodes' labels, by node
    std::vector<QString> m_graphTexts;       ///< their statements' names (numbered where those do not fit)
    QString m_graphTitle;                    ///< the graph's axis title for named nodes
    struct GraphEdgeStyle
    {
        bool onPath; ///< on the critical path
        bool dashed; ///< a WAR or WAW edge
    };
    std::vector<GraphEdgeStyle> m_graphEdges; ///< per edge of m_graphInput
    /// The graph's size and largest node when its ranges were fitted.
    QPair<QSize, QSize> m_graphLaidOut;
    GraphLinks *m_edges;         ///< the graph's edges off the critical path
    GraphLinks *m_criticalEdges; ///< and on it
    GraphLinks *m_dots;          ///< the graph's nodes off the critical path, a dot under each label
    GraphLinks *m_criticalDots;  ///< and on it
    GanttBoxes *m_ganttBoxes;    ///< the schedule's statements off the critical path
    GanttBoxes *m_ganttCritical; ///< and on it
    std::vector<core::HardwareProfile> m_profiles; ///< those with a core model
    SkeletonEvaluation *m_eval;
};

} // namespace crossroof::widgets
