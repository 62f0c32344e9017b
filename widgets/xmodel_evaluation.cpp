// SPDX-License-Identifier: GPL-3.0-or-later
#include "xmodel_evaluation.h"

#include "error.h"
#include "parameter_state.h"

namespace crossroof::widgets {

XModelEvaluation::XModelEvaluation(ParameterState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
{
    connect(state, &ParameterState::changed, this, &XModelEvaluation::recompute);
    recompute();
}

void XModelEvaluation::recompute()
{
    try {
        m_model.emplace(m_state->params());
        m_result = m_model->solve();
        m_model->sampleCurves(kCurveSamples, m_curves);
        m_error.clear();
    } catch (const core::InputError &e) {
        m_model.reset();
        m_result = {};
        m_curves = {};
        m_error = QString::fromStdString(e.what());
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
