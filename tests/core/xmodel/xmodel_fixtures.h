// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the X-model's tests share: random machines and workloads around the thrashing Fermi.

#include "model_fixtures.h"
#include "core/xmodel/parameters.h"

#include <cmath>
#include <random>

namespace crossroof::xmodel_test {

/// A machine and workload drawn over wide ranges (log-uniform where a parameter spans decades), any cache mode,
/// half of them bypassing the cache.
inline core::XModelParams randomParams(std::mt19937_64 &rng)
{
    auto logUniform = [&](double lo, double hi) {
        return lo * std::pow(hi / lo, std::uniform_real_distribution<double>(0, 1)(rng));
    };
    core::XModelParams p = test::thrashingFermi();
    p.n = std::round(logUniform(1, 256));
    p.Z = logUniform(0.05, 2000);
    p.E = logUniform(0.2, 8);
    p.R = logUniform(20, 4000);
    p.L = logUniform(50, 2000);
    p.M = logUniform(0.1, 16);
    p.S_s = logUniform(1, 512);
    p.L_s = logUniform(5, 200);
    p.alpha = std::uniform_real_distribution<double>(1, 8)(rng);
    p.beta = logUniform(0.01, 50);
    p.h = std::uniform_real_distribution<double>(0, 1)(rng);
    p.cache = core::CacheMode(std::uniform_int_distribution<int>(0, 2)(rng));
    if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.5)
        p.bypass = std::uniform_real_distribution<double>(0, 0.95)(rng);
    return p;
}

} // namespace crossroof::xmodel_test
