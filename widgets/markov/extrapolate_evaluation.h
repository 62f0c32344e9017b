// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/latest_job.h"
#include "core/modeltree/extrapolation.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace crossroof::widgets {

/// What the Extrapolate panel shows (MODEL.md 9), computed from its inputs: the M5' model trees trained on a
/// training set with the smoothing chosen and their k-fold cross-validation (off the GUI thread through
/// LatestJob: a large set takes a while), every strategy's predicted (p, q) and Markov CPI at the target
/// size, ranked, and per strategy the training points and the extrapolated curves the chart draws (on the GUI
/// thread when the target size or the trees change). A set the trees refuse leaves everything as it was and
/// emits refused().
class ExtrapolateEvaluation : public QObject
{
    Q_OBJECT
public:
    /// Points of each strategy's extrapolated curve.
    static constexpr int kCurvePoints = 60;

    /// One strategy on the chart: its training points at its last iteration and its extrapolated curve from
    /// curveFrom() to curveTo() (a gap where the trees give no finite value), p and q both.
    struct StrategyCurves {
        std::string strategy;
        std::vector<double> point_size, point_p, point_q;
        std::vector<double> curve_size, curve_p, curve_q;
    };

    explicit ExtrapolateEvaluation(QObject *parent = nullptr);

    /// Trains and cross-validates SET in the background; when it arrives the target size becomes
    /// defaultTargetSize() of it and modelChanged() then predictionsChanged() follow (refused() if the trees
    /// refuse it).
    void setTrainingSet(core::TrainingSet set);
    /// Retrains the last set asked for with M5 smoothing on or off; the target size stays.
    void setSmoothing(bool smooth);
    bool smoothing() const { return m_smooth; }
    /// Forgets the set, the trees, the measured CPI and any training still running (its result is dropped
    /// when it arrives); cleared() follows. Smoothing stays as chosen.
    void clear();
    /// Predicts at SIZE with the trees there are (none yet: kept for them); predictionsChanged() follows.
    void setTargetSize(double size);
    double targetSize() const { return m_target; }
    /// The target size a new set starts with: one size step past its largest training size (the step between
    /// its two largest sizes; twice the largest where all rows have one size), so that it extrapolates.
    static double defaultTargetSize(const core::TrainingSet &set);

    /// CPI measured at larger sizes (readCpiMeasurements()) and the file they came from: the predictions are
    /// checked against them (checkCpi()) whenever there are trees; checkChanged() follows. Empty: none.
    void setMeasured(std::vector<core::CpiMeasurement> measured, std::string source);
    const std::vector<core::CpiMeasurement> &measured() const { return m_measured; }
    const std::string &measuredSource() const { return m_measuredSource; }
    /// Predicted against measured CPI at every measurement (none without trees or measurements, or when the
    /// measurements name a strategy the trees do not know: checkError() says so).
    const std::optional<core::CpiCheck> &check() const { return m_check; }
    const QString &checkError() const { return m_checkError; }
    /// The CPI measured for STRATEGY at SIZE (of its largest iteration there), if any.
    std::optional<double> measuredCpi(const std::string &strategy, double size) const;

    /// Whether a training runs or waits.
    bool busy() const { return m_job.busy(); }
    /// Blocks until every training asked for has arrived and been announced (tests, figure export).
    void wait() { m_job.wait(); }

    /// The set the trees shown were trained on, the trees and their cross-validation (none before the first
    /// set is trained).
    const std::optional<core::TrainingSet> &trainingSet() const { return m_set; }
    /// The last set asked for that the trees have not refused (yet): what a session saves.
    const std::optional<core::TrainingSet> &requestedSet() const { return m_requested; }
    const std::optional<core::ExtrapolationModel> &model() const { return m_model; }
    const std::optional<core::ExtrapolationCv> &crossValidation() const { return m_cv; }
    /// The number of cross-validation folds: ten, or one per row for fewer rows.
    int folds() const { return m_folds; }

    /// Every strategy at the target size, lowest CPI first; empty without trees or when the trees cannot
    /// predict there (predictionError() says why).
    const std::vector<core::StrategyPrediction> &predictions() const { return m_predictions; }
    const QString &predictionError() const { return m_predictionError; }
    /// The chart's data per strategy, in the order of the training file; the curves span the training sizes
    /// and the target size.
    const std::vector<StrategyCurves> &curves() const { return m_curves; }
    double curveFrom() const { return m_from; }
    double curveTo() const { return m_to; }

Q_SIGNALS:
    /// New trees (a new set, or the smoothing changed).
    void modelChanged();
    /// New predictions and curves (predictionError() set if there are none).
    void predictionsChanged();
    /// The trees refused the set asked for: MESSAGE says why; nothing changed.
    void refused(const QString &message);
    /// clear(): no set, no trees.
    void cleared();
    /// New measurements, or new trees to check them against.
    void checkChanged();

private:
    struct Trained {
        core::TrainingSet set;
        bool newSet = false;
        std::optional<core::ExtrapolationModel> model; ///< none: refused
        core::ExtrapolationCv cv;
        int folds = 0;
        QString error;
        int generation = 0; ///< the clear() it was asked for after
    };
    void requestTraining(core::TrainingSet set, bool newSet);
    void arrived(Trained trained);
    void predict();
    void checkMeasured();

    bool m_smooth = true;
    double m_target = 0;
    /// The last set asked for: what a smoothing change retrains.
    std::optional<core::TrainingSet> m_requested;
    std::optional<core::TrainingSet> m_set;
    std::optional<core::ExtrapolationModel> m_model;
    std::optional<core::ExtrapolationCv> m_cv;
    int m_folds = 0;
    std::vector<core::StrategyPrediction> m_predictions;
    QString m_predictionError;
    std::vector<StrategyCurves> m_curves;
    std::vector<core::CpiMeasurement> m_measured;
    std::string m_measuredSource;
    std::optional<core::CpiCheck> m_check;
    QString m_checkError;
    double m_from = 0;
    double m_to = 0;
    int m_generation = 0; ///< clear()s so far: a training asked for before the last one is dropped
    LatestJob<Trained> m_job;
};

} // namespace crossroof::widgets
