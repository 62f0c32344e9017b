// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: sessions (.crossroof, JSON) from arbitrary bytes. Only core::InputError may leave the reader;
// a session it accepts must survive a round trip through sessionToJson() (File > Save Session). Linked
// traces are looked up under a folder that does not exist, so that no input reads files of this machine
// through a relative link.
#include "core/session/session.h"
#include "core/support/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const std::filesystem::path folder("/nonexistent/crossroof-fuzz");
    Session session;
    try {
        session = parseSession(text, "fuzz.crossroof", folder);
    } catch (const InputError &) {
        return 0;
    }
    try {
        (void)parseSession(sessionToJson(session, folder / "again.crossroof"), "fuzz-again.crossroof", folder);
    } catch (const InputError &e) {
        std::fprintf(stderr, "an accepted session, written again, is refused: %s\n", e.what());
        std::abort();
    }
    return 0;
}
