// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDockWidget;
class QMainWindow;

namespace crossroof::widgets {
class KernelTableView;
class RooflineView;
class TraceOverlay;
class TraceState;
} // namespace crossroof::widgets

namespace crossroof::app {

/// Puts KERNELS in a dock tabbed with TRACESDOCK and links it to the rest: an imported Nsight Compute file
/// fills the table, the table's report is drawn on the ROOFLINE, and selected kernels are ringed there and
/// on the X-graph (XGRAPHTRACES). Returns the dock.
QDockWidget *addKernelsDock(QMainWindow *window, QDockWidget *tracesDock, widgets::KernelTableView *kernels,
                            widgets::RooflineView *roofline, widgets::TraceOverlay *xgraphTraces,
                            widgets::TraceState *traces);

} // namespace crossroof::app
