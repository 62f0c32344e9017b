// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/quote.h"

#include <cstdio>

namespace crossroof::core {

std::string quoteForMessage(std::string_view text, std::size_t max)
{
    std::string out;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::string piece;
        switch (c) {
        case '\n': piece = "\\n"; break;
        case '\r': piece = "\\r"; break;
        case '\t': piece = "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(c));
                piece = hex;
            } else {
                piece = char(c);
            }
        }
        if (out.size() + piece.size() > max)
            break;
        out += piece;
    }
    if (i == text.size())
        return out;
    // Cut: not inside a UTF-8 sequence (its bytes were copied as they are, one for one).
    while (i > 0 && !out.empty() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
        out.pop_back();
        --i;
    }
    return out + "... (" + std::to_string(text.size()) + " characters)";
}

std::string problemList(const std::vector<std::string> &problems, std::size_t shown, std::size_t each)
{
    std::string list;
    for (std::size_t i = 0; i < problems.size() && i < shown; ++i)
        list += (i ? "; " : "") + quoteForMessage(problems[i], each);
    if (problems.size() > shown)
        list += "; and " + std::to_string(problems.size() - shown) + " more";
    return list;
}

} // namespace crossroof::core
