// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/curve_thinning.h"
#include "common/drag_hold.h"
#include "common/steady_plot.h"
#include "xgraph/basin_shading.h"
#include "xgraph/flow_arrows.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPAbstractLegendItem;
class QMouseEvent;

namespace crossroof::widgets {

class KernelState;
class ComparisonCurves;
class LevelCurves;
class XModelEvaluation;

/// The X-graph: memory supply f(k) and compute demand G(n-k) against k (x = n - k on the top axis),
/// MS throughput in GB/s on the left, the matching CS throughput in Gop/s on the right, with equilibria,
/// landmarks and the operating point. Redraws in place whenever the evaluation updates.
class XGraphView : public QWidget
{
    Q_OBJECT
public:
    explicit XGraphView(XModelEvaluation *evaluation, QWidget *parent = nullptr);
    ~XGraphView() override;

    QCustomPlot *plot() const { return m_plot; }
    /// What a figure of this view shows.
    QList<QCustomPlot *> figurePlots() const { return {m_plot}; }
    QCPGraph *supplyGraph() const { return m_f; }
    /// The stretch of f where an equilibrium would be unstable, dashed.
    QCPGraph *unstableSupplyGraph() const { return m_fUnstable; }
    QCPGraph *demandGraph() const { return m_g; }
    QCPGraph *stableGraph() const { return m_stable; }
    QCPGraph *unstableGraph() const { return m_unstable; }
    QCPGraph *operatingGraph() const { return m_operating; }
    /// The I-th what-if's f(k) and operating point (in the state's order; empty graphs past the last).
    QCPGraph *comparisonSupplyGraph(int i = 0) const;
    QCPGraph *comparisonOperatingGraph(int i = 0) const;

    /// The supplies of the memory levels (L1, L2, DRAM), drawn while a kernel with the counters that place it
    /// at each level is selected (setSelectedKernels()) and the parameters give the level a ceiling.
    QList<QCPGraph *> levelGraphs() const;

    /// The flow along k drawn as arrows: position and direction (+1: k grows, -1: k shrinks).
    using FlowArrow = FlowArrows::Arrow;
    const QList<FlowArrow> &flowArrows() const { return m_flowArrows->arrows(); }
    /// The basins of attraction drawn: [from, to) in k, one per stable state (when there are several).
    const QList<BasinShading::Basin> &basins() const { return m_basins->basins(); }
    /// The plot, which redraws a parameter change without a new layout while the old one holds.
    SteadyPlot *steadyPlot() const { return m_plot; }

    /// The formula and value of what is within the tolerances of plot coordinates (k, gbs); empty over
    /// nothing.
    QString describeAt(double k, double gbs, double kTolerance, double gbsTolerance) const;

    /// Redraws from the evaluation; also rescales for graphs others added to the plot (trace overlays): every
    /// point of theirs in view, beyond k = n too, with room for its whole marker.
    void refresh();

    /// The kernels whose selection (setSelectedKernels()) shows the level curves.
    void setKernels(KernelState *kernels);
    /// The kernels selected in the Kernels dock, by their labels (kernelLabel()): where one has a workload
    /// (its counters place it at every level), the level curves of the parameters are drawn. Redraws.
    void setSelectedKernels(const QStringList &labels);

    /// Why the k axis runs past n (measured points lie beyond it), e.g. "3 kernels lie beyond n = 53 warps: …";
    /// empty when nothing does.
    QString dataNotice() const { return m_dataNotice; }

    /// How the view names a trace by its id (TraceState's names), for the legend of a measured f(k); without
    /// it, or for an id it does not know, the curve's own description ("the trace NAME (ID)") names it.
    void setTraceNames(std::function<QString(const QString &traceId)> nameOf);

    /// The curves f, G and the what-if's are sampled densely (XModelEvaluation) and drawn thinned: within this
    /// many pixels of every sample, through every kink, peak and valley (thinCurve()). 0 draws every sample.
    void setCurveTolerance(double pixels);
    double curveTolerance() const { return m_thinned->tolerance(); }
    static constexpr double kDefaultCurveTolerance = 0.1;

Q_SIGNALS:
    /// What the mouse is over, with its formula, for the status bar.
    void hoverTextChanged(const QString &text);
    /// dataNotice() changed, for the status bar: after a fit (opening data, letting go of a slider), not on
    /// every step of a drag.
    void dataNoticeChanged(const QString &text);

private:
    QList<QCPGraph *> ownGraphs() const;
    /// Whether a selected kernel has the counters that place it at each memory level.
    bool levelsWanted() const;
    /// The top axis x = n - k of the bottom one, the right axis (Gop/s) the left one (GB/s) times Z in the
    /// model's units: on every change of the bottom or left axis, whoever made it (the view, a zoom, a pan).
    void coupleAxes();
    void onMouseMove(QMouseEvent *event);
    /// "f(k): memory supply", or for a measured f(k) "f(k): measured, NAME".
    QString supplyName() const;
    QCPItemText *makeLabel(const QColor &color);
    /// Puts the model's legend entries for what is drawn first in the legend, and names f's dashed stretch in
    /// its entry where UNSTABLE_STRETCH (f is dashed somewhere). What a zoom or pan leaves out of view (G, the
    /// operating point) is not named.
    void arrangeOwnLegend(bool unstableStretch);
    /// Whether GRAPH draws anything within its axes' present ranges: a point, or a piece of its line.
    bool inView(const QCPGraph *graph) const;
    /// The landmark labels where refresh() put them cross a curve or a marker, or each other: each moves to the
    /// nearest clear place along its line or around its point (placeOffData()), at every layout of the plot.
    void placeLandmarkLabels();

    XModelEvaluation *m_eval;
    SteadyPlot *m_plot;
    QCPGraph *m_f;
    QCPGraph *m_fUnstable;
    QCPGraph *m_g;
    QCPGraph *m_stable;
    QCPGraph *m_unstable;
    QCPGraph *m_critical;
    QCPGraph *m_neutral;
    QCPGraph *m_operating;
    QCPGraph *m_cacheMarks;
    QCPItemStraightLine *m_deltaLine;
    QCPItemStraightLine *m_piLine;
    QCPItemStraightLine *m_plateauLine;
    QCPItemText *m_deltaLabel;
    QCPItemText *m_piLabel;
    QCPItemText *m_plateauLabel;
    QCPItemText *m_psiLabel;
    QCPItemText *m_valleyLabel;
    QCPItemText *m_message;
    std::unique_ptr<ComparisonCurves> m_comparisons;
    FlowArrows *m_flowArrows;
    std::unique_ptr<LevelCurves> m_levels;
    KernelState *m_kernels = nullptr;
    QStringList m_selectedKernels;
    /// The ranges last drawn, held while a slider is (see refresh()).
    struct Held
    {
        double right; ///< k at the right end
        double top;   ///< GB/s at the top
    };
    DragHold<Held> m_held;
    BasinShading *m_basins = nullptr;
    /// The basins' legend entry, in the legend only while the basins are shaded: the operating point's and the
    /// other stable states' side by side.
    QCPAbstractLegendItem *m_basinEntry = nullptr;
    /// f's legend entry where it is dashed somewhere: solid and dashed, "dashed where unstable".
    QCPAbstractLegendItem *m_fDashedEntry = nullptr;
    /// The legend entries of the graphs that are named only at times (f, whose entry gives way to
    /// m_fDashedEntry, and the kinds of equilibria), kept while out of the legend.
    QHash<const QCPGraph *, QCPAbstractLegendItem *> m_ownEntries;
    bool m_unstableStretch = false; ///< what arrangeOwnLegend() was last told, for a zoom's or pan's arranging
    bool m_refreshing = false;      ///< refresh() sets the ranges and arranges the legend itself

    ThinnedGraphs *m_thinned; ///< f, G and the what-if's, drawn thinned
    double m_n = std::numeric_limits<double>::quiet_NaN();          ///< n of the axes' coupling
    double m_gopsPerGbs = std::numeric_limits<double>::quiet_NaN(); ///< the right axis over the left
    QString m_dataNotice;
    std::function<QString(const QString &)> m_traceName;
};

} // namespace crossroof::widgets
