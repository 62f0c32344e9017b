// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "state/trace_state.h"
#include "traces/trace_overlay.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

namespace crossroof::widgets::test {

/// An X-graph as the main window builds it, on a state of its own: the view in a 900x600 window (shown; wait
/// for it to be exposed), the measured traces drawn over it by a TraceOverlay.
struct XGraphWindow
{
    XGraphWindow()
        : state(new ParameterState)
        , eval(new XModelEvaluation(state, state))
        , traces(new TraceState(state))
        , view(new XGraphView(eval))
        , plot(view->plot())
        , overlay(new TraceOverlay(plot, traces, TraceOverlay::Target::XGraph, view))
    {
        overlay->setPrediction(TraceOverlay::xmodelPrediction(state));
        QObject::connect(eval, &XModelEvaluation::updated, overlay, &TraceOverlay::refresh);
        QObject::connect(traces, &TraceState::changed, view, &XGraphView::refresh);
        view->resize(900, 600);
        view->show();
    }
    ~XGraphWindow()
    {
        delete view;
        delete state;
    }
    XGraphWindow(const XGraphWindow &) = delete;
    XGraphWindow &operator=(const XGraphWindow &) = delete;

    /// The bundled profile ID with N warps, drawn; false where there is no such profile.
    bool setProfile(const char *id, double n)
    {
        const auto profile = core::findBundledProfile(id);
        if (!profile)
            return false;
        state->setProfile(*profile, profile->params);
        state->setValue(QStringLiteral("n"), n);
        plot->replot();
        return state->params().n == n;
    }

    ParameterState *state;
    XModelEvaluation *eval;
    TraceState *traces;
    XGraphView *view;
    QCustomPlot *plot;
    TraceOverlay *overlay;
};

} // namespace crossroof::widgets::test
