// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/json_reader.h"

#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

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

std::string describeParseError(std::string what, std::size_t byte, std::string_view text)
{
    // nlohmann's own text repeats its exception id and a position of its own; keep only what went wrong.
    const auto col = what.find("column ");
    if (col != std::string::npos) {
        const auto colon = what.find(": ", col);
        if (colon != std::string::npos)
            what = what.substr(colon + 2);
    }
    return locate(text, byte > 0 ? byte - 1 : 0) + ": invalid JSON: " + what;
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

namespace {

/// Builds the document from nlohmann's SAX events, keeping a stack of the arrays and objects being read (and
/// of the key being read in each object) so that an error names the field it is in. A key is refused as it
/// is inserted into its object, so a document of N keys is read in O(N log N): no per-token callback that
/// makes nlohmann revisit the parent (a profile of 100,000 `{}`s took half a minute that way), and no list of
/// the keys seen to search.
class CheckedBuilder
{
public:
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    CheckedBuilder(std::string_view text, const std::string &label)
        : m_text(text)
        , m_label(label)
    {
    }

    json take() { return std::move(m_root); }

    bool null() { return add(nullptr), true; }
    bool boolean(bool v) { return add(v), true; }
    bool number_integer(number_integer_t v) { return add(v), true; }
    bool number_unsigned(number_unsigned_t v) { return add(v), true; }
    bool number_float(number_float_t v, const string_t &) { return add(v), true; }
    bool string(string_t &v)
    {
        refuseControlCharacters(v, childPath());
        return add(std::move(v)), true;
    }
    bool binary(binary_t &v) { return add(json::binary(std::move(v))), true; }

    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool end_object() { return m_open.pop_back(), true; }
    bool end_array() { return m_open.pop_back(), true; }

    bool key(string_t &k)
    {
        Open &top = m_open.back();
        auto &members = top.value->get_ref<json::object_t &>();
        const auto [it, inserted] = members.emplace(std::move(k), nullptr);
        top.key = &it->first;
        if (!inserted)
            throw InputError(m_label + ": field '" + brief(childPath()) + "': appears twice");
        refuseControlCharacters(it->first, childPath());
        m_member = &it->second;
        return true;
    }

    template<class Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &e)
    {
        // nlohmann reports a number beyond double's range ("number overflow parsing '1e309'") as out_of_range
        // 406, with POSITION just past the number.
        if (e.id == 406) {
            const std::size_t start = position >= token.size() ? position - token.size() : 0;
            throw InputError(m_label + ": " + locate(m_text, start) + ": number " + brief(token)
                             + " is out of range (a double holds magnitudes up to about 1.8e308)");
        }
        if (e.id >= 101 && e.id <= 199) // a parse_error: its own position text goes, ours (line, column) stays
            throw InputError(m_label + ": " + describeParseError(e.what(), position, m_text));
        throw InputError(m_label + ": invalid JSON: " + stripExceptionId(e.what()));
    }

private:
    struct Open
    {
        json *value;
        const std::string *key = nullptr; // in an object, the key being read
    };

    /// The path of the value being read next: "a.b[].c".
    std::string childPath() const
    {
        std::string path;
        for (const Open &o : m_open) {
            if (o.value->is_array()) {
                path += "[]";
            } else if (o.key) {
                if (!path.empty())
                    path += '.';
                path += *o.key;
            }
        }
        return path;
    }

    /// Refuses TEXT, a string or key at PATH, when it holds a control character other than tab, line feed and
    /// carriage return: nothing in Crossroof's files needs one, a NUL cuts a path short where the system reads
    /// it ("stream.csv\u0000.txt" is stream.csv), and no other may appear in XML (an SVG figure names traces).
    void refuseControlCharacters(const std::string &text, const std::string &path) const
    {
        const auto bad = std::find_if(text.begin(), text.end(), [](char c) {
            const auto u = static_cast<unsigned char>(c);
            return u < 0x20 && c != '\t' && c != '\n' && c != '\r';
        });
        if (bad == text.end())
            return;
        char code[8];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(static_cast<unsigned char>(*bad)));
        throw InputError(m_label + ": field '" + quoteForMessage(path) + "': holds the control character " + code
                         + (*bad == '\0' ? " (NUL)" : "") + ", which no text in this file may");
    }

    /// Puts V where the value being read next goes and returns it there.
    template<typename Value>
    json *add(Value &&v)
    {
        if (m_open.empty()) {
            m_root = json(std::forward<Value>(v));
            return &m_root;
        }
        json &parent = *m_open.back().value;
        if (parent.is_array()) {
            auto &items = parent.get_ref<json::array_t &>();
            items.emplace_back(std::forward<Value>(v));
            return &items.back();
        }
        *m_member = json(std::forward<Value>(v));
        return m_member;
    }

    bool open(json::value_t type)
    {
        if (++m_containers > kMaxJsonContainers) {
            throw InputError(m_label + ": field '" + brief(childPath()) + "': more than "
                             + std::to_string(kMaxJsonContainers)
                             + " objects and arrays in one file (Crossroof's own files hold far fewer)");
        }
        if (m_open.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            throw InputError(m_label + ": field '" + brief(childPath()) + "': nested more than "
                             + std::to_string(kMaxJsonDepth) + " levels deep");
        }
        m_open.push_back({add(type)});
        return true;
    }

    std::string_view m_text;
    const std::string &m_label;
    json m_root;
    std::vector<Open> m_open;
    json *m_member = nullptr;
    std::size_t m_containers = 0;
};

} // namespace

json parseJsonText(std::string_view text, const std::string &label)
{
    // Deep nesting is refused before anything recurses over it (printing, copying, destroying), and a key that
    // appears twice is refused instead of silently keeping one of the two values.
    // The whole text to its length: nlohmann takes a NUL byte for the end of its input, so "{}\0garbage" would
    // pass as "{}". No JSON text holds a raw NUL (in a string it is written \u0000, refused above).
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        throw InputError(label + ": " + locate(text, nul) + ": invalid JSON: a NUL byte (is this a JSON file?)");
    CheckedBuilder builder(text, label);
    try {
        json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const json::exception &e) {
        throw InputError(label + ": invalid JSON: " + stripExceptionId(e.what()));
    }
    return builder.take();
}

std::string describeValue(const json &value)
{
    return brief(value.dump());
}

} // namespace crossroof::core::detail
