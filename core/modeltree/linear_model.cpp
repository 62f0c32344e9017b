// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/linear_model.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <optional>

namespace crossroof::core {

double LinearModel::predict(std::span<const double> row) const
{
    double v = intercept;
    for (std::size_t i = 0; i < attributes.size(); ++i)
        v += coefficients[i] * row[std::size_t(attributes[i])];
    return v;
}

double LinearModel::predict(const Eigen::MatrixXd &x, Eigen::Index row) const
{
    double v = intercept;
    for (std::size_t i = 0; i < attributes.size(); ++i)
        v += coefficients[i] * x(row, attributes[i]);
    return v;
}

double m5ErrorFactor(std::size_t n, int v)
{
    const double dn = double(n);
    const double dv = double(v);
    return dn > dv ? (dn + dv) / (dn - dv) : 10.0;
}

namespace {

/// The centred cross-products of the candidate attributes and the target over a node's rows: every subset's
/// least-squares fit is a small solve on a block of them.
struct NodeMoments {
    std::vector<int> attributes;
    Eigen::VectorXd mean_x;
    double mean_y = 0;
    Eigen::MatrixXd sxx; ///< sum (x_i - mean)(x_j - mean)
    Eigen::VectorXd sxy; ///< sum (x_i - mean)(y - mean)
    double syy = 0; ///< sum (y - mean)^2
    std::size_t n = 0;
};

NodeMoments moments(const RegressionData &data, std::span<const int> rows, const std::vector<int> &candidates)
{
    const double n = double(rows.size());
    double my = 0;
    for (int r : rows)
        my += data.y[r];
    my /= n;
    // Constant attributes (within a relative tolerance of their scale) cannot enter a model.
    NodeMoments m;
    m.mean_y = my;
    m.n = rows.size();
    for (int r : rows)
        m.syy += (data.y[r] - my) * (data.y[r] - my);
    std::vector<double> means;
    for (int a : candidates) {
        double mean = 0;
        double lo = data.x(rows[0], a);
        double hi = lo;
        for (int r : rows) {
            const double v = data.x(r, a);
            mean += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi)) || hi == lo)
            continue;
        m.attributes.push_back(a);
        means.push_back(mean / n);
    }
    const Eigen::Index k = Eigen::Index(m.attributes.size());
    m.mean_x = Eigen::Map<const Eigen::VectorXd>(means.data(), k);
    m.sxx = Eigen::MatrixXd::Zero(k, k);
    m.sxy = Eigen::VectorXd::Zero(k);
    Eigen::VectorXd d(k);
    for (int r : rows) {
        for (Eigen::Index i = 0; i < k; ++i)
            d[i] = data.x(r, m.attributes[std::size_t(i)]) - m.mean_x[i];
        m.sxx.selfadjointView<Eigen::Lower>().rankUpdate(d);
        m.sxy += d * (data.y[r] - my);
    }
    m.sxx = m.sxx.selfadjointView<Eigen::Lower>();
    return m;
}

/// The least-squares model on the attributes of M at positions SUBSET, with its mean absolute residual.
FittedModel fitSubset(const NodeMoments &m, const std::vector<Eigen::Index> &subset)
{
    const Eigen::Index k = Eigen::Index(subset.size());
    FittedModel f;
    f.model.intercept = m.mean_y;
    double sse = m.syy;
    if (k > 0) {
        Eigen::MatrixXd a(k, k);
        Eigen::VectorXd b(k);
        Eigen::VectorXd scale(k);
        for (Eigen::Index i = 0; i < k; ++i)
            scale[i] = std::sqrt(m.sxx(subset[std::size_t(i)], subset[std::size_t(i)]));
        for (Eigen::Index i = 0; i < k; ++i) {
            b[i] = m.sxy[subset[std::size_t(i)]] / scale[i];
            for (Eigen::Index j = 0; j < k; ++j)
                a(i, j) = m.sxx(subset[std::size_t(i)], subset[std::size_t(j)]) / (scale[i] * scale[j]);
        }
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
        cod.setThreshold(1e-10);
        const Eigen::VectorXd beta = cod.solve(b).cwiseQuotient(scale);
        for (Eigen::Index i = 0; i < k; ++i) {
            const Eigen::Index at = subset[std::size_t(i)];
            f.model.attributes.push_back(m.attributes[std::size_t(at)]);
            f.model.coefficients.push_back(beta[i]);
            f.model.intercept -= beta[i] * m.mean_x[at];
            sse -= beta[i] * m.sxy[at]; // the least-squares residual is orthogonal to the fitted part
        }
    }
    f.rms_error = std::sqrt(std::max(0.0, sse) / double(m.n));
    f.estimated_error = f.rms_error * m5ErrorFactor(m.n, f.model.parameterCount());
    return f;
}

} // namespace

FittedModel constantModel(const RegressionData &data, std::span<const int> rows)
{
    return fitSubset(moments(data, rows, {}), {});
}

FittedModel fitM5Model(const RegressionData &data, std::span<const int> rows, std::vector<int> candidates)
{
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    const NodeMoments m = moments(data, rows, candidates);
    std::vector<Eigen::Index> subset(m.attributes.size());
    for (std::size_t i = 0; i < subset.size(); ++i)
        subset[i] = Eigen::Index(i);
    FittedModel best = fitSubset(m, subset);
    // Rounding noise must not decide between models that fit equally well.
    const double tolerance = kM5Tolerance * std::sqrt(m.syy / double(m.n));
    while (!subset.empty()) {
        std::optional<FittedModel> bestDrop;
        std::size_t dropAt = 0;
        for (std::size_t i = 0; i < subset.size(); ++i) {
            std::vector<Eigen::Index> smaller = subset;
            smaller.erase(smaller.begin() + std::ptrdiff_t(i));
            FittedModel f = fitSubset(m, smaller);
            if (!bestDrop || f.estimated_error < bestDrop->estimated_error - tolerance) {
                bestDrop = std::move(f);
                dropAt = i;
            }
        }
        if (bestDrop->estimated_error > best.estimated_error + tolerance)
            break;
        best = std::move(*bestDrop);
        subset.erase(subset.begin() + std::ptrdiff_t(dropAt));
    }
    return best;
}

} // namespace crossroof::core
