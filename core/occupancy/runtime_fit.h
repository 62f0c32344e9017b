// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <span>

namespace crossroof::core {

/// One measured run: the requested blocks B_r, the threads per core T and the runtime.
struct RuntimeSample
{
    double requested_blocks = 1; ///< B_r
    double threads_per_core = 1; ///< T
    double time = 0;             ///< measured runtime, any unit
};

/// The abscissa of Eq. 15, sqrt(B_r) / T: the memory-bound runtime is linear in it (Eq. 14).
double runtimeAbscissa(double requestedBlocks, double threadsPerCore);

/// Least-squares calibration Time = a1 * sqrt(B_r)/T + a0 (Eq. 15; the paper's Fig. 2 has a1 = 0.957,
/// a0 = 53.9, r^2 = 0.9916).
struct RuntimeFit
{
    double a1 = 0;
    double a0 = 0;
    double r2 = 1;   ///< coefficient of determination; 1 when the times are all equal and fitted exactly
    double rmse = 0; ///< root-mean-square residual, in the unit of the times
    std::size_t points = 0;

    double predict(double requestedBlocks, double threadsPerCore) const
    {
        return a1 * runtimeAbscissa(requestedBlocks, threadsPerCore) + a0;
    }
};

/// Fits Eq. 15 with Eigen's QR. Throws InputError with fewer than 2 samples, a sample with B_r < 0, T <= 0 or
/// a non-finite value (named by its index), or when every sample has the same sqrt(B_r)/T (the slope is then
/// undetermined).
RuntimeFit fitRuntime(std::span<const RuntimeSample> samples);

} // namespace crossroof::core
