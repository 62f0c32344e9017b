// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The linear models at a model tree's nodes: least squares over a subset of the attributes, simplified by
// dropping terms while M5's estimated error does not grow.

#include "core/modeltree/regression_data.h"

#include <span>
#include <vector>

namespace crossroof::core {

/// target = intercept + sum coefficients[i] * x[attributes[i]].
struct LinearModel {
    std::vector<int> attributes; ///< column indices into RegressionData::x, ascending
    std::vector<double> coefficients;
    double intercept = 0;

    /// The model's value for one row of attributes (all of them, indexed by column).
    double predict(std::span<const double> row) const;
    double predict(const Eigen::MatrixXd &x, Eigen::Index row) const;
    /// Number of parameters M5's error estimate counts: the terms and the intercept.
    int parameterCount() const { return int(attributes.size()) + 1; }
};

/// M5's penalty for a model with V parameters fitted to N rows: (N + V) / (N - V), and 10 where N <= V (a
/// model with as many parameters as rows predicts nothing).
double m5ErrorFactor(std::size_t n, int v);

/// A fitted model and its estimated error: the root mean squared residual over the rows times
/// m5ErrorFactor(). (The papers use the mean absolute residual; the squared one comes from the rows'
/// cross-products without a pass over the rows, which makes trying every subset of terms cheap.)
struct FittedModel {
    LinearModel model;
    double rms_error = 0;
    double estimated_error = 0;
};

/// Least squares of DATA.y on the CANDIDATES attributes over ROWS (centred and scaled, a minimum-norm
/// solution where attributes are collinear), then terms dropped greedily: while removing one term does not
/// raise the estimated error, the term whose removal gives the lowest estimate goes (ties: the lowest
/// column). Attributes constant over ROWS never enter. ROWS must not be empty.
FittedModel fitM5Model(const RegressionData &data, std::span<const int> rows, std::vector<int> candidates);

/// Estimated errors closer than this fraction of the target's sd count as equal (the squared residual from
/// cross-products carries rounding of about 1e-8 sd), and the simpler model wins.
inline constexpr double kM5Tolerance = 1e-7;

/// The mean of DATA.y over ROWS as a model without terms, with its estimated error.
FittedModel constantModel(const RegressionData &data, std::span<const int> rows);

} // namespace crossroof::core
