// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: Nsight Compute CSV from arbitrary bytes. Only core::InputError may leave the parser.
#include "core/support/error.h"
#include "core/traces/ncu_csv.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const NcuReport report = parseNcuCsv(text, "fuzz.csv");
        for (const NcuKernel &k : report.kernels) {
            (void)k.intensity();
            (void)k.intensityFromSectors(128);
            (void)k.gpu.describe();
            (void)k.gpu.peakDramGbs();
        }
        (void)report.device.describe();
        std::vector<double> warps, gbs;
        ncuOccupancyTrace(report, warps, gbs);
    } catch (const InputError &) {
    }
    (void)ncuRateToGbs(text.substr(0, 32));
    (void)shortKernelName(text.substr(0, 4096));
    (void)baseKernelName(text.substr(0, 4096));
    return 0;
}
