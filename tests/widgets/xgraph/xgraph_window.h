// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "state/trace_state.h"
#include "traces/trace_overlay.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QObject>
#include <QTest>

#include <memory>

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

/// A test of the X-graph: its window's parts as members, set by open() (in the test's init()) and gone with
/// close() (in its cleanup()).
class XGraphTest : public QObject
{
protected:
    /// A new window, drawn once; false where it was not shown.
    bool open()
    {
        m_window = std::make_unique<XGraphWindow>();
        m_state = m_window->state;
        m_eval = m_window->eval;
        m_traces = m_window->traces;
        m_view = m_window->view;
        m_plot = m_window->plot;
        m_overlay = m_window->overlay;
        if (!QTest::qWaitForWindowExposed(m_view))
            return false;
        m_plot->replot();
        return true;
    }
    void close() { m_window.reset(); }

    std::unique_ptr<XGraphWindow> m_window;
    ParameterState *m_state = nullptr;
    XModelEvaluation *m_eval = nullptr;
    TraceState *m_traces = nullptr;
    XGraphView *m_view = nullptr;
    QCustomPlot *m_plot = nullptr;
    TraceOverlay *m_overlay = nullptr;
};

} // namespace crossroof::widgets::test
