// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small statistics the fits and their reports share.

#include <algorithm>
#include <vector>

namespace crossroof::core {

/// The median of VALUES (the mean of the middle two for an even count); VALUES must not be empty.
inline double median(std::vector<double> values)
{
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2)
        return upper;
    return (*std::max_element(values.begin(), values.begin() + std::ptrdiff_t(mid)) + upper) / 2;
}

} // namespace crossroof::core
