// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/roofline/measured_roofline.h"

#include "core/support/error.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

MeasuredRoofline measuredRoofline(const MeasuredTrace &trace)
{
    if (trace.kind != TraceKind::PerformanceVsIntensity)
        throw InputError(trace.name + ": not a measured roofline (GF/s against Fl/B)");
    MeasuredRoofline r;
    r.name = trace.name;
    for (std::size_t i = 0; i < std::min(trace.x.size(), trace.y.size()); ++i) {
        const double flopsPerByte = trace.x[i], gflops = trace.y[i];
        if (!(flopsPerByte > 0) || !(gflops > 0) || !std::isfinite(flopsPerByte) || !std::isfinite(gflops))
            continue;
        r.intensity.push_back(flopsPerByte / kFlopsPerFmaInstruction);
        r.gops.push_back(gflops / kFlopsPerFmaInstruction);
        r.peak_gops = std::max(r.peak_gops, r.gops.back());
        r.peak_gbs = std::max(r.peak_gbs, gflops / flopsPerByte);
    }
    if (r.gops.empty())
        throw InputError(trace.name + ": no row with a positive intensity and rate");
    r.ridge = r.peak_gbs > 0 ? r.peak_gops / r.peak_gbs : 0;
    return r;
}

} // namespace crossroof::core
