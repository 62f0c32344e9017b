// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lexical level of the Nsight Compute CSV reader: metric units as ncu prints them, and the split of a file
// into its tables (several runs with other metric sets put together). Internal to core/traces.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core::detail::ncu {

/// S cut to about 40 characters, for messages.
std::string shown(std::string_view s);
/// The factor of a decimal prefix letter (K or k, M, G, T, P), or none.
std::optional<double> decimalPrefix(char c);
/// Scale of a count unit: "", BASE, or BASE with a decimal prefix ("Kinst", "Mrequest"); none otherwise.
std::optional<double> countScale(std::string_view unit, std::string_view base);
/// Bytes in one UNIT: "", byte, Kbyte ... (decimal), Kibyte ... (binary).
std::optional<double> byteScale(std::string_view unit);
/// Nanoseconds in one UNIT of time.
std::optional<double> timeScale(std::string_view unit);
/// Hertz in one UNIT of frequency: hz, Khz, Mhz, Ghz (any case) or cycle per time unit.
std::optional<double> frequencyScale(std::string_view unit);
/// A cell that holds no value ("", "n/a", "no data", "-").
bool notCollected(std::string_view text);

/// The tables of an ncu file: for every distinct header line, the text of the lines under it (and under
/// its repetitions), other lines left empty so that line numbers stay those of the file.
struct Tables
{
    std::vector<std::string> texts;
    std::vector<int> header_lines;
    std::string truncated; ///< "SOURCE:LINE:COLUMN: the quote opened here is not closed", when cut off
    int truncated_line = 0;
};

/// Most different header lines in one file (several runs with other metric sets put together).
constexpr std::size_t kMaxTables = 8;

/// Splits TEXT (the file SOURCE) into its tables. Throws InputError past kMaxTables header lines.
Tables splitTables(std::string_view text, const std::string &source);

} // namespace crossroof::core::detail::ncu
