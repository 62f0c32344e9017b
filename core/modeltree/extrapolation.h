// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The thesis' second and third steps: model trees learn q and p from runs at small application sizes, predict
// them at the real size for every mapping strategy, and the Markov model turns each prediction into a CPI.
// q is learned from the run's description alone; p from the description and q (as in the thesis' tree, which
// splits on q), and at prediction time from the predicted q.

#include "core/markov/markov.h"
#include "core/modeltree/cross_validation.h"
#include "core/modeltree/model_tree.h"
#include "core/modeltree/training_set.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// A strategy as the training rows describe it.
struct StrategyShape {
    std::string name;
    int groups = 1; ///< Num_L2
    int threads_per_group = 1; ///< Num_threads_per_L2
    double states = 0; ///< Num_MC_States
    double last_iteration = 0; ///< the largest iteration of its rows
};

/// Most training rows the trees are grown on. A larger set is learned from about this many of its rows (at
/// least one of each strategy), spread evenly over each strategy's rows in order of size and iteration, so
/// that training and cross-validation take bounded time whatever the file's size; the strategies, their
/// encodings and the training sizes still come from every row.
inline constexpr std::size_t kTreeRowLimit = 10000;

/// The rows of SET the trees learn from, ascending: every row when there are at most LIMIT, else about LIMIT
/// spread as kTreeRowLimit describes (each strategy its share, at least one row).
std::vector<std::size_t> treeRows(const TrainingSet &set, std::size_t limit = kTreeRowLimit);

struct ExtrapolationModel {
    TrainingColumns columns;
    std::size_t rows = 0; ///< training rows
    std::size_t tree_rows = 0; ///< of them, the rows the trees were grown on (treeRows())
    NominalEncoding q_encoding; ///< the strategy ordered by mean q
    NominalEncoding p_encoding; ///< ... and by mean p
    ModelTree q_tree;
    ModelTree p_tree;
    std::vector<StrategyShape> strategies; ///< in the order they first appear
    double min_size = 0; ///< the training sizes' range
    double max_size = 0;

    const StrategyShape *findStrategy(std::string_view name) const;
};

/// The attribute table of a tree: size, iteration, Num_L2, threads per L2, the strategy's binary attributes,
/// the number of states and, for p (WITH_Q), q. Throws InputError for an unknown strategy.
RegressionData attributeTable(const std::vector<TrainingRow> &rows, const TrainingColumns &columns,
                              const NominalEncoding &strategy, bool withQ);

/// Trains both trees on SET's treeRows(SET, ROWLIMIT). Throws InputError as ModelTree::train() does.
ExtrapolationModel trainExtrapolation(const TrainingSet &set, const M5Options &options = {},
                                      std::size_t rowLimit = kTreeRowLimit);

/// One strategy at a size: the trees' (p, q), clamped to [0, 1], and the steady-state Markov CPI of its
/// groups there.
struct StrategyPrediction {
    std::string strategy;
    double size = 0;
    double iteration = 0;
    double p_tree = 0; ///< what the p tree gave, before clamping
    double q_tree = 0;
    double p = 0; ///< in [0, 1]
    double q = 0;
    bool clamped = false; ///< p or q was outside [0, 1]
    int groups = 1;
    int threads_per_group = 1;
    MarkovResult markov; ///< steady state, exact solver
};

/// STRATEGY at SIZE and ITERATION (none: the strategy's last training iteration, its steady state). The p
/// tree sees the clamped q. Throws InputError for a strategy the training rows do not have or a non-finite
/// size.
StrategyPrediction predictStrategy(const ExtrapolationModel &model, std::string_view strategy, double size,
                                   std::optional<double> iteration = std::nullopt);

/// Every strategy of the training rows at SIZE, ranked by CPI (lowest first; ties by name).
std::vector<StrategyPrediction> predictAll(const ExtrapolationModel &model, double size,
                                           std::optional<double> iteration = std::nullopt);

/// The first check: k-fold cross-validation of both trees over the rows they are grown on (treeRows(SET,
/// ROWLIMIT), dealt to the folds by foldOf(); the encodings are learned inside each fold, and the p tree is
/// tested with the measured q, as when it was trained). Throws InputError when FOLDS is not in 2..those rows.
struct ExtrapolationCv {
    CrossValidation p;
    CrossValidation q;
    std::size_t rows = 0; ///< the rows validated
};
ExtrapolationCv crossValidateExtrapolation(const TrainingSet &set, const M5Options &options = {},
                                           int folds = 10, std::size_t rowLimit = kTreeRowLimit);

/// The second check: predicted against measured CPI where a measurement exists.
struct CpiCheckRow {
    CpiMeasurement measured;
    StrategyPrediction predicted;
    double error_percent
            = 0; ///< 100 (predicted - measured) / measured; +infinity where the model says infinite
};

struct CpiCheck {
    std::vector<CpiCheckRow> rows;
    double mean_error_percent = 0; ///< over the finite errors
    double sd_error_percent = 0; ///< their standard deviation (population)
    double mean_abs_error_percent = 0;
    int infinite = 0; ///< rows where the predicted CPI is infinite
};

/// Throws InputError naming the line for a measurement of an unknown strategy, or when there is none.
CpiCheck checkCpi(const ExtrapolationModel &model, const std::vector<CpiMeasurement> &measured);

} // namespace crossroof::core
