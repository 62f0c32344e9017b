// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/numbers.h"

namespace crossroof::core {

std::optional<double> parseNumber(std::string_view text)
{
    double value = 0;
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

bool isNumberOutOfRange(std::string_view text)
{
    double value = 0;
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return !text.empty() && ec == std::errc::result_out_of_range && ptr == end;
}

} // namespace crossroof::core
