// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small text helpers the readers and the error messages of core share.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// A number as messages show it: six significant digits, printf's %g ("0.5", "917.838", "1e+09").
std::string formatNumber(double v);
/// V with every digit it needs to read back exactly (the shortest such form: 1.0000001, 1000001, 0.1), for
/// messages that echo a refused value, where "%g" would hide the offending digits.
std::string formatExact(double v);

/// A throughput given in 10^9 of UNIT a second ("B/s", "op/s") as the window shows it: under the SI prefix that
/// keeps its number below 1000 ("2.173 TB/s", "702.7 Gop/s", "39.01 GB/s"), DIGITS significant digits, with a
/// sign where SIGNED ("+1.036 TB/s", where "+1036 GB/s" stood beside the window's "+1.04 TB/s").
std::string formatGigaRate(double value, std::string_view unit, int digits, bool sign = false);

/// TEXT cut to at most MAX characters ("..." ending a cut one), for messages that echo something from a file:
/// a huge bad value, key or column name never becomes a huge message.
std::string brief(std::string_view text, std::size_t max = 80);
/// NAMES joined with ", " for a message, each cut by brief(), and the list cut to about MAX characters with
/// ", ... (N in all)" where it is.
std::string briefList(const std::vector<std::string> &names, std::size_t max = 160);

/// S without the leading and trailing characters of BLANKS.
std::string_view trimBlanks(std::string_view s, std::string_view blanks = " \t\r");

/// TEXT line by line: a line ends at '\n' (not included); a last line without one counts too.
class LineReader
{
public:
    explicit LineReader(std::string_view text)
        : m_text(text)
    {
    }

    /// The next line, or none after the last.
    std::optional<std::string_view> next();
    /// The 1-based number of the line next() returned last.
    int number() const { return m_number; }
    /// Where in the text that line starts.
    std::size_t offset() const { return m_offset; }
    /// Whether a '\n' ended that line.
    bool ended() const { return m_ended; }

private:
    std::string_view m_text;
    std::size_t m_next = 0;
    std::size_t m_offset = 0;
    int m_number = 0;
    bool m_ended = false;
};

} // namespace crossroof::core
