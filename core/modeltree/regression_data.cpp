// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/regression_data.h"

#include "core/support/error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace crossroof::core {

void validate(const RegressionData &data)
{
    if (data.x.rows() != data.y.size())
        throw InputError("regression data: " + std::to_string(data.x.rows()) + " rows of attributes but "
                         + std::to_string(data.y.size()) + " target values");
    if (std::size_t(data.x.cols()) != data.attributes.size())
        throw InputError("regression data: " + std::to_string(data.x.cols()) + " attribute columns but "
                         + std::to_string(data.attributes.size()) + " names");
    for (Eigen::Index r = 0; r < data.x.rows(); ++r) {
        if (!(std::abs(data.y[r]) <= kMaxRegressionMagnitude))
            throw InputError("regression data: row " + std::to_string(r + 1) + ": target '" + data.target
                             + "' is not a finite number within 1e100");
        for (Eigen::Index c = 0; c < data.x.cols(); ++c) {
            if (!(std::abs(data.x(r, c)) <= kMaxRegressionMagnitude))
                throw InputError("regression data: row " + std::to_string(r + 1) + ": attribute '"
                                 + data.attributes[std::size_t(c)] + "' is not a finite number within 1e100");
        }
    }
}

NominalEncoding NominalEncoding::byMeanTarget(std::string attribute, std::span<const std::string> labels,
                                              std::span<const double> y)
{
    if (labels.size() != y.size())
        throw InputError("attribute '" + attribute + "': " + std::to_string(labels.size()) + " values but "
                         + std::to_string(y.size()) + " targets");
    if (labels.empty())
        throw InputError("attribute '" + attribute + "': no rows");
    std::map<std::string, std::pair<double, std::size_t>, std::less<>> sums;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        auto &[sum, count] = sums[labels[i]];
        sum += y[i];
        ++count;
    }
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto &[label, sc] : sums)
        ranked.emplace_back(sc.first / double(sc.second), label);
    std::sort(ranked.begin(), ranked.end());
    NominalEncoding e;
    e.attribute = std::move(attribute);
    for (auto &[mean, label] : ranked)
        e.values.push_back(std::move(label));
    return e;
}

std::vector<std::string> NominalEncoding::binaryNames() const
{
    std::vector<std::string> names;
    for (std::size_t i = 1; i < values.size(); ++i) {
        std::string name = attribute + "=";
        for (std::size_t v = i; v < values.size(); ++v)
            name += (v == i ? "" : ",") + values[v];
        names.push_back(std::move(name));
    }
    return names;
}

std::optional<std::size_t> NominalEncoding::rank(std::string_view value) const
{
    const auto it = std::find(values.begin(), values.end(), value);
    if (it == values.end())
        return std::nullopt;
    return std::size_t(it - values.begin());
}

std::vector<double> NominalEncoding::encode(std::string_view value) const
{
    const std::optional<std::size_t> r = rank(value);
    if (!r) {
        std::string known;
        for (const std::string &v : values)
            known += (known.empty() ? "" : ", ") + v;
        throw InputError("attribute '" + attribute + "': unknown value '" + std::string(value)
                         + "' (the training rows have " + known + ")");
    }
    std::vector<double> bits(values.empty() ? 0 : values.size() - 1, 0.0);
    for (std::size_t i = 0; i < bits.size(); ++i)
        bits[i] = *r > i ? 1.0 : 0.0;
    return bits;
}

} // namespace crossroof::core
