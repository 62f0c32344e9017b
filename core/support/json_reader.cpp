// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/json_reader.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core::detail {

namespace {

std::string locate(std::string_view text, std::size_t offset)
{
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string describeParseError(const json::parse_error &e, std::string_view text)
{
    // nlohmann's own text repeats its exception id and a position of its own; keep only what went wrong.
    std::string what = e.what();
    const auto col = what.find("column ");
    if (col != std::string::npos) {
        const auto colon = what.find(": ", col);
        if (colon != std::string::npos)
            what = what.substr(colon + 2);
    }
    return locate(text, e.byte > 0 ? e.byte - 1 : 0) + ": invalid JSON: " + what;
}

/// nlohmann's message without its "[json.exception.type.id] " prefix.
std::string stripExceptionId(std::string what)
{
    if (what.starts_with("[json.exception.")) {
        const auto end = what.find("] ");
        if (end != std::string::npos)
            what.erase(0, end + 2);
    }
    return what;
}

} // namespace

JsonReader::JsonReader(std::string label, std::string prefix)
    : m_label(std::move(label))
    , m_prefix(std::move(prefix))
{
}

void JsonReader::fail(const std::string &field, const std::string &what) const
{
    // WHAT may quote the file's bad value: cut it too (a message line stays readable).
    throw InputError(m_label + ": field '" + brief(m_prefix + field) + "': " + brief(what, 240));
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

void JsonReader::checkKeys(const json &obj, const std::string &path, std::span<const char *const> known,
                           std::string_view what) const
{
    if (!obj.is_object()) {
        // Named by the prefix alone, the object is the prefix without the '.' that leads to its fields.
        std::string whole = m_prefix + path;
        if (path.empty() && whole.ends_with('.'))
            whole.pop_back();
        JsonReader(m_label).fail(whole, std::string("must be an object (got ") + obj.type_name() + ")");
    }
    const std::string keyPath = path.empty() ? std::string() : path + ".";
    for (const auto &item : obj.items()) {
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
        const std::string &key = item.key();
        if (std::none_of(known.begin(), known.end(), [&key](const char *k) { return key == k; }))
            fail(keyPath + key, "is not " + std::string(what) + " (misspelt?)");
    }
}

void JsonReader::failAsField(const std::string &message) const
{
    const auto colon = message.find(": ");
    if (colon == std::string::npos)
        throw InputError(m_label + ": " + message);
    fail(message.substr(0, colon), message.substr(colon + 2));
}

JsonReader JsonReader::nested(const std::string &prefix) const
{
    return JsonReader(m_label, m_prefix + prefix);
}

json parseJsonText(std::string_view text, const std::string &label)
{
    // The parser calls back on every token in order, so a stack of the objects being read gives each key's
    // path: deep nesting is refused before anything recurses over it (printing, copying, destroying), and a
    // key that appears twice is refused instead of silently keeping one of the two values.
    struct Level
    {
        std::string path;
        std::vector<std::string> keys; // only for objects
        bool object = false;
    };
    std::vector<Level> levels;
    std::string pendingKey;
    auto childPath = [&] {
        if (levels.empty())
            return std::string();
        const Level &top = levels.back();
        if (!top.object)
            return top.path + "[]";
        return top.path.empty() ? pendingKey : top.path + "." + pendingKey;
    };
    const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json &parsed) {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (depth >= kMaxJsonDepth) {
                throw InputError(label + ": field '" + brief(childPath()) + "': nested more than "
                                 + std::to_string(kMaxJsonDepth) + " levels deep");
            }
            levels.push_back({childPath(), {}, event == json::parse_event_t::object_start});
            break;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            levels.pop_back();
            break;
        case json::parse_event_t::key: {
            pendingKey = parsed.get<std::string>();
            auto &keys = levels.back().keys;
            if (std::find(keys.begin(), keys.end(), pendingKey) != keys.end())
                throw InputError(label + ": field '" + brief(childPath()) + "': appears twice");
            keys.push_back(pendingKey);
            break;
        }
        case json::parse_event_t::value:
            break;
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), check);
    } catch (const json::parse_error &e) {
        throw InputError(label + ": " + describeParseError(e, text));
    } catch (const json::out_of_range &e) {
        // nlohmann reports a number beyond double's range ("number overflow parsing '1e309'") this way.
        std::string what = e.what();
        const auto quote = what.find('\'');
        const std::string token = quote == std::string::npos ? std::string()
                                                              : what.substr(quote + 1, what.find('\'', quote + 1) - quote - 1);
        throw InputError(label + ": " + locate(text, text.find(token)) + ": number " + brief(token)
                         + " is out of range (a double holds magnitudes up to about 1.8e308)");
    } catch (const json::exception &e) {
        throw InputError(label + ": invalid JSON: " + stripExceptionId(e.what()));
    }
}

std::string describeValue(const json &value)
{
    return brief(value.dump());
}

} // namespace crossroof::core::detail
