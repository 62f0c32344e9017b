// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: gpu-benches stream output (both generations), its tidy CSV, gpu-latency (and its plateaus),
// gpu-cache, gpu-l2-cache, gpu-l2-stream, gpu-roofline and gpu-strides output from arbitrary bytes, and the
// content detection that picks among them. Only core::InputError may leave the parsers.
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/gpu_benches_sweeps.h"
#include "core/traces/gpu_benches_text.h"

#include <cmath>

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
        const LatencyPlateaus p = latencyPlateaus(latency);
        if (!(p.dram.cycles > p.l1.cycles) || (p.l2 && !(p.l2->cycles > p.l1.cycles && p.l2->cycles < p.dram.cycles)))
            __builtin_trap(); // the levels are ordered
    } catch (const InputError &) {
    }
    (void)detail::gpuBenchesFormat(text);
    try {
        const GpuCacheSweep c = parseGpuCache(text, "gpu", "fuzz.txt");
        if (c.gbs.size() != c.footprint_kb.size() || (c.l2 && c.block_kb.size() != c.gbs.size()))
            __builtin_trap();
    } catch (const InputError &) {
    }
    try {
        const GpuL2Stream s = parseGpuL2Stream(text, "gpu", "fuzz.txt");
        for (const auto &r : s.rows) {
            if (r.median_gbs.size() != s.kernels || !std::isfinite(r.warpsPerSm()))
                __builtin_trap();
        }
    } catch (const InputError &) {
    }
    try {
        const GpuRoofline r = parseGpuRoofline(text, "gpu", "fuzz.txt");
        for (const auto &d : r.devices) {
            if (!std::isfinite(GpuRoofline::ridge(d)))
                __builtin_trap();
        }
    } catch (const InputError &) {
    }
    try {
        (void)parseGpuStrides(text, "gpu", "fuzz.txt");
    } catch (const InputError &) {
    }
    try {
        const auto traces = parseGpuStreamCsv(text, "fuzz.csv");
        (void)findStreamTrace(traces, "v100", "read");
    } catch (const InputError &) {
    }
    return 0;
}
