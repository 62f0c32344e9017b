// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: perf stat -x output from arbitrary bytes, and the memory demand trace made from it. Only
// core::InputError may leave the parser.
#include "core/bandwidth/bandwidth_curve.h"
#include "core/support/error.h"
#include "core/traces/memory_demand.h"
#include "core/traces/perf_stat.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const PerfStat stat = parsePerfStat(text, "fuzz.tsv");
        for (const PerfStatEvent &e : stat.events)
            (void)stat.find(e.name);
        try {
            (void)cyclesPerInstruction(stat);
            (void)cyclesPerInstructionPerInterval(stat);
        } catch (const InputError &) {
        }
        const MemoryDemand demand = memoryDemandFromPerfStat(stat);
        (void)demand.gbs();
        (void)bandwidthCurve(demand.bytes, 1, 1e9);
    } catch (const InputError &) {
    }
    return 0;
}
