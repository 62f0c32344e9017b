// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the views write numbers: one formatter for results, one for inputs that must read back exactly, and
// quantities with units under an SI prefix.

#include <QString>

#include <optional>

namespace crossroof::widgets {

/// The scales of the SI prefixes, for formatQuantity()'s SCALE: a value in GB/s is at si::giga.
namespace si {
inline constexpr double kilo = 1e3;
inline constexpr double mega = 1e6;
inline constexpr double giga = 1e9;
inline constexpr double tera = 1e12;
} // namespace si

/// A result as the views show it: PRECISION significant digits, printf's %g ("0.5", "917.8", "1e+09").
/// Infinity is "∞" and a value that is not a number "–", never "inf" or "nan".
QString formatNumber(double v, int precision = 4);

/// An input value: the shortest text (C locale) that reads back as exactly V, so what a field shows is the
/// value to the last bit ("0.1", "1e+09", "1073741824").
QString formatExact(double v);

/// The number TEXT holds in the C locale ("1e9", "0.5", spaces around it allowed, no group separators), as
/// formatExact() writes them; none when it holds no finite number.
std::optional<double> parseExact(const QString &text);

/// VALUE x SCALE in UNIT under the SI prefix that puts it in [1, 1000), with PRECISION significant digits:
/// formatQuantity(1.211e4, "op/s", si::giga) is "12.1 Top/s", formatQuantity(897.2, "B/s", si::giga, 4)
/// "897.2 GB/s". Prefixes run from p to E; zero keeps SCALE's prefix.
QString formatQuantity(double value, const QString &unit, double scale = 1, int precision = 3);

/// A result for a table or text whose unit is given apart: formatNumber()'s PRECISION significant digits, but
/// a value of ten thousand or more written out whole with its thousands grouped ("13,870", "1,230,000"), never
/// as a power ("1.387e+04").
QString formatGrouped(double v, int precision = 4);

/// VALUE read off an axis titled LABEL, as "title = value": where the title ends in a unit with an SI prefix in
/// parentheses, the value takes the prefix that suits it ("CS throughput (Gop/s)" and 13870: "CS throughput =
/// 13.87 Top/s"); else the number with PRECISION significant digits, thousands grouped rather than a power
/// ("k = 13,870", never "1.387e+04").
QString formatReading(const QString &label, double value, int precision = 4);

} // namespace crossroof::widgets
