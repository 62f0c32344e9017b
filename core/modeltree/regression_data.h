// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The table a model tree learns from: numeric attributes and one numeric target, and the M5' way of turning a
// nominal attribute (a mapping strategy's name) into binary ones.

#include <Eigen/Core>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Rows of numeric attributes and the value to predict for each.
struct RegressionData {
    std::string target; ///< the predicted column's name ("p_value")
    std::vector<std::string> attributes; ///< one name per column of x
    Eigen::MatrixXd x; ///< rows x attributes
    Eigen::VectorXd y; ///< one target value per row

    std::size_t rows() const { return std::size_t(x.rows()); }
};

/// Largest magnitude of an attribute or target value: beyond it sums of squares would overflow.
inline constexpr double kMaxRegressionMagnitude = 1e100;

/// Checks that x and y agree in size, that there is a name for every attribute and that every value is
/// finite and within kMaxRegressionMagnitude. Throws InputError naming the row and attribute.
void validate(const RegressionData &data);

/// A nominal attribute as M5' sees it: its values ordered by the mean target of their rows (ascending, ties
/// by name), and K - 1 binary attributes for K values, the i-th (0-based) being 1 for the values ranked above
/// i
/// ("Mapping_Strategy=b,c" is 1 for b and c). A split on one of them is a split of the ordered values in two.
struct NominalEncoding {
    std::string attribute; ///< "Mapping_Strategy"
    std::vector<std::string> values; ///< ascending by mean target

    /// Orders the distinct LABELS by the mean of Y over their rows. Throws InputError when the sizes differ
    /// or there is no row.
    static NominalEncoding byMeanTarget(std::string attribute, std::span<const std::string> labels,
                                        std::span<const double> y);

    /// The binary attributes' names, "ATTRIBUTE=v1,v2,...", values.size() - 1 of them.
    std::vector<std::string> binaryNames() const;
    /// Position of VALUE in the order, or none.
    std::optional<std::size_t> rank(std::string_view value) const;
    /// The binary attributes of VALUE (values.size() - 1 zeros and ones). Throws InputError naming the
    /// attribute and listing the known values when VALUE is not one of them.
    std::vector<double> encode(std::string_view value) const;
};

} // namespace crossroof::core
