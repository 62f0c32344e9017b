// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the readers of Crossroof's own JSON files (profiles, sessions): checked field access whose errors
// name the file and the field, and JSON parse errors with line and column.

#include "core/support/error.h"

#include <nlohmann/json.hpp>

#include <concepts>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace crossroof::core::detail {

using nlohmann::json;

/// Reads fields of one JSON document; every error is an InputError "LABEL: field 'PREFIX.PATH': what".
class JsonReader
{
public:
    JsonReader(std::string label, std::string prefix = {});

    [[noreturn]] void fail(const std::string &field, const std::string &what) const;
    const json &require(const json &obj, const char *key, const std::string &path) const;
    std::string string(const json &obj, const char *key, const std::string &path, bool required) const;
    /// A number in [min, max], or `fallback` when absent and not required.
    double number(const json &obj, const char *key, const std::string &path, double min, double max,
                  std::optional<double> fallback) const;
    /// A whole number in [min, max], or `fallback` when absent and not required.
    long long integer(const json &obj, const char *key, const std::string &path, long long min, long long max,
                      std::optional<long long> fallback) const;
    bool boolean(const json &obj, const char *key, const std::string &path, bool fallback) const;
    /// Refuses OBJ unless it is an object whose keys are all in KNOWN: "field 'PATH': must be an object (got
    /// array)", "field 'PATH.KEY': is not WHAT (misspelt?)" with WHAT such as "a session field". PATH names
    /// OBJ; empty, OBJ is the object this reader's prefix names (its fields are then named by the key alone).
    void checkKeys(const json &obj, const std::string &path, std::span<const char *const> known,
                   std::string_view what) const;
    void checkKeys(const json &obj, const std::string &path, std::initializer_list<const char *> known,
                   std::string_view what) const
    {
        checkKeys(obj, path, std::span(known.begin(), known.size()), what);
    }
    /// Runs CHECK, a model's validate() whose InputError reads "FIELD: what" with FIELD named as this reader
    /// names its fields, and throws that error as this reader's "LABEL: field 'FIELD': what".
    template<std::invocable Check>
    void validate(Check &&check) const
    {
        try {
            check();
        } catch (const InputError &e) {
            failAsField(e.what());
        }
    }
    /// A reader for a nested object whose field names get PREFIX in front.
    JsonReader nested(const std::string &prefix) const;
    const std::string &label() const { return m_label; }
    const std::string &prefix() const { return m_prefix; }

private:
    /// MESSAGE, "FIELD: what", as "LABEL: field 'FIELD': what"; without a field, as "LABEL: MESSAGE".
    [[noreturn]] void failAsField(const std::string &message) const;

    std::string m_label;
    std::string m_prefix;
};

/// Objects and arrays may nest at most this deep in Crossroof's own files (they need 5 levels).
inline constexpr int kMaxJsonDepth = 64;

/// Objects and arrays one document may hold: Crossroof's files hold a few thousand (a trace's points are
/// arrays of numbers), and each costs memory (64 MiB of "{}," would build 21 million of them, 2 GB).
inline constexpr std::size_t kMaxJsonContainers = 1'000'000;

/// Parses TEXT; a syntax error becomes InputError "LABEL: line L, column C: invalid JSON: ...". Also refused,
/// naming the field: more than kMaxJsonContainers objects and arrays, nesting deeper than kMaxJsonDepth, a key that appears twice in one object, and a number
/// beyond double's range. No nlohmann exception leaves this function.
json parseJsonText(std::string_view text, const std::string &label);

/// VALUE as JSON text for an error message, cut to about 80 characters.
std::string describeValue(const json &value);

} // namespace crossroof::core::detail
