// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_links.h"

#include "docks.h"

#include "common/native_path.h"
#include "kernels/kernel_table_view.h"
#include "roofline/roofline_view.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"
#include "traces/trace_overlay.h"
#include "traces/traces_panel.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QPushButton>
#include <QStatusBar>

namespace crossroof::app {

using namespace crossroof::widgets;

QDockWidget *addKernelsDock(QMainWindow *window, QDockWidget *tracesDock, KernelTableView *kernels,
                            KernelViews views, TraceOverlay *xgraphTraces, TraceState *traces)
{
    auto *dock = addDock(window, Qt::RightDockWidgetArea, QMainWindow::tr("Kernels"), QStringLiteral("KernelsDock"),
                         kernels);
    window->tabifyDockWidget(tracesDock, dock);
    KernelState *state = kernels->kernels();
    RooflineView *roofline = views.roofline;
    QObject::connect(kernels, &KernelTableView::selectionChanged, roofline, &RooflineView::setHighlighted);
    QObject::connect(roofline, &RooflineView::openKernelsRequested, kernels, [dock, kernels] {
        dock->show();
        dock->raise();
        kernels->openButton()->click();
    });
    xgraphTraces->setKernels(state);
    QObject::connect(kernels, &KernelTableView::selectionChanged, xgraphTraces, &TraceOverlay::setHighlighted);
    // An import hands over the kernels it read, before it adds their trace; a trace of a session has its file
    // read here.
    QObject::connect(views.traces, &TracesPanel::kernelsRead, state, &KernelState::setReport);
    QObject::connect(traces, &TraceState::traceAdded, kernels, [kernels, traces, state](const QString &id) {
        const core::MeasuredTrace *t = traces->trace(id);
        if (!t || !t->origin || t->origin->format != core::TraceFormat::NcuCsv)
            return;
        if (!(state->report() && state->report()->source == t->source))
            kernels->loadFile(widgets::pathFromNative(t->source));
    });
    QObject::connect(kernels, &KernelTableView::message, window,
                     [window](const QString &text) { window->statusBar()->showMessage(text, 6000); });
    return dock;
}

} // namespace crossroof::app
