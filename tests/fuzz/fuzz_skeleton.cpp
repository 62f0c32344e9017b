// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: code skeletons from arbitrary bytes. Only core::InputError may leave the parser; a skeleton it
// accepts is projected too (small bodies only, to keep the fuzzer fast), and the projection must be finite.
#include "core/skeleton/projection.h"
#include "core/support/error.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    Skeleton skeleton;
    try {
        skeleton = parseSkeleton(text, "fuzz.skel");
    } catch (const InputError &) {
        return 0;
    }
    if (skeleton.body.empty())
        std::abort(); // the parser refuses a skeleton without statements
    if (skeleton.body.size() > 64)
        return 0;
    const CoreModel model;
    const SkeletonProjection p = projectSkeleton(skeleton, model);
    for (const UnrollPoint &u : p.unroll) {
        if (!std::isfinite(u.total_cycles) || u.body_cycles < p.critical.cycles)
            std::abort();
    }
    (void)deriveWorkload(p, skeleton, model, p.best_unroll);
    return 0;
}
