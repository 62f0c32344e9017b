// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace crossroof::widgets {

class ParameterState;

/// Solves the X-model once per state change and shares the result with every view that draws it
/// (X-graph, readout), so a slider move costs one model evaluation however many views listen.
class XModelEvaluation : public QObject
{
    Q_OBJECT
public:
    /// How closely the drawn curves follow f and G, as a share of f's height: a twentieth of a pixel on a
    /// figure 2,600 pixels tall, 178 mm at 600 dpi (XModel::sampleCurvesAdaptive).
    static constexpr double kCurveTolerance = 2e-5;

    explicit XModelEvaluation(ParameterState *state, QObject *parent = nullptr);

    ParameterState *state() const { return m_state; }

    /// The model of the current parameters; empty only if they are invalid (then error() says why).
    const std::optional<core::XModel> &model() const { return m_model; }
    const core::XGraphResult &result() const { return m_result; }
    const core::XGraphCurves &curves() const { return m_curves; }
    const QString &error() const { return m_error; }

    /// The what-ifs of the compare mode, evaluated like the current parameters, in the state's order.
    struct Comparison
    {
        QString label;
        core::XGraphResult result;
        core::XGraphCurves curves;
    };
    const std::vector<Comparison> &comparisons() const { return m_comparisons; }

    /// Recomputes from the state now (also called on every state change).
    void recompute();

Q_SIGNALS:
    void updated();

private:
    ParameterState *m_state;
    std::optional<core::XModel> m_model;
    core::XGraphResult m_result;
    core::XGraphCurves m_curves;
    QString m_error;
    std::vector<Comparison> m_comparisons;
};

} // namespace crossroof::widgets
