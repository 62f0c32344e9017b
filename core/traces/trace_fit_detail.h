// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the roofline fit (trace_fit.cpp) and the cache fits (cache_fit.cpp) share.

#include <span>

namespace crossroof::core::detail {

/// Throws InputError, prefixed with WHAT, for points a fit cannot take (trace_fit.h, fitRoofline()).
void checkPoints(std::span<const double> k, std::span<const double> y, const char *what);

/// r^2 of Y for a sum of squared residuals SSE; 1 when every y is equal and fitted exactly.
double coefficientOfDetermination(std::span<const double> y, double sse);

} // namespace crossroof::core::detail
