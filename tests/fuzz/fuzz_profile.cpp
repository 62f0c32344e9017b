// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: hardware profiles (JSON) from arbitrary bytes. Only core::InputError may leave the reader; a
// profile it accepts must survive a round trip through profileToText() (what File > Save Profile writes).
#include "core/profiles/hardware_profile.h"
#include "core/support/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    HardwareProfile profile;
    try {
        profile = parseProfile(text, "fuzz.json");
    } catch (const InputError &) {
        return 0;
    }
    try {
        (void)parseProfile(profileToText(profile), "fuzz-again.json");
    } catch (const InputError &e) {
        std::fprintf(stderr, "an accepted profile, written again, is refused: %s\n", e.what());
        std::abort();
    }
    return 0;
}
