// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDockWidget;
class QMainWindow;

namespace crossroof::widgets {
class KernelTableView;
class PredictionView;
class RooflineView;
class TraceOverlay;
class TraceState;
} // namespace crossroof::widgets

namespace crossroof::app {

/// The views that draw the kernel table's report.
struct KernelViews
{
    widgets::RooflineView *roofline;
    widgets::PredictionView *prediction;
};

/// Puts KERNELS in a dock tabbed with TRACESDOCK and links it to the rest: an imported Nsight Compute file
/// fills the table, the table's report is drawn on the roofline and compared on the prediction view, and
/// selected kernels are ringed on the roofline and on the X-graph (XGRAPHTRACES). Returns the dock.
QDockWidget *addKernelsDock(QMainWindow *window, QDockWidget *tracesDock, widgets::KernelTableView *kernels,
                            KernelViews views, widgets::TraceOverlay *xgraphTraces, widgets::TraceState *traces);

} // namespace crossroof::app
