// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/roofline_settings.h"
#include "roofline/kernel_marks.h"
#include "roofline/roofline_evaluation.h"

#include <QList>
#include <QMargins>
#include <QPointF>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QCheckBox;
class QLabel;
class QPushButton;

namespace crossroof::widgets {

class KernelState;
class ParameterState;
class TraceState;

/// An instruction roofline (as Nsight Compute and Intel Advisor draw it) on log-log axes, every decade labelled:
/// instruction throughput (thread-instructions per second, Gop/s) against intensity (thread-instructions per
/// byte). Ceilings from the current parameters: memory R·I, compute M·warp_size·clock·SMs, the issue ceiling
/// (E·n/L_c)·warp_size·clock·SMs where E·n/L_c < M, the FP32 and FP64 pipes (lanes per SM × clock × SMs),
/// and the memory-latency ceiling of Little's law for the
/// current n and m (n·m requests in flight per SM over the latency L), with those of L2 (L_2) and L1 (L_s) when
/// kernels are drawn at those levels. The kernels of an ncu export are points sized by their duration, named
/// (short names, placed where they collide with nothing, else left out; a toggle), at their L2 and L1
/// intensities too where the export has that traffic (the hierarchical roofline), each with an arrow from the
/// X-model's prediction for it to the measurement. The X-model's operating point for the current parameters
/// (intensity Z·warp_size/request_bytes, its CS throughput) follows the sliders. Hovering a point names the
/// kernel and its bound; the plotted data exports as CSV.
class RooflineView : public QWidget
{
    Q_OBJECT
public:
    /// Draws the kernels of KERNELS' report with its predictions and the ceilings of its parameters; kernels
    /// without instructions, duration or DRAM throughput are left out (their count is shown under the plot).
    explicit RooflineView(KernelState *kernels, QWidget *parent = nullptr);
    /// Highlights the kernels with these labels ("short name [ID]", as the kernel table names them).
    void setHighlighted(const QStringList &labels);
    /// Also draws the visible measured rooflines of TRACES (gpu-benches' gpu-roofline), with their ridges.
    void setTraces(TraceState *traces);

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
    /// The kernels' marks at DRAM (one plottable for all but the highlighted ones, which have their own over
    /// them), or none while no kernel is drawn.
    KernelMarks *kernelMarks() const { return m_marks; }
    /// How many prediction arrows the last paint drew (arrows on the same pixels are drawn once).
    int arrowsDrawn() const { return m_arrowPass ? m_arrowPass->drawn : 0; }
    QList<QCustomPlot *> figurePlots()
    {
        upToDate();
        return {m_plot};
    }
    QLabel *note() const { return m_note; }
    /// Toggles: kernel names, the X-model's predictions with their arrows, the L2 and L1 points and ceilings.
    QCheckBox *namesBox() const { return m_names; }
    QCheckBox *predictionsBox() const { return m_predictions; }
    QCheckBox *levelsBox() const { return m_levels; }
    /// Names left out because no free place near their point was found.
    int hiddenLabels() const { return m_hiddenLabels; }
    /// What is drawn as CSV: one row per ceiling vertex and per point (series, name, intensity, Gop/s).
    QString csv();
    /// Writes csv() to PATH atomically; returns an empty string, else the error naming PATH.
    QString exportCsv(const QString &path);
    /// Shown with kernels or without: asks for a file and exports the plotted data (exportCsv()).
    QPushButton *exportCsvButton() const { return m_exportCsv; }
    /// The toggles as a session saves them, and restoring them (the view redraws once).
    core::RooflineSettings settings() const;
    void setSettings(const core::RooflineSettings &settings);

    /// Shown while there are no kernels; asks for an ncu export (openKernelsRequested()).
    QPushButton *openKernelsButton() const { return m_openKernels; }

Q_SIGNALS:
    /// The empty state's button: open an ncu export (the Kernels dock reads it).
    void openKernelsRequested();
    /// A toggle changed (the session is modified).
    void settingsChanged();

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// Recomputes and redraws; while the view is hidden (another tab in front) it only notes that it is
    /// behind, and catches up when shown or asked (catchUp()).
    void refresh();
    void catchUp();
    /// Waits for the kernels' predictions, then catchUp() (tests, figure export).
    void upToDate();
    /// Draws what the evaluation computed.
    void draw();
    /// One row of csv().
    struct CsvRow {
        QString series;
        QString name;
        double intensity = 0;
        double gops = 0;
    };

    ParameterState *m_state;
    RooflineEvaluation *m_eval;
    QStringList m_highlighted;
    TraceState *m_traces = nullptr;
    QCustomPlot *m_plot;
    QPointer<KernelMarks> m_marks; ///< deleted with the plot's graphs at each draw()
    std::shared_ptr<KernelArrow::Pass> m_arrowPass; ///< the arrows' of the last draw()
    QLabel *m_note;
    QPushButton *m_openKernels;
    QPushButton *m_exportCsv;
    QCheckBox *m_names;
    QCheckBox *m_predictions;
    QCheckBox *m_levels;
    std::vector<CsvRow> m_csvRows; ///< what draw() drew
    int m_hiddenLabels = 0;
    QMargins m_minimumMargins; ///< the axis rect's own, widened on the right for the last tick label
    bool m_stale = false; ///< inputs changed while hidden
};

} // namespace crossroof::widgets
