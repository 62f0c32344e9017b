// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QDockWidget;
class QMainWindow;

namespace crossroof::widgets {
class KernelTableView;
class RooflineView;
class TraceOverlay;
class TracesPanel;
class TraceState;
} // namespace crossroof::widgets

namespace crossroof::app {

/// The views the kernel table works with: the roofline (its empty state opens a file in the table) and the
/// traces panel (whose Nsight Compute imports fill the table).
struct KernelViews
{
    widgets::RooflineView *roofline;
    widgets::TracesPanel *traces;
};

/// Puts KERNELS in a dock tabbed with TRACESDOCK and links it to the rest: an Nsight Compute file imported as a
/// trace fills the KernelState with the kernels the import read (a trace of a session, with its file read
/// again), the roofline's button opens a file in the table, and selected kernels are ringed on the roofline and
/// on the X-graph (XGRAPHTRACES, which draws the KernelState's kernels with its predictions). The Prediction view
/// and the roofline read the KernelState themselves. Returns the dock.
QDockWidget *addKernelsDock(QMainWindow *window, QDockWidget *tracesDock, widgets::KernelTableView *kernels,
                            KernelViews views, widgets::TraceOverlay *xgraphTraces, widgets::TraceState *traces);

} // namespace crossroof::app
