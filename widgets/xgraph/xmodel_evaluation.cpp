// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/xmodel_evaluation.h"

#include "common/vector_state.h"

#include "core/support/error.h"
#include "common/parameter_state.h"

namespace crossroof::widgets {

XModelEvaluation::XModelEvaluation(ParameterState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
{
    connect(state, &ParameterState::changed, this, &XModelEvaluation::recompute);
    connect(state, &ParameterState::comparisonChanged, this, &XModelEvaluation::recompute);
    recompute();
}

void XModelEvaluation::recompute()
{
    clearUpperVectorState(); // a parameter change reaches here past QString-keyed lookups
    try {
        m_model.emplace(m_state->params());
        m_result = m_model->solve();
        m_model->sampleCurvesAdaptive(kCurveTolerance, m_curves, m_result.landmarks);
        m_error.clear();
    } catch (const core::InputError &e) {
        m_model.reset();
        m_result = {};
        m_curves = {};
        m_error = QString::fromStdString(e.what());
    }
    m_comparisons.clear();
    for (const auto &whatIf : m_state->comparisons()) {
        try {
            const core::XModel model(whatIf.params);
            Comparison c;
            c.label = whatIf.label;
            c.result = model.solve();
            model.sampleCurvesAdaptive(kCurveTolerance, c.curves, c.result.landmarks);
            m_comparisons.push_back(std::move(c));
        } catch (const core::InputError &) {
            // An invalid what-if is simply not drawn; the advisor only offers valid ones.
        }
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
