// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/json_reader.h"

#include "support/error.h"
#include "support/text.h"

#include <cmath>

namespace crossroof::core::detail {

namespace {

std::string describeParseError(const json::parse_error &e, std::string_view text)
{
    // Count lines up to the byte the parser stopped at; nlohmann's own text repeats its exception id.
    std::size_t line = 1;
    std::size_t column = 1;
    const std::size_t stop = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < stop; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    std::string what = e.what();
    const auto col = what.find("column ");
    if (col != std::string::npos) {
        const auto colon = what.find(": ", col);
        if (colon != std::string::npos)
            what = what.substr(colon + 2);
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": invalid JSON: " + what;
}

} // namespace

JsonReader::JsonReader(std::string label, std::string prefix)
    : m_label(std::move(label))
    , m_prefix(std::move(prefix))
{
}

void JsonReader::fail(const std::string &field, const std::string &what) const
{
    throw InputError(m_label + ": field '" + m_prefix + field + "': " + what);
}

const json &JsonReader::require(const json &obj, const char *key, const std::string &path) const
{
    const auto it = obj.find(key);
    if (it == obj.end())
        fail(path, "is missing");
    return *it;
}

std::string JsonReader::string(const json &obj, const char *key, const std::string &path, bool required) const
{
    const auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            fail(path, "is missing");
        return {};
    }
    if (!it->is_string())
        fail(path, std::string("must be a string (got ") + it->type_name() + ")");
    const auto value = it->get<std::string>();
    if (required && value.empty())
        fail(path, "must not be empty");
    return value;
}

double JsonReader::number(const json &obj, const char *key, const std::string &path, double min, double max,
                          std::optional<double> fallback) const
{
    const auto it = obj.find(key);
    if (it == obj.end()) {
        if (!fallback)
            fail(path, "is missing");
        return *fallback;
    }
    if (!it->is_number())
        fail(path, std::string("must be a number (got ") + it->type_name() + ")");
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < min || v > max)
        fail(path, "must be between " + formatNumber(min) + " and " + formatNumber(max) + " (got " + formatNumber(v) + ")");
    return v;
}

long long JsonReader::integer(const json &obj, const char *key, const std::string &path, long long min,
                              long long max, std::optional<long long> fallback) const
{
    const auto it = obj.find(key);
    if (it == obj.end()) {
        if (!fallback)
            fail(path, "is missing");
        return *fallback;
    }
    if (!it->is_number_integer())
        fail(path, std::string("must be a whole number (got ") + it->dump() + ")");
    const long long v = it->get<long long>();
    if (v < min || v > max)
        fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) + " (got " + std::to_string(v) + ")");
    return v;
}

bool JsonReader::boolean(const json &obj, const char *key, const std::string &path, bool fallback) const
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return fallback;
    if (!it->is_boolean())
        fail(path, std::string("must be true or false (got ") + it->dump() + ")");
    return it->get<bool>();
}

JsonReader JsonReader::nested(const std::string &prefix) const
{
    return JsonReader(m_label, m_prefix + prefix);
}

json parseJsonText(std::string_view text, const std::string &label)
{
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error &e) {
        throw InputError(label + ": " + describeParseError(e, text));
    }
}

} // namespace crossroof::core::detail
