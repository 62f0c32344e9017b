// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "roofline/roofline_evaluation.h"

#include <QList>
#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QLabel;
class QPushButton;

namespace crossroof::widgets {

class ParameterState;

/// An instruction roofline (as Nsight Compute and Intel Advisor draw it) on log-log axes: instruction
/// throughput (thread-instructions per second, Gop/s) against intensity (thread-instructions per DRAM byte).
/// Ceilings from the current parameters: memory R·I, compute M·warp_size·clock·SMs, and the latency ceiling
/// E·n·warp_size·clock·SMs where E·n < M (a workload with E independent instructions per warp and n warps
/// cannot issue faster). The kernels of an ncu export are points sized by their duration; the X-model's
/// operating point for the current parameters (intensity Z·warp_size/request_bytes, its CS throughput)
/// follows the sliders. Hovering a point names the kernel and its bound.
class RooflineView : public QWidget
{
    Q_OBJECT
public:
    explicit RooflineView(ParameterState *state, QWidget *parent = nullptr);

    /// The kernels to draw; those without instructions, duration or DRAM throughput are left out (their
    /// count is shown under the plot).
    void setReport(const std::optional<core::NcuReport> &report);
    /// Highlights the kernels with these labels ("short name [ID]", as the kernel table names them).
    void setHighlighted(const QStringList &labels);

    /// A plotted kernel: its index in the report, intensity (op/byte) and throughput (Gop/s).
    using KernelPoint = RooflineEvaluation::KernelPoint;
    const std::vector<KernelPoint> &points() const;
    /// Memory ceiling slope (GB/s) and compute ceiling (Gop/s) of the current parameters.
    double memoryCeilingGbs() const;
    double computeCeilingGops() const;
    /// The X-model operating point (intensity, Gop/s), brought up to date first if the view is hidden.
    QPointF operatingPoint();
    /// What hovering point I shows: the kernel, its intensity and throughput, and whether memory or compute
    /// bounds it at that intensity.
    QString pointText(std::size_t i) const;
    /// The point under PIXEL (plot coordinates) within a few pixels, or none.
    std::optional<std::size_t> pointAt(const QPointF &pixel) const;

    QCustomPlot *plot() const { return m_plot; }
    QList<QCustomPlot *> figurePlots()
    {
        catchUp();
        return {m_plot};
    }
    QLabel *note() const { return m_note; }
    /// Shown while there are no kernels; asks for an ncu export (openKernelsRequested()).
    QPushButton *openKernelsButton() const { return m_openKernels; }

Q_SIGNALS:
    /// The empty state's button: open an ncu export (the Kernels dock reads it).
    void openKernelsRequested();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// Recomputes and redraws; while the view is hidden (another tab in front) it only notes that it is
    /// behind, and catches up when shown or asked (catchUp()).
    void refresh();
    void catchUp();
    /// Draws what the evaluation computed.
    void draw();

    ParameterState *m_state;
    RooflineEvaluation *m_eval;
    QStringList m_highlighted;
    QCustomPlot *m_plot;
    QLabel *m_note;
    QPushButton *m_openKernels;
    bool m_stale = false; ///< inputs changed while hidden
};

} // namespace crossroof::widgets
