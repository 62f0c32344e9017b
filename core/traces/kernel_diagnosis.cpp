// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/kernel_diagnosis.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

namespace {

/// Relative closeness that counts a throughput as at its ceiling.
constexpr double kAtCeiling = 1e-6;

} // namespace

KernelLimit kernelLimit(const XModel &model, const Equilibrium &op)
{
    const XModelParams &p = model.params();
    const double supply = model.msSupply(op.k);
    const double requestRate = p.requestRate();
    const LevelCap level = tightestLevel(p);
    const bool memoryAtCeiling = supply >= (1 - kAtCeiling) * std::min(requestRate, level.cap);
    if (memoryAtCeiling && !model.measured())
        return level.level && level.cap < requestRate ? *level.level : KernelLimit::Requests;
    if (model.csThroughput(op.x) >= (1 - kAtCeiling) * p.M)
        return KernelLimit::Issue;
    return KernelLimit::Latency;
}

std::vector<KernelChange> rankedChanges(const XModelParams &machine, const KernelWorkload &w, const Equilibrium &op)
{
    std::vector<KernelChange> out;
    if (!(op.cs_gops > 0))
        return out;
    // Kernel time in units of instructions per original request over the instruction rate.
    const double timeNow = w.Z / op.cs_gops;
    const auto weigh = [&](const std::string &change, const KernelWorkload &changed, double instructionsPerRequest,
                           const XModelParams *over = nullptr) {
        try {
            XModelParams p = kernelParams(machine, changed);
            if (over) {
                p.E = over->E;
                p.m = over->m;
            }
            const Equilibrium after = XModel(p).operatingPoint();
            if (!(after.cs_gops > 0))
                return;
            const double gain = timeNow / (instructionsPerRequest / after.cs_gops) - 1;
            if (gain >= 0.005 && std::isfinite(gain))
                out.push_back({change, gain});
        } catch (const InputError &) {
            // A change the parameters' ranges do not allow is no option.
        }
    };
    // Loads of 2, 4 or 8 bytes a thread, coalesced: 16-byte vectors move the same bytes in fewer requests, each
    // with one instruction less.
    if (w.req_bytes >= 64 && w.req_bytes < 512 - 1e-9) {
        const double share = w.req_bytes / 512; // requests after / before
        KernelWorkload v = w;
        v.req_bytes = 512;
        v.dram_bytes = w.dram_bytes / share;
        v.l2_bytes = w.l2_bytes / share;
        const double instructions = w.Z - 1 + share; // per request before
        v.Z = instructions / share;
        weigh("accesses vectorized to 16 bytes (" + formatNumber(std::round(w.req_bytes)) + " -> 512 B per request)",
              v, instructions);
    }
    // Scattered requests (more than 16 sectors): the same requests coalesced into 4 sectors move what they use.
    if (w.req_bytes > 512) {
        const double share = 128 / w.req_bytes;
        KernelWorkload c = w;
        c.req_bytes = 128;
        c.l2_bytes = w.l2_bytes * share;
        c.dram_bytes = w.dram_bytes * std::max(share, 0.25); // DRAM fetches at least 64-byte pairs of sectors
        weigh("accesses coalesced (" + formatNumber(std::round(w.req_bytes / 32)) + " -> 4 sectors per request)", c,
              w.Z);
    }
    // More warps per SM, with the registers a thread has at max_warps (so no more held parallelism).
    if (w.n < machine.max_warps - 0.5) {
        KernelWorkload o = w;
        o.n = machine.max_warps;
        XModelParams base = kernelParams(machine, w);
        base.E = machine.E;
        base.m = std::clamp(w.m, 1.0, kStoresOnlyInFlight);
        weigh("occupancy " + formatNumber(std::round(w.n)) + " -> " + formatNumber(machine.max_warps)
                      + " warps per SM",
              o, w.Z, w.registers && registerParallelism(machine, w) > 1 ? &base : nullptr);
    }
    if (!w.stores_only && w.m < kStoresOnlyInFlight / 2) {
        KernelWorkload l = w;
        l.m = 2 * w.m;
        weigh("2x the loads in flight per warp (independent loads issued together)", l, w.Z);
    }
    {
        XModelParams twice = kernelParams(machine, w);
        twice.E *= 2;
        weigh("2x the independent instructions per warp (ILP, E " + formatNumber(twice.E / 2) + " -> "
                      + formatNumber(twice.E) + ")",
              w, w.Z, &twice);
    }
    if (w.dram_bytes > 0) {
        KernelWorkload r = w;
        r.dram_bytes = w.dram_bytes / 2;
        weigh("half the DRAM bytes (reuse in the L2 or shared memory, or fusion)", r, w.Z);
    }
    std::stable_sort(out.begin(), out.end(), [](const KernelChange &a, const KernelChange &b) { return a.gain > b.gain; });
    return out;
}

std::vector<KernelChange> bestChanges(const XModelParams &machine, const KernelWorkload &w, const Equilibrium &op)
{
    std::vector<KernelChange> out = rankedChanges(machine, w, op);
    if (out.size() > 2)
        out.resize(2);
    return out;
}

} // namespace crossroof::core
