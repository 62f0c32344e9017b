// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/trace_set.h"
#include "traces/kernel_names.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPLayer;

namespace crossroof::widgets {

class KernelState;
class ParameterState;
class ThinnedGraphs;
class TraceState;

/// Draws the visible measured traces that belong on one plot, on top of what the plot's view draws. It adds
/// and removes only its own graphs (one set per trace), each named after the trace and its source file in
/// the legend, and redraws on TraceState::changed() (call refresh() when the model behind a prediction
/// changes).
/// - Target::XGraph: bandwidth-vs-warps traces as hollow markers joined by a light line (the X-model
///   paper, Fig. 12), kernel points as stars with the model's predicted operating point and an error line
///   to it (Fig. 11). The kernels of the KernelState (setKernels()) are predicted as the Kernels table
///   predicts them, each with its own workload and clock, and drawn even when their file was opened in the
///   Kernels dock rather than imported as a trace.
/// - Target::Zigzag: runtimes against B_r on the right axis ("measured time (s)") with the Eq. 15 fit
///   time = a1·√B_r/T + a0 and its r² in the legend.
/// A trace of millions of points is drawn, and exported, from those that the pixel columns need (the first,
/// lowest, highest and last of each: columnSamples()).
/// The colour of the INDEX-th measured series (trace or kernel set) on a plot: twelve colours that differ
/// from each other and from the model's curves (blue f, vermillion G) before the first repeats.
QColor seriesColour(int index);

class TraceOverlay : public QObject
{
    Q_OBJECT
public:
    enum class Target { XGraph, Zigzag };
    /// Predicted device GB/s of a kernel with WARPS resident per SM and intensity Z (NaN: Z unknown).
    using Prediction = std::function<std::optional<double>(double warps, double Z)>;

    TraceOverlay(QCustomPlot *plot, TraceState *traces, Target target, QObject *parent = nullptr);
    ~TraceOverlay() override;

    void setPrediction(Prediction prediction);
    /// The kernels whose predictions (KernelState::table()) the crosses of their kernel points show, and which
    /// are drawn as a kernel set of their own while no trace comes from their file.
    void setKernels(KernelState *kernels);
    /// The X-model operating point with n = warps and Z (the state's Z when NaN), everything else from STATE.
    static Prediction xmodelPrediction(const ParameterState *state);

    /// Rings the kernel points whose label is among LABELS (the kernel table's selection), names them in place with
    /// the worst-predicted kernel (KernelNames) and replots.
    void setHighlighted(const QStringList &labels);
    /// What hovering shows at PIXEL (plot coordinates): the nearest kernel point within a few pixels, its
    /// label, warps per SM and GB/s; empty when none is near.
    QString hoverText(const QPointF &pixel) const;

    /// The kernel names of the X-graph (null on the zigzag).
    KernelNames *kernelNames() const { return m_names; }
    /// The graphs this overlay owns now (for tests and figure export).
    QList<QCPGraph *> graphs() const;
    /// The graphs drawn for one trace (empty when hidden, removed or not of this plot's kinds).
    QList<QCPGraph *> graphsFor(const QString &id) const;

public Q_SLOTS:
    /// Draws every overlay graph again from the trace state and redraws the plot. The graphs of the last
    /// refresh are reused while they come in the same order (the model's predictions change on every step of
    /// a slider's drag, the traces do not): the plot keeps its legend entries and, a SteadyPlot, its layout.
    void refresh();

private:
    /// The traces drawn: the trace state's and, while no kernel-points trace comes from the KernelState's
    /// file, the KernelState's kernels as one.
    std::vector<const core::MeasuredTrace *> shownTraces() const;
    /// Makes the trace of the KernelState's kernels again (none without kernels).
    void takeKernels();
    void clearGraphs();
    /// The graph for ROLE (what it draws) of trace ID: the next one of the last refresh when that was the same,
    /// its data cleared; otherwise a new one, and those of the last refresh still unused are removed.
    QCPGraph *addGraph(const QString &id, const char *role, bool rightAxis = false);
    /// Removes the last refresh's graphs from REUSE on.
    void dropUnused();

    QPointer<QCustomPlot> m_plot;
    QPointer<QCPLayer> m_layer; ///< where the graphs go (the X-graph's cached layer), or none: the current one
    TraceState *m_traces;
    Target m_target;
    Prediction m_prediction;
    QPointer<KernelState> m_kernels;
    std::optional<core::MeasuredTrace> m_kernelTrace; ///< the KernelState's kernels as a trace
    // Guarded: the plot deletes its graphs before its children (this overlay, by default) go.
    QList<QPointer<QCPGraph>> m_graphs;
    QList<QString> m_graphIds; ///< each graph's trace and role ("ID/ROLE")
    QList<QPointer<QCPGraph>> m_previous; ///< during a refresh: the graphs of the last one, and their ids
    QList<QString> m_previousIds;
    qsizetype m_reuse = 0; ///< the next of m_previous to reuse
    bool m_ownsRightAxis = false;
    QStringList m_highlighted;
    /// Draws the measured points (every one of a trace of thousands, a few per pixel column of millions);
    /// a child of the plot.
    QPointer<ThinnedGraphs> m_thinned;
    /// The X-graph's selected and worst-predicted kernels named in place (none on the zigzag); a child of the plot.
    QPointer<KernelNames> m_names;
};

} // namespace crossroof::widgets
