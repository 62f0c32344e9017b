// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/occupancy/runtime_fit.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>

namespace crossroof::core {

namespace {

void checkSample(const RuntimeSample &s, std::size_t index)
{
    const std::string where = "runtime sample " + std::to_string(index + 1) + ": ";
    if (!std::isfinite(s.requested_blocks) || s.requested_blocks < 0)
        throw InputError(where + "requested blocks B_r must be a finite number >= 0 (got "
                         + formatNumber(s.requested_blocks) + ")");
    if (!std::isfinite(s.threads_per_core) || s.threads_per_core <= 0)
        throw InputError(where + "threads per core T must be a finite number > 0 (got "
                         + formatNumber(s.threads_per_core) + ")");
    if (!std::isfinite(s.time))
        throw InputError(where + "the time must be a finite number (got " + formatNumber(s.time) + ")");
}

} // namespace

double runtimeAbscissa(double requestedBlocks, double threadsPerCore)
{
    return std::sqrt(requestedBlocks) / threadsPerCore;
}

RuntimeFit fitRuntime(std::span<const RuntimeSample> samples)
{
    if (samples.size() < 2) {
        throw InputError("runtime fit: needs at least 2 samples (got " + std::to_string(samples.size())
                         + ")");
    }
    const auto n = Eigen::Index(samples.size());
    Eigen::MatrixXd design(n, 2);
    Eigen::VectorXd time(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const RuntimeSample &s = samples[std::size_t(i)];
        checkSample(s, std::size_t(i));
        design(i, 0) = runtimeAbscissa(s.requested_blocks, s.threads_per_core);
        design(i, 1) = 1;
        time(i) = s.time;
    }
    // The slope needs at least two distinct abscissae; "distinct" beyond rounding noise of their size.
    const double lo = design.col(0).minCoeff();
    const double hi = design.col(0).maxCoeff();
    if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {
        throw InputError("runtime fit: every sample has the same sqrt(B_r)/T = " + formatNumber(lo)
                         + ", so the slope a1 is undetermined");
    }
    const Eigen::Vector2d coef = design.colPivHouseholderQr().solve(time); // Eq. 15
    RuntimeFit fit;
    fit.a1 = coef(0);
    fit.a0 = coef(1);
    fit.points = samples.size();
    const Eigen::VectorXd residual = time - design * coef;
    const double ssRes = residual.squaredNorm();
    const double ssTot = (time.array() - time.mean()).matrix().squaredNorm();
    fit.r2 = ssTot > 0 ? 1 - ssRes / ssTot : 1.0;
    fit.rmse = std::sqrt(ssRes / double(n));
    return fit;
}

} // namespace crossroof::core
