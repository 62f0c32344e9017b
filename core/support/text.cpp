// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace crossroof::core {

std::string formatNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string formatGigaRate(double value, std::string_view unit, int digits, bool sign)
{
    static constexpr std::pair<double, const char *> kPrefixes[] = {{1e6, "P"}, {1e3, "T"}, {1, "G"}};
    const double a = std::abs(value);
    // Below 1 (and above 0), millions; zero as it is given.
    double scale = a > 0 ? 1e-3 : 1;
    const char *prefix = a > 0 ? "M" : "G";
    for (const auto &[factor, name] : kPrefixes) {
        if (a >= factor * (1 - 5e-5)) { // 999.99 GB/s reads "1 TB/s" at four digits, not "1000 GB/s"
            scale = factor;
            prefix = name;
            break;
        }
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, sign ? "%+.*g" : "%.*g", digits, value / scale);
    return std::string(buf) + " " + prefix + std::string(unit);
}

std::string formatExact(double v)
{
    // Plain digits where a reader expects them (100000, 0.0001); the exponent form only for the extremes.
    char buf[400];
    const double a = std::abs(v);
    const bool plain = a == 0 || (a >= 1e-4 && a < 1e15);
    const auto [end, ec] = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                                 : std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : formatNumber(v);
}

std::string brief(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return std::string(text);
    std::size_t cut = max > 3 ? max - 3 : 0;
    // Not inside a UTF-8 sequence: back up over continuation bytes.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "...";
}

std::string briefList(const std::vector<std::string> &names, std::size_t max)
{
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string name = brief(names[i], 40);
        if (i > 0 && list.size() + name.size() + 2 > max)
            return list + ", ... (" + std::to_string(names.size()) + " in all)";
        list += (i ? ", " : "") + name;
    }
    return list;
}

std::string_view trimBlanks(std::string_view s, std::string_view blanks)
{
    const auto first = s.find_first_not_of(blanks);
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(blanks);
    return s.substr(first, last - first + 1);
}

std::optional<std::string_view> LineReader::next()
{
    if (m_next >= m_text.size())
        return std::nullopt;
    const auto end = m_text.find('\n', m_next);
    m_offset = m_next;
    m_ended = end != std::string_view::npos;
    m_next = m_ended ? end + 1 : m_text.size();
    ++m_number;
    return m_text.substr(m_offset, (m_ended ? end : m_text.size()) - m_offset);
}

} // namespace crossroof::core
