// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// k-fold cross-validation of a model tree: each fold predicted by a tree trained on the others.

#include "core/modeltree/model_tree.h"

#include <cstddef>
#include <vector>

namespace crossroof::core {

/// The fold a row belongs to: rows are dealt to the folds in turn (row i to fold i mod K), so that runs
/// listed in order of size or iteration spread over every fold, and the split is the same on every run.
inline int foldOf(std::size_t row, int folds)
{
    return int(row % std::size_t(folds));
}

/// Checks that FOLDS is in 2..ROWS; throws InputError otherwise.
void validateFolds(int folds, std::size_t rows);

struct CrossValidation {
    int folds = 0;
    double mse = 0; ///< mean squared error of the held-out predictions
    double mae = 0; ///< mean absolute error
    double rmse = 0;
    std::vector<double> predictions; ///< per row, from the tree that did not see it
};

/// K-fold cross-validation of M5' trees with OPTIONS on DATA (foldOf()). Throws InputError for bad folds or
/// data (as ModelTree::train()).
CrossValidation crossValidate(const RegressionData &data, const M5Options &options = {}, int folds = 10);

/// The summary figures of held-out PREDICTIONS against the measured Y.
CrossValidation summarizeFolds(int folds, std::vector<double> predictions, const Eigen::VectorXd &y);

} // namespace crossroof::core
