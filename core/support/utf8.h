// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Text that must be UTF-8 (JSON output, Qt strings) made from bytes that may not be: file names are bytes, and
// one in Latin-1 ("r\xe9sultats") is no UTF-8.

#include <string>
#include <string_view>

namespace crossroof::core {

/// Whether TEXT is valid UTF-8 (no stray continuation byte, no cut or overlong sequence, no surrogate).
bool isValidUtf8(std::string_view text);

/// TEXT with every byte that is not part of a valid UTF-8 sequence written as "\xNN" ("r\xe9sultats" for a
/// Latin-1 name); valid text comes back as it is.
std::string escapeInvalidUtf8(std::string_view text);

/// Applies escapeInvalidUtf8() to every string and object key in J (an nlohmann JSON value), so that dumping
/// it cannot fail on a byte that is not UTF-8.
template <class Json>
void escapeInvalidUtf8InJson(Json &j)
{
    if (j.is_string()) {
        auto &s = j.template get_ref<typename Json::string_t &>();
        if (!isValidUtf8(s))
            s = escapeInvalidUtf8(std::string_view(s));
    } else if (j.is_array()) {
        for (auto &v : j)
            escapeInvalidUtf8InJson(v);
    } else if (j.is_object()) {
        bool keys = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            escapeInvalidUtf8InJson(it.value());
            keys = keys && isValidUtf8(it.key());
        }
        if (keys)
            return;
        Json fixed = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
            fixed[escapeInvalidUtf8(std::string_view(it.key()))] = std::move(it.value());
        j = std::move(fixed);
    }
}

} // namespace crossroof::core
