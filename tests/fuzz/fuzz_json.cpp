// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: the JSON reader of Crossroof's own files (core::detail::parseJsonText(), which profiles,
// sessions and counter files go through) on large documents made from a small input. The first byte picks a
// shape, the next two a count, the rest is a piece of JSON P:
//
//   shape 0  P itself
//   shape 1  an object of up to 65,536 members "k0": P, "k1": P, ...; with bit 3 of the first byte set, the
//            last key is "k0" again (a duplicate found only at the end)
//   shape 2  an array of up to 65,536 copies of P
//   shape 3  an array of up to 65,536 objects {"a": P} (the shape that made nlohmann's callback parser
//            rescan the parent array after every object)
//   shape 4  P inside up to 255 levels of {"a": ...} or, with bit 3 set, [...]
//
// Each document is cut to 1 MiB (the size of the profiles that took 20-32 s to read when the duplicate-key
// check searched the keys seen). Only core::InputError may leave the reader; an accepted document must have
// no duplicate key (shape 1 with bit 3) and no nesting beyond kMaxJsonDepth (shape 4), and must read back
// equal after dump(). ctest runs it with a per-input time limit, so that a reader that is not linear in
// the number of keys or values fails there.
#include "core/support/error.h"
#include "core/support/json_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t kMaxDocument = std::size_t(1) << 20;

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
    std::abort();
}

/// How many items of ITEM bytes fit, from the input's count, within kMaxDocument.
std::size_t itemCount(unsigned count, std::size_t item)
{
    const std::size_t wanted = 1 + std::size_t(count);
    const std::size_t fits = kMaxDocument / (item + 1);
    return wanted < fits ? wanted : fits;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    if (size < 3)
        return 0;
    const unsigned shape = data[0] & 7u;
    const bool variant = (data[0] & 8u) != 0;
    const unsigned count = unsigned(data[1]) | unsigned(data[2]) << 8;
    const std::string_view piece(reinterpret_cast<const char *>(data + 3), size - 3);

    std::string text;
    bool duplicateKey = false;
    int depth = 0;
    switch (shape % 5) {
    case 0:
        text = piece;
        break;
    case 1: {
        const std::size_t n = itemCount(count, piece.size() + 12);
        text += '{';
        for (std::size_t i = 0; i < n; ++i) {
            const bool last = i + 1 == n;
            duplicateKey = variant && last && n > 1;
            text += (i ? ",\"k" : "\"k") + std::to_string(duplicateKey ? 0 : i) + "\":";
            text += piece;
        }
        text += '}';
        break;
    }
    case 2: {
        const std::size_t n = itemCount(count, piece.size() + 1);
        text += '[';
        for (std::size_t i = 0; i < n; ++i) {
            text += i ? "," : "";
            text += piece;
        }
        text += ']';
        break;
    }
    case 3: {
        const std::size_t n = itemCount(count, piece.size() + 8);
        text += '[';
        for (std::size_t i = 0; i < n; ++i) {
            text += i ? ",{\"a\":" : "{\"a\":";
            text += piece;
            text += '}';
        }
        text += ']';
        break;
    }
    default:
        depth = int(count & 0xffu);
        for (int i = 0; i < depth; ++i)
            text += variant ? "[" : "{\"a\":";
        text += piece;
        for (int i = 0; i < depth; ++i)
            text += variant ? "]" : "}";
        break;
    }

    detail::json doc;
    try {
        doc = detail::parseJsonText(text, "fuzz.json");
    } catch (const InputError &) {
        return 0;
    }
    if (duplicateKey)
        fail("a key that appears twice was accepted", std::to_string(text.size()) + " bytes");
    if (depth > detail::kMaxJsonDepth)
        fail("nesting beyond the limit was accepted", std::to_string(depth) + " levels around the piece");
    const std::string again = doc.dump();
    try {
        if (detail::parseJsonText(again, "fuzz-again.json") != doc)
            fail("an accepted document reads back different", detail::describeValue(doc));
    } catch (const InputError &e) {
        fail("an accepted document, written again, is refused", e.what());
    }
    return 0;
}
