// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: gpu-benches stream output, its tidy CSV and gpu-latency output from arbitrary bytes. Only
// core::InputError may leave the parsers.
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const auto traces = parseGpuStream(text, "gpu", "fuzz.txt");
        (void)findStreamTrace(traces, "gpu", "init");
    } catch (const InputError &) {
    }
    try {
        (void)looksLikeGpuLatency(text);
        const GpuLatency latency = parseGpuLatency(text, "gpu", "fuzz.txt");
        if (latency.largestChainCycles() <= 0 || latency.smallestChainCycles() <= 0)
            __builtin_trap(); // the reader promises positive latencies
    } catch (const InputError &) {
    }
    try {
        const auto traces = parseGpuStreamCsv(text, "fuzz.csv");
        (void)findStreamTrace(traces, "v100", "read");
    } catch (const InputError &) {
    }
    return 0;
}
