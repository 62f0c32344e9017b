// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/extrapolate_evaluation.h"

#include "core/support/error.h"

#include <algorithm>
#include <utility>

namespace crossroof::widgets {

ExtrapolateEvaluation::ExtrapolateEvaluation(QObject *parent)
    : QObject(parent)
    , m_job(this, [this](Trained trained) { arrived(std::move(trained)); })
{
}

void ExtrapolateEvaluation::setTrainingSet(core::TrainingSet set)
{
    requestTraining(std::move(set), true);
}

void ExtrapolateEvaluation::setSmoothing(bool smooth)
{
    if (smooth == m_smooth)
        return;
    m_smooth = smooth;
    if (m_requested)
        requestTraining(*m_requested, false); // the same rows: the target size stays
}

void ExtrapolateEvaluation::requestTraining(core::TrainingSet set, bool newSet)
{
    m_requested = set;
    core::M5Options options;
    options.smooth = m_smooth;
    // The work owns its copy of the set: the GUI thread may ask for another meanwhile.
    m_job.request([set = std::move(set), newSet, options, generation = m_generation](std::stop_token) mutable {
        Trained trained;
        trained.newSet = newSet;
        trained.generation = generation;
        try {
            trained.model = core::trainExtrapolation(set, options);
            trained.folds = int(std::min<std::size_t>(10, set.rows.size()));
            trained.cv = core::crossValidateExtrapolation(set, options, trained.folds);
        } catch (const core::InputError &e) {
            trained.model.reset();
            trained.error = QString::fromStdString(e.what());
        }
        trained.set = std::move(set);
        return trained;
    });
}

void ExtrapolateEvaluation::clear()
{
    ++m_generation;
    m_requested.reset();
    m_set.reset();
    m_model.reset();
    m_cv.reset();
    m_folds = 0;
    m_target = 0;
    m_predictions.clear();
    m_predictionError.clear();
    m_curves.clear();
    m_measured.clear();
    m_measuredSource.clear();
    m_check.reset();
    m_checkError.clear();
    Q_EMIT cleared();
}

void ExtrapolateEvaluation::arrived(Trained trained)
{
    if (trained.generation != m_generation)
        return; // asked for before clear()
    if (!trained.model) {
        // Refused: what is shown stays, and a smoothing change retrains the set that was trained (unless a
        // newer set is on its way).
        if (!m_job.busy())
            m_requested = m_set;
        Q_EMIT refused(trained.error);
        return;
    }
    m_model = std::move(trained.model);
    m_cv = trained.cv;
    m_folds = trained.folds;
    m_set = std::move(trained.set);
    if (trained.newSet)
        m_target = defaultTargetSize(*m_set);
    Q_EMIT modelChanged();
    predict();
    checkMeasured();
}

double ExtrapolateEvaluation::defaultTargetSize(const core::TrainingSet &set)
{
    std::vector<double> sizes;
    for (const core::TrainingRow &r : set.rows)
        sizes.push_back(r.size);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.empty())
        return 0;
    const double largest = sizes.back();
    if (sizes.size() >= 2)
        return largest + (largest - sizes[sizes.size() - 2]);
    return largest > 0 ? 2 * largest : largest + 1;
}

void ExtrapolateEvaluation::setMeasured(std::vector<core::CpiMeasurement> measured, std::string source)
{
    m_measured = std::move(measured);
    m_measuredSource = m_measured.empty() ? std::string() : std::move(source);
    checkMeasured();
}

void ExtrapolateEvaluation::checkMeasured()
{
    m_check.reset();
    m_checkError.clear();
    if (m_model && !m_measured.empty()) {
        try {
            m_check = core::checkCpi(*m_model, m_measured);
        } catch (const core::InputError &e) {
            m_checkError = QString::fromStdString(e.what());
        }
    }
    Q_EMIT checkChanged();
}

std::optional<double> ExtrapolateEvaluation::measuredCpi(const std::string &strategy, double size) const
{
    const core::CpiMeasurement *best = nullptr;
    for (const core::CpiMeasurement &m : m_measured) {
        if (m.strategy == strategy && m.size == size
            && (!best || m.iteration.value_or(0) >= best->iteration.value_or(0)))
            best = &m;
    }
    if (!best)
        return std::nullopt;
    return best->cpi;
}

void ExtrapolateEvaluation::setTargetSize(double size)
{
    m_target = size;
    if (m_model)
        predict();
}

void ExtrapolateEvaluation::predict()
{
    m_predictions.clear();
    m_predictionError.clear();
    m_curves.clear();
    try {
        m_predictions = core::predictAll(*m_model, m_target);
    } catch (const core::InputError &e) {
        m_predictionError = QString::fromStdString(e.what());
    }
    m_from = std::min(m_model->min_size, m_target);
    m_to = std::max(m_model->max_size, m_target);
    for (const core::StrategyShape &s : m_model->strategies) {
        StrategyCurves c;
        c.strategy = s.name;
        for (const core::TrainingRow &r : m_set->rows) {
            if (r.strategy == s.name && r.iteration == s.last_iteration) {
                c.point_size.push_back(r.size);
                c.point_p.push_back(r.p);
                c.point_q.push_back(r.q);
            }
        }
        for (int i = 0; i < kCurvePoints; ++i) {
            const double size = m_to > m_from ? m_from + (m_to - m_from) * i / (kCurvePoints - 1) : m_from;
            try {
                const core::StrategyPrediction p = core::predictStrategy(*m_model, s.name, size);
                c.curve_size.push_back(size);
                c.curve_p.push_back(p.p);
                c.curve_q.push_back(p.q);
            } catch (const core::InputError &) {
                // No finite prediction there: the curve has a gap.
            }
        }
        m_curves.push_back(std::move(c));
    }
    Q_EMIT predictionsChanged();
}

} // namespace crossroof::widgets
