// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/cross_validation.h"

#include "core/support/error.h"

#include <cmath>

namespace crossroof::core {

void validateFolds(int folds, std::size_t rows)
{
    if (folds < 2 || std::size_t(folds) > rows)
        throw InputError("cross-validation: " + std::to_string(folds) + " folds for " + std::to_string(rows)
                         + " rows (the folds must be between 2 and the number of rows)");
}

CrossValidation summarizeFolds(int folds, std::vector<double> predictions, const Eigen::VectorXd &y)
{
    CrossValidation cv;
    cv.folds = folds;
    for (std::size_t i = 0; i < predictions.size(); ++i) {
        const double e = predictions[i] - y[Eigen::Index(i)];
        cv.mse += e * e;
        cv.mae += std::abs(e);
    }
    cv.mse /= double(predictions.size());
    cv.mae /= double(predictions.size());
    cv.rmse = std::sqrt(cv.mse);
    cv.predictions = std::move(predictions);
    return cv;
}

CrossValidation crossValidate(const RegressionData &data, const M5Options &options, int folds)
{
    validate(data);
    validate(options);
    validateFolds(folds, data.rows());
    std::vector<double> predictions(data.rows());
    std::vector<double> row(data.attributes.size());
    for (int fold = 0; fold < folds; ++fold) {
        std::vector<Eigen::Index> train;
        for (std::size_t r = 0; r < data.rows(); ++r) {
            if (foldOf(r, folds) != fold)
                train.push_back(Eigen::Index(r));
        }
        RegressionData part;
        part.target = data.target;
        part.attributes = data.attributes;
        part.x = data.x(train, Eigen::all);
        part.y = data.y(train);
        const ModelTree tree = ModelTree::train(part, options);
        for (std::size_t r = std::size_t(fold); r < data.rows(); r += std::size_t(folds)) {
            for (std::size_t a = 0; a < row.size(); ++a)
                row[a] = data.x(Eigen::Index(r), Eigen::Index(a));
            predictions[r] = tree.predict(row);
        }
    }
    return summarizeFolds(folds, std::move(predictions), data.y);
}

} // namespace crossroof::core
