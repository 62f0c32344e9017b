// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/quote.h"

#include <algorithm>
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

namespace {

bool continuation(const std::string &s, std::size_t i)
{
    return i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80;
}

/// S without its bytes [from, to), with "..." in their place; FROM moved back and TO forward to whole UTF-8
/// sequences.
std::string withoutMiddle(const std::string &s, std::size_t from, std::size_t to)
{
    while (from > 0 && continuation(s, from))
        --from;
    while (continuation(s, to))
        ++to;
    return s.substr(0, from) + "..." + s.substr(to);
}

} // namespace

std::string shortMessage(std::string_view text, std::size_t max)
{
    std::string line = quoteForMessage(text, std::string::npos);
    // A message of several lines (what went wrong, then what to do, then an aside) loses its last lines first.
    for (std::size_t end = text.rfind('\n'); line.size() > max && end != std::string_view::npos && end > 0;
         end = text.rfind('\n', end - 1)) {
        line = quoteForMessage(text.substr(0, end), std::string::npos) + " ...";
    }
    if (line.size() <= max)
        return line;
    // A word longer than this (a path over PATH_MAX, a value from a file) keeps its start and its end; a path
    // its file's name. Shorter ones, an ordinary path among them, stay whole. The message's first path, the
    // file it is about, may be longer: a build or home folder a few levels deep is an ordinary path too.
    constexpr std::size_t kLongestWord = 100;
    constexpr std::size_t kLongestSubject = 200;
    std::size_t subject = 0; // where the first path ends, when it stays whole
    bool pathSeen = false;
    for (std::size_t i = 0; i < line.size();) {
        std::size_t end = std::min(line.find(' ', i), line.size());
        const bool path = line.find('/', i) < end;
        if (path && !pathSeen && end - i <= kLongestSubject && end + 60 < max) {
            subject = end;
        } else if (end - i > kLongestWord) {
            const std::string_view word = std::string_view(line).substr(i, end - i);
            const std::size_t slash = word.rfind('/');
            const std::size_t name = slash != std::string_view::npos && slash > 0 ? word.size() - slash : 0;
            // A path: its file's name with a little of its folder.
            const std::size_t tail = name > 0 && name < kLongestWord - 40 ? name + 20 : (kLongestWord - 3) * 2 / 3;
            const std::size_t head = kLongestWord - 3 - tail;
            const std::size_t before = line.size();
            line = withoutMiddle(line, i + head, end - tail);
            end -= before - line.size();
        }
        pathSeen = pathSeen || path;
        i = end + 1;
    }
    // Then the message its middle: its start names what it is about, its end says why.
    if (line.size() > max) {
        const std::size_t head = std::max(max / 2, subject);
        line = withoutMiddle(line, head, line.size() - (max - head - 3));
    }
    return line;
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
