// SPDX-License-Identifier: GPL-3.0-or-later
// The parsed table: column lookup and typed (numeric) access to its cells, and the number format of cells.
#include "core/traces/csv_table.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace crossroof::core {

namespace {

std::string shown(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

} // namespace

std::optional<std::size_t> CsvTable::findColumn(std::string_view name) const
{
    const std::string_view wanted = trimBlanks(name);
    for (std::size_t c = 0; c < m_header.size(); ++c) {
        if (m_header[c] == wanted)
            return c;
    }
    return std::nullopt;
}

std::size_t CsvTable::column(std::string_view name) const
{
    const auto found = findColumn(name);
    if (!found) {
        throw InputError(m_source + ":" + std::to_string(m_headerLine) + ": no column '" + brief(name)
                         + "' in the header (columns: " + briefList(m_header) + ")");
    }
    for (std::size_t c = *found + 1; c < m_header.size(); ++c) {
        if (m_header[c] == m_header[*found]) {
            throw InputError(m_source + ":" + std::to_string(m_headerLine) + ": column name '"
                             + brief(m_header[c]) + "' is ambiguous (columns "
                             + std::to_string(*found + 1) + " and " + std::to_string(c + 1) + ")");
        }
    }
    return *found;
}

std::string_view CsvTable::cell(std::size_t row, std::size_t column) const
{
    const Cell &c = m_cells[row * m_header.size() + column];
    return std::string_view(m_text.data() + c.offset, c.size);
}

int CsvTable::textColumn(std::size_t row, std::size_t column) const
{
    return int(m_cells[row * m_header.size() + column].text_column);
}

std::string CsvTable::where(std::size_t row, std::size_t column) const
{
    return m_source + ":" + std::to_string(line(row)) + ":" + std::to_string(textColumn(row, column))
           + ": column '" + m_header[column] + "'";
}

double CsvTable::number(std::size_t row, std::size_t column) const
{
    const std::string_view text = trimBlanks(cell(row, column));
    if (text.empty())
        throw InputError(where(row, column) + ": is empty, expected a number");
    const auto v = parseTableNumber(text, m_decimal);
    if (!v)
        throw InputError(where(row, column) + ": '" + shown(text) + "' is not a number");
    if (!std::isfinite(*v))
        throw InputError(where(row, column) + ": '" + shown(text) + "' is not a finite number");
    return *v;
}

std::vector<double> CsvTable::numbers(std::size_t column) const
{
    std::vector<double> out(rowCount());
    for (std::size_t r = 0; r < out.size(); ++r)
        out[r] = number(r, column);
    return out;
}

std::optional<double> parseTableNumber(std::string_view text, char decimal, bool grouping)
{
    text = trimBlanks(text);
    if (text.empty() || text.size() > 400)
        return std::nullopt;
    std::size_t i = 0;
    bool negative = false;
    if (text[i] == '+' || text[i] == '-')
        negative = text[i++] == '-';
    const std::string_view rest = text.substr(i);
    // The common case, digits with at most one decimal point: from_chars reads the text where it is, without
    // the checks and the copy below, which give the same value for it (a table of millions of cells spent a
    // good part of its reading there).
    if (decimal == '.' && i == 0) {
        std::size_t digits = 0, points = 0;
        bool plain = true;
        for (const char c : text) {
            if (c >= '0' && c <= '9') {
                ++digits;
            } else if (c == '.') {
                ++points;
            } else {
                plain = false; // a sign, an exponent, grouping, words: the checks below
                break;
            }
        }
        double v = 0;
        if (plain && digits > 0 && points <= 1) {
            const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec == std::errc() && ptr == text.data() + text.size())
                return v;
        }
    }
    const auto lowerEquals = [](std::string_view a, std::string_view b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                   return (x >= 'A' && x <= 'Z' ? char(x - 'A' + 'a') : x) == y;
               });
    };
    if (lowerEquals(rest, "nan"))
        return std::numeric_limits<double>::quiet_NaN();
    if (lowerEquals(rest, "inf") || lowerEquals(rest, "infinity"))
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();

    const char thousands = decimal == ',' ? '.' : ',';
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::array<char, 420> buf; // only its first len characters are read
    std::size_t len = 0;
    // Decimal exponent of the first significant digit, to tell overflow from underflow.
    long magnitude = 0;
    bool significant = false;
    // Integer part, optionally grouped in threes.
    std::size_t intDigits = 0;
    std::size_t groupDigits = 0;
    bool grouped = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (digit(c)) {
            buf[len++] = c;
            ++intDigits;
            ++groupDigits;
            if (significant)
                ++magnitude;
            significant = significant || c != '0';
        } else if (grouping && c == thousands) {
            if (groupDigits == 0 || (grouped ? groupDigits != 3 : groupDigits > 3))
                return std::nullopt;
            grouped = true;
            groupDigits = 0;
        } else {
            break;
        }
    }
    if (grouped && groupDigits != 3)
        return std::nullopt;
    std::size_t fracDigits = 0;
    if (i < text.size() && text[i] == decimal) {
        buf[len++] = '.';
        for (++i; i < text.size() && digit(text[i]); ++i) {
            buf[len++] = text[i];
            ++fracDigits;
            if (!significant) {
                --magnitude;
                significant = text[i] != '0';
            }
        }
    }
    if (intDigits + fracDigits == 0)
        return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        buf[len++] = 'e';
        ++i;
        bool negativeExponent = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
            negativeExponent = text[i] == '-';
            buf[len++] = text[i++];
        }
        std::size_t expDigits = 0;
        long exponent = 0;
        for (; i < text.size() && digit(text[i]); ++i, ++expDigits) {
            buf[len++] = text[i];
            exponent = std::min(exponent * 10 + (text[i] - '0'), 100000L);
        }
        if (expDigits == 0)
            return std::nullopt;
        magnitude += negativeExponent ? -exponent : exponent;
    }
    if (i != text.size())
        return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(buf.data(), buf.data() + len, v);
    if (ec == std::errc::result_out_of_range) {
        // Underflow reads as zero, overflow as infinity (rejected by the callers as not finite).
        v = (!significant || magnitude < 0) ? 0.0 : std::numeric_limits<double>::infinity();
    } else if (ec != std::errc() || ptr != buf.data() + len) {
        return std::nullopt;
    }
    return negative ? -v : v;
}

} // namespace crossroof::core
