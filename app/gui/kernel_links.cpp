// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_links.h"

#include "docks.h"

#include "common/native_path.h"
#include "kernels/kernel_table_view.h"
#include "kernels/prediction_view.h"
#include "roofline/roofline_view.h"
#include "traces/trace_overlay.h"
#include "state/trace_state.h"

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
    RooflineView *roofline = views.roofline;
    QObject::connect(kernels, &KernelTableView::reportChanged, roofline,
                     [kernels, roofline] { roofline->setReport(kernels->report()); });
    QObject::connect(kernels, &KernelTableView::reportChanged, views.prediction,
                     [kernels, prediction = views.prediction] { prediction->setReport(kernels->report()); });
    QObject::connect(kernels, &KernelTableView::selectionChanged, roofline, &RooflineView::setHighlighted);
    QObject::connect(roofline, &RooflineView::openKernelsRequested, kernels, [dock, kernels] {
        dock->show();
        dock->raise();
        kernels->openButton()->click();
    });
    QObject::connect(kernels, &KernelTableView::selectionChanged, xgraphTraces, &TraceOverlay::setHighlighted);
    QObject::connect(traces, &TraceState::traceAdded, kernels, [kernels, traces](const QString &id) {
        const core::MeasuredTrace *t = traces->trace(id);
        if (t && t->origin && t->origin->format == core::TraceFormat::NcuCsv)
            kernels->loadFile(widgets::pathFromNative(t->source));
    });
    QObject::connect(kernels, &KernelTableView::message, window,
                     [window](const QString &text) { window->statusBar()->showMessage(text, 6000); });
    return dock;
}

} // namespace crossroof::app
