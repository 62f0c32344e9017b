// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/session.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/stability_map.h"

#include <QWidget>

#include <array>
#include <memory>
#include <optional>
#include <stop_token>
#include <thread>

class QCheckBox;
class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPGraph;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QMouseEvent;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace crossroof::widgets {

class AdvisorPanel;
class HysteresisChart;
class ParameterState;

/// Where in parameter space the machine is bistable (MODEL.md 1.6): a map over any two parameters, cells
/// coloured by the number of stable equilibria and shaded by operating throughput, bistable regions outlined;
/// the current point is marked and can be dragged. Below it the hysteresis of a sweep, and beside it the
/// what-if advisor: the paper's tuning operations ranked by their predicted gain, each applicable (undoable).
/// The map refines progressively in the background (coarse first) and restarts on every change.
class StabilityView : public QWidget
{
    Q_OBJECT
public:
    explicit StabilityView(ParameterState *state, QWidget *parent = nullptr);
    ~StabilityView() override;

    QCustomPlot *mapPlot() const { return m_map; }
    QCustomPlot *hysteresisPlot() const;
    QCPColorMap *colorMap() const { return m_colorMap; }
    /// The key beside the map: its colours, a band per number of stable states (1, 2, 3+).
    QCPColorScale *key() const { return m_key; }
    QCPGraph *currentPoint() const { return m_current; }
    QCPGraph *upBranch() const;
    /// The hysteresis sweep drawn, every value of it.
    const core::HysteresisResult &sweep() const;
    QCPGraph *downBranch() const;
    QTableWidget *advisorTable() const;
    QComboBox *xKeyBox() const { return m_xKey; }
    QComboBox *yKeyBox() const { return m_yKey; }
    QComboBox *sweepKeyBox() const { return m_sweepKey; }
    /// 0: the branches' MS throughput; 1: their warps in the memory system, k.
    QComboBox *sweepShowsBox() const { return m_sweepShows; }
    /// The map and the hysteresis for a figure, the map finished first: a figure is never of the coarse map
    /// shown while the fine one is computed, nor of the empty one of a view never shown (crossroof-cli render).
    QList<QCustomPlot *> figurePlots()
    {
        waitForMap();
        return {m_map, hysteresisPlot()};
    }

    /// The map as last drawn (possibly still coarse).
    const core::StabilityMap &map() const { return m_shown; }
    core::StabilitySettings settings() const;
    void setSettings(const core::StabilitySettings &settings);
    /// Brings everything up to date (if hidden, the view defers its work until shown) and blocks until the
    /// background refinement has finished (tests, export).
    void waitForMap();
    /// Applies the advisor's operation in row ROW of the table (one undo step).
    void applyAdvice(int row);
    /// Shows the operation in row ROW as a what-if over the current X-graph (compare mode); -1 clears it.
    void compareAdvice(int row);
    /// Text for the cell under plot coordinates (u, v): its equilibria.
    QString describeAt(double u, double v) const;

Q_SIGNALS:
    void hoverTextChanged(const QString &text);
    /// A choice of axes, resolution or sweep changed (for the window's modified mark).
    void settingsChanged();

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void scheduleRefresh();
    void refresh();
    void startMap();
    void showMap(const core::StabilityMap &map);
    void refreshHysteresis();
    /// Marks the current point; with MAP_CHANGED false only the point's layer is drawn again.
    void markCurrent(bool mapChanged = false);
    /// Whether the map for the present inputs differs from the one shown or being refined.
    bool mapInputsChanged(const core::MapAxis &x, const core::MapAxis &y) const;
    core::MapAxis axis(int which) const;
    double toAxis(int which, double value) const;
    double fromAxis(int which, double u) const;
    void dragTo(QMouseEvent *event);
    /// Moves the marked point by whole cells (arrow keys), one undo step.
    void nudge(int dx, int dy);

    ParameterState *m_state;
    QComboBox *m_xKey;
    QComboBox *m_yKey;
    QSpinBox *m_resolution;
    QComboBox *m_sweepKey;
    QComboBox *m_sweepShows;
    QLabel *m_info;
    QCustomPlot *m_map;
    QCPColorMap *m_colorMap;
    QCPColorScale *m_key;
    QCPCurve *m_edges;
    QCPGraph *m_current;
    HysteresisChart *m_hyst;
    AdvisorPanel *m_advisor;
    core::StabilityMap m_shown;
    std::jthread m_worker;
    int m_generation = 0;
    bool m_dragging = false;
    /// The map's axes while the point is dragged: they stay where they were, or the point would run away
    /// from the pointer as the map re-centres on it.
    std::optional<std::array<core::MapAxis, 2>> m_dragAxes;
    bool m_refreshQueued = false;
    bool m_stale = true; ///< inputs changed while hidden: recompute when shown
    /// What the map shown (or being refined) was computed from: the parameters without its two axes' keys,
    /// and the axes.
    struct MapInputs
    {
        core::XModelParams base;
        std::array<core::MapAxis, 2> axes;
    };
    std::optional<MapInputs> m_mapInputs;
    bool m_fullReplotQueued = false;
    bool m_refinementStopped = false; ///< the background refinement was stopped before it finished
    QTimer *m_advisorTimer; ///< while a slider is held, the advisor follows a few times a second
};

} // namespace crossroof::widgets
