// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/stability_settings.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/stability_map.h"

#include <QWidget>

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QSpinBox;
class QTableWidget;

namespace crossroof::widgets {

class AdvisorPanel;
class HysteresisChart;
class ParameterState;
class StabilityEvaluation;
class StabilityMapPlot;

/// Where in parameter space the machine is bistable (MODEL.md 1.6): a map over any two parameters, cells
/// coloured by the number of stable equilibria and shaded by operating throughput, bistable regions outlined;
/// the current point is marked and can be dragged. Below it the hysteresis of a sweep, and beside it the
/// what-if advisor: the paper's tuning operations ranked by their predicted gain, each applicable (undoable).
/// StabilityEvaluation computes all three; the view draws them and turns its choices and gestures into
/// settings and state changes.
class StabilityView : public QWidget
{
    Q_OBJECT
public:
    explicit StabilityView(ParameterState *state, QWidget *parent = nullptr);

    StabilityEvaluation *evaluation() const { return m_eval; }
    QCustomPlot *mapPlot() const;
    QCustomPlot *hysteresisPlot() const;
    QCPColorMap *colorMap() const;
    /// The key beside the map: its colours, a band per number of stable states (1, 2, 3+).
    QCPColorScale *key() const;
    QCPGraph *currentPoint() const;
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
        return {mapPlot(), hysteresisPlot()};
    }

    /// The map as last drawn (possibly still coarse).
    const core::StabilityMap &map() const;
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
    /// The advisor drew a what-if on the X-graph; TEXT says which and where its operating point lies.
    void comparisonShown(const QString &text);
    /// A choice of axes, resolution or sweep changed (for the window's modified mark).
    void settingsChanged();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The settings the boxes show.
    core::StabilitySettings chosenSettings() const;
    void showMap();
    /// Marks the current point; with MAP_CHANGED false only the point's layer is drawn again.
    void markCurrent(bool mapChanged);
    void connectGestures();
    void dragTo(QMouseEvent *event);
    /// Moves the marked point by whole cells (arrow keys), one undo step.
    void nudge(int dx, int dy);

    ParameterState *m_state;
    StabilityEvaluation *m_eval;
    QComboBox *m_xKey;
    QComboBox *m_yKey;
    QSpinBox *m_resolution;
    QComboBox *m_sweepKey;
    QComboBox *m_sweepShows;
    QLabel *m_info;
    StabilityMapPlot *m_map;
    HysteresisChart *m_hyst;
    AdvisorPanel *m_advisor;
    bool m_dragging = false;
};

} // namespace crossroof::widgets
