// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole-string number parsing: the one way core, the CLI and the readers turn a field of text into a number.

#include <charconv>
#include <concepts>
#include <optional>
#include <string_view>
#include <system_error>

namespace crossroof::core {

/// TEXT, all of it, as a number in std::from_chars' general format: an optional '-', digits with an optional
/// '.' fraction and 'e' exponent, or "inf", "infinity", "nan" (any case). Returns none for empty text, a
/// leading '+' or blank, trailing characters, or a value out of the range of double. NaN and infinities
/// are returned as such; callers that need finite values check.
std::optional<double> parseNumber(std::string_view text);

/// Whether TEXT, all of it, is a number too large (or too small in magnitude) for a double, such as "1e400"
/// or "-1e-400": the case parseNumber() refuses that deserves "out of range" rather than "not a number".
bool isNumberOutOfRange(std::string_view text);

/// TEXT, all of it, as a whole number of type T in BASE (digits only, an optional '-' for signed T; no '+',
/// blanks or "0x" prefix). Returns none for empty text, anything else, or a value out of T's range.
template<std::integral T>
std::optional<T> parseInteger(std::string_view text, int base = 10)
{
    T value {};
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

} // namespace crossroof::core
