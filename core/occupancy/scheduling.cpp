// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/occupancy/scheduling.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <cmath>
#include <string>

namespace crossroof::core {

namespace {

void checkCount(std::string_view what, long long v, long long max)
{
    if (v < 1 || v > max) {
        throw InputError(std::string(what) + ": must be between 1 and " + std::to_string(max) + " (got "
                         + std::to_string(v) + ")");
    }
}

void checkBlocks(long long br, long long ba, long long sms)
{
    checkCount("requested blocks B_r", br, kMaxRequestedBlocks);
    checkCount("active blocks per SM B_a", ba, kMaxActiveBlocks);
    checkCount("SMs S", sms, kMaxSms);
}

void checkReal(std::string_view what, double v, bool positive)
{
    if (!std::isfinite(v) || (positive ? v <= 0 : v < 0)) {
        throw InputError(std::string(what)
                         + (positive ? ": must be a finite number > 0" : ": must be a finite number >= 0")
                         + " (got " + formatNumber(v) + ")");
    }
}

// With the counts checked: passes * B_a * S / B_r, exact (1.0) when B_r is a multiple of B_a * S.
double factor(long long br, long long perPass)
{
    const long long passes = (br + perPass - 1) / perPass;
    return double(passes * perPass) / double(br);
}

} // namespace

long long schedulingPasses(long long requestedBlocks, long long activeBlocks, long long sms)
{
    checkBlocks(requestedBlocks, activeBlocks, sms);
    const long long perPass = activeBlocks * sms;
    return (requestedBlocks + perPass - 1) / perPass;
}

double schedulingFactor(long long requestedBlocks, long long activeBlocks, long long sms)
{
    checkBlocks(requestedBlocks, activeBlocks, sms);
    return factor(requestedBlocks, activeBlocks * sms); // Eq. 3
}

Zigzag zigzag(long long sms, long long activeBlocks, long long brMin, long long brMax)
{
    checkCount("SMs S", sms, kMaxSms);
    checkCount("active blocks per SM B_a", activeBlocks, kMaxActiveBlocks);
    checkCount("requested blocks B_r (range start)", brMin, kMaxRequestedBlocks);
    checkCount("requested blocks B_r (range end)", brMax, kMaxRequestedBlocks);
    if (brMax < brMin) {
        throw InputError("requested blocks B_r: the range " + std::to_string(brMin) + ":"
                         + std::to_string(brMax) + " is empty");
    }
    if (brMax - brMin + 1 > kMaxZigzagPoints) {
        throw InputError("requested blocks B_r: " + std::to_string(brMax - brMin + 1) + " points, at most "
                         + std::to_string(kMaxZigzagPoints) + " allowed");
    }
    Zigzag z;
    z.blocks_per_pass = activeBlocks * sms;
    const auto count = std::size_t(brMax - brMin + 1);
    z.br.reserve(count);
    z.f_sched.reserve(count);
    for (long long br = brMin; br <= brMax; ++br) {
        z.br.push_back(br);
        z.f_sched.push_back(factor(br, z.blocks_per_pass));
        if (br % z.blocks_per_pass == 0)
            z.minima.push_back(br);
    }
    return z;
}

std::string_view tmmBoundName(TmmBound b)
{
    switch (b) {
    case TmmBound::Compute:
        return "compute";
    case TmmBound::Span:
        return "span";
    case TmmBound::Memory:
        return "memory";
    }
    return "compute";
}

TmmResult evaluateTmm(const TmmParams &p)
{
    checkReal("work T1", p.work, false);
    checkReal("span T_inf", p.span, false);
    checkReal("memory transactions M", p.transactions, false);
    checkReal("latency L", p.latency, true);
    checkReal("threads per core T", p.threads_per_core, true);
    checkReal("cores P", p.cores, true);
    checkBlocks(p.requested_blocks, p.active_blocks, p.sms);

    TmmResult r;
    r.work_term = p.work / p.cores;
    r.span_term = p.span;
    r.memory_term = p.transactions * p.latency / (p.threads_per_core * p.cores);
    if (!std::isfinite(r.memory_term)) // M L alone may pass a double where the term does not
        r.memory_term = p.transactions / (p.threads_per_core * p.cores) * p.latency;
    for (const auto &[term, value] : {std::pair {"the work term T1/P", r.work_term},
                                      std::pair {"the memory term M L / (T P)", r.memory_term}}) {
        if (!std::isfinite(value)) {
            throw InputError(std::string("TMM time model: ") + term
                             + " is more than a double holds (about 1.8e308 steps)");
        }
    }
    r.t_p = r.work_term; // Eq. 1
    r.bound = TmmBound::Compute;
    if (r.span_term > r.t_p) {
        r.t_p = r.span_term;
        r.bound = TmmBound::Span;
    }
    if (r.memory_term > r.t_p) {
        r.t_p = r.memory_term;
        r.bound = TmmBound::Memory;
    }
    r.passes = schedulingPasses(p.requested_blocks, p.active_blocks, p.sms);
    r.f_sched = factor(p.requested_blocks, p.active_blocks * p.sms);
    r.time = r.t_p * r.f_sched; // Eq. 6-7
    if (!std::isfinite(r.time))
        throw InputError("TMM time model: the time, " + formatNumber(r.t_p) + " steps x f_sched "
                         + formatNumber(r.f_sched) + ", is more than a double holds (about 1.8e308)");
    return r;
}

TmmParams apspPreset(const ApspParams &a)
{
    if (a.vertices < 2 || a.vertices > (1LL << 24)) {
        throw InputError("APSP vertices n: must be between 2 and " + std::to_string(1LL << 24) + " (got "
                         + std::to_string(a.vertices) + ")");
    }
    if (a.sub_block < 1 || a.sub_block > a.vertices || a.vertices % a.sub_block != 0) {
        throw InputError("APSP sub-block dimension S_D: must divide n = " + std::to_string(a.vertices)
                         + " (got " + std::to_string(a.sub_block) + ")");
    }
    checkReal("APSP chunk size C", a.chunk, true);
    const double n = double(a.vertices);
    const double work = n * n * n * std::log2(n); // T1 = n^3 lg n
    const long long blocksPerSide = a.vertices / a.sub_block;
    TmmParams p;
    p.work = work;
    p.span = 0; // footnote 5: the span term is dropped
    p.transactions = work / (double(a.sub_block) * a.chunk); // Eq. 10
    p.latency = a.latency;
    p.threads_per_core = a.threads_per_core;
    p.cores = a.cores;
    p.requested_blocks = blocksPerSide * blocksPerSide; // B_r = (n/S_D)^2
    p.active_blocks = a.active_blocks;
    p.sms = a.sms;
    return p;
}

} // namespace crossroof::core
