// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/markov/markov.h"
#include "core/markov/markov_counters.h"
#include "core/markov/markov_settings.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QCPAbstractLegendItem;
class QCPAbstractPlottable;
class QCPColorMap;
class QCPColorScale;
class QCPCurve;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QPushButton;
class QSpinBox;

namespace crossroof::widgets {

class BufferedColorMap;

class CountersDialog;
class MarkovEvaluation;
class MarkovSliceCharts;

/// CPI of the Markov thread-state model over the suspension probabilities (p, q) (Mitra's thesis,
/// 4.2, 5.3; MODEL.md 3): a colour map with contour lines and a log colour scale, the slice CPI(p) at the
/// chosen q (thesis Fig. 5.16) and the transient CPI(t) from all-active at the chosen (p, q).
class MarkovView : public QWidget
{
    Q_OBJECT
public:
    explicit MarkovView(QWidget *parent = nullptr);

    /// Where the topology comes from: "Groups × threads" (the spin boxes) or a mapping strategy of a CPU
    /// profile (item data "PROFILE/STRATEGY").
    QComboBox *topologyBox() const { return m_topology; }
    QSpinBox *groupsBox() const { return m_groups; }
    QSpinBox *threadsBox() const { return m_threads; }
    QComboBox *gridBox() const { return m_grid; }
    QCheckBox *transientBox() const { return m_transient; }
    QSpinBox *stepsBox() const { return m_steps; }
    /// A measured CPI (0: none) whose iso-CPI curve is drawn over the surface.
    QDoubleSpinBox *measuredCpiBox() const { return m_measured; }
    QCPCurve *measuredCurve() const { return m_measuredCurve; }
    QCustomPlot *mapPlot() const { return m_map; }
    /// What a figure of this view shows: the surface (the slice and the transient go with --data).
    QList<QCustomPlot *> figurePlots() const { return {m_map}; }
    QCPColorMap *colorMap() const;
    QCPCurve *contours() const { return m_contours; }
    /// The CPI written on each contour line, one label a level (see MarkovEvaluation::contourLabels()).
    const QList<QCPItemText *> &contourLabels() const { return m_contourLabels; }
    QCPGraph *sliceGraph() const;
    QCPGraph *transientGraph() const;
    const core::MarkovSurface &surface() const;
    /// The surface, its contours and the measured CPI's curve, computed from the view's inputs.
    MarkovEvaluation *evaluation() const { return m_eval; }

    /// Chooses the grid point (p index, q index) the slice and the transient show.
    void selectPoint(int pIndex, int qIndex);
    int selectedP() const { return m_pIndex; }
    int selectedQ() const { return m_qIndex; }
    /// The text shown for plot coordinates (u, v) of the map, e.g. "p = 0.1, q = 0.9: CPI 3.4".
    QString describeAt(double u, double v) const;

    /// The CPU profiles whose mapping strategies the topology box offers (those with a topology). Keeps the
    /// chosen strategy when it is still offered; otherwise falls back to the spin boxes.
    void setCpuProfiles(const std::vector<core::HardwareProfile> &profiles);
    /// Threads per cache group of the topology in use.
    std::vector<int> topology() const;

    /// Marks the nine starting pairs (4.3.1) on the surface, the nearest one (to the measured CPI) larger.
    void setStartingPairs(const std::vector<core::StartingPair> &pairs, std::optional<std::size_t> nearest);
    QCPGraph *startingPairsGraph() const { return m_pairs; }
    QCPGraph *nearestPairGraph() const { return m_nearestPair; }
    /// p and q from event counters (4.2.6, 4.2.7): its starting pairs are drawn on the surface once it has
    /// been opened, its measured CPI becomes the view's, and choosing a pair selects it on the surface.
    CountersDialog *countersDialog() const { return m_counters; }
    QPushButton *countersButton() const { return m_countersButton; }
    /// Selects the grid point nearest (p, q) by value.
    void selectProbabilities(double p, double q);

    /// Every input, for sessions.
    core::MarkovSettings settings() const;
    /// Restores every input at once.
    void setSettings(const core::MarkovSettings &settings);

Q_SIGNALS:
    void hoverTextChanged(const QString &text);
    /// An input or the selected point changed (for the window's modified mark).
    void settingsChanged();

private:
    /// The topology, grid, transient and measured CPI boxes: the first row into BAR, the second into BAR2.
    void createInputs(QHBoxLayout *bar, QHBoxLayout *bar2);
    /// The surface's plot: colour map, colour scale, contours, the measured curve and the marks.
    void createMap();
    void connectInputs();
    /// Hands the inputs to the evaluation, which computes the surface; showSurface() draws it.
    void recompute();
    void showSurface();
    /// The line above the map: the topology, its threads and states, and the CPI's range.
    QString infoText() const;
    void refreshSelection();
    void refreshPairs();
    /// Puts the legend entries of what is drawn over the surface into the map's legend, and no other.
    void arrangeMapLegend();
    void topologySourceChanged();
    /// The strategy chosen in the topology box, or nullptr for the spin boxes.
    const core::MappingStrategy *strategy(const core::CpuTopology **topology = nullptr,
                                          const core::HardwareProfile **profile = nullptr) const;

    QComboBox *m_topology;
    QPushButton *m_countersButton;
    CountersDialog *m_counters;
    bool m_countersUsed = false; ///< the dialog has been opened (or a session had counters)
    QSpinBox *m_groups;
    QSpinBox *m_threads;
    QComboBox *m_grid;
    QCheckBox *m_transient;
    QSpinBox *m_steps;
    QLabel *m_info;
    QCustomPlot *m_map;
    BufferedColorMap *m_colorMap; ///< draws the evaluation's colour values (kept until its next surface)
    QCPColorScale *m_colorScale;
    QCPCurve *m_contours;
    QList<QCPItemText *> m_contourLabels;
    QCPCurve *m_measuredCurve;
    QDoubleSpinBox *m_measured;
    QCPGraph *m_selection;
    QCPGraph *m_pairs;
    QCPGraph *m_nearestPair;
    /// The legend entries of the contours, the measured curve, the chosen point and the starting pairs, kept
    /// while out of the legend.
    QHash<const QCPAbstractPlottable *, QCPAbstractLegendItem *> m_legendEntries;
    std::vector<core::StartingPair> m_pairValues;
    std::optional<std::size_t> m_nearest;
    std::vector<core::HardwareProfile> m_cpuProfiles;
    MarkovSliceCharts *m_charts;
    MarkovEvaluation *m_eval;
    int m_pIndex = -1; ///< -1: not chosen yet
    int m_qIndex = -1;
};

} // namespace crossroof::widgets
