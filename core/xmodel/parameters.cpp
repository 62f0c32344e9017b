// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/parameters.h"

#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/support/text.h"

#include <array>
#include <cmath>

namespace crossroof::core {

namespace {

using P = XModelParams;
constexpr auto M = ParameterSide::Machine;
constexpr auto W = ParameterSide::Workload;

/// R's least value, GB/s, and R_dram's least but 0 (no limit): a DRAM bandwidth of a denormal made the cap on
/// the requests 0 and the roofline ridge M/0.
constexpr double kMinBandwidthGbs = 1e-3;

// key, label, symbol, unit, tooltip, side, min, max, slider_min, slider_max, log, decimals, integer, member,
// optional_in_profile
const std::array<ParameterInfo, 30> kInfos{{
    {"n", "Resident warps", "n", "warps",
     "Warps resident per SM: the TLP of the workload. n = k + x (warps in the memory system plus warps "
     "computing).",
     W, 1, 100000, 1, 1024, true, 0, true, &P::n, false},
    {"Z", "Compute intensity", "Z", "inst/req",
     "Warp-instructions per memory request (the DLP of the workload). Compute demand on the memory "
     "system: G(x) = min(E*x/L_c, M) / Z.",
     W, 1e-4, 1e7, 0.01, 10000, true, 3, false, &P::Z, false},
    {"E", "ILP", "E", "",
     "Instruction-level parallelism of the workload: computation lanes one warp keeps busy. "
     "g(x) = min(E*x/L_c, M); CS transition pi = M*L_c/E.",
     W, 1e-3, 1000, 0.1, 16, true, 3, false, &P::E, false},
    {"R", "Memory bandwidth", "R", "GB/s",
     "Maximum sustainable memory-system throughput of the device. Per SM: R_req = R / (request_bytes * "
     "clock * SMs) requests/cycle; MS transition delta = R_req * L.",
     M, kMinBandwidthGbs, 1e6, 1, 20000, true, 1, false, &P::R, false},
    {"L", "Memory latency", "L", "cycles",
     "Unloaded memory latency. Loaded latency Lm(k) = max(L, k / R_req); without cache f(k) = k / Lm(k).",
     M, 1, 1e6, 10, 5000, true, 1, false, &P::L, false},
    {"M", "Compute lanes", "M", "inst/cycle",
     "Warp-instructions issued per cycle per SM: the height of g(x) = min(E*x/L_c, M).",
     M, 1e-3, 1e4, 0.01, 64, true, 3, false, &P::M, false},
    {"L_c", "Dependent-issue latency", "L_c", "cycles",
     "Cycles between two dependent instructions of one warp: a warp with E independent chains issues E "
     "instructions per L_c cycles, so g(x) = min(E*x/L_c, M) and pi = M*L_c/E. 1 is the paper's model; "
     "about 4 on Volta and later, 6 on Maxwell, 9 on Kepler, 18-22 on Fermi.",
     M, 1, 1000, 1, 64, true, 2, false, &P::L_c, true},
    {"S_s", "Shared cache size", "S_s", "KiB",
     "Shared cache capacity per SM. Locality mode hit rate h(k) = 1 - (S_s/(beta*k) + 1)^(1-alpha) (Eq. 3).",
     M, 0, 1e6, 1, 1024, true, 1, false, &P::S_s, false},
    {"L_s", "Cache latency", "L_s", "cycles",
     "Shared cache hit latency. Average latency h*L_s + (1-h)*Lm(k) (Eq. 1).",
     M, 0.01, 1e5, 1, 1000, true, 1, false, &P::L_s, false},
    {"h", "Hit rate", "h", "",
     "Constant shared-cache hit rate (cache mode 'fixed'): f(k) = k / (h*L_s + (1-h)*Lm(k)).",
     W, 0, 1, 0, 1, false, 3, false, &P::h, false},
    {"alpha", "Locality exponent", "alpha", "",
     "Workload locality (Eq. 3): h(k) = 1 - (S_s/(beta*k) + 1)^(1-alpha). alpha = 1 means no reuse. Cache "
     "mode 'two-level': the sharpness of the L1 capacity step, miss share m_1(k) = 1 / (1 + "
     "(S_s/(beta*k))^alpha).",
     W, 1, 100, 1, 8, false, 3, false, &P::alpha, false},
    {"beta", "Locality footprint", "beta", "KiB",
     "Workload locality (Eq. 3): cache footprint scale per warp; larger beta thrashes sooner.",
     W, 1e-6, 1e6, 0.001, 100, true, 4, false, &P::beta, false},
    {"bypass", "Cache bypass", "b", "",
     "Share of the warps in the memory system whose requests bypass the shared cache (thread-level cache "
     "bypassing). Of k warps, (1-b)*k share the cache, so locality mode uses h((1-b)*k), and b*k go "
     "straight to memory: f(k) = f_cache((1-b)*k) + b*k/Lm(k). 0 = every request uses the cache.",
     W, 0, 0.99, 0, 0.99, false, 3, false, &P::bypass, true},
    {"m", "Requests in flight", "m", "req/warp",
     "Memory requests one warp has in flight while it waits (independent loads; stores do not hold a warp). "
     "k warps keep k*m requests in flight: f(k) = k*m / Lm(k), Lm(k) = max(L, k*m / R_req). 1 = the paper's "
     "model.",
     W, 1, 256, 1, 64, true, 2, false, &P::m, true},
    {"req_bytes", "Bytes per request", "B_req", "B",
     "Bytes one memory request of the workload moves (sectors x 32 / requests): 64, 128, 256 or 512 for "
     "2-, 4-, 8- or 16-byte accesses of a warp. MS throughput in GB/s = requests/s x B_req. 0 = the "
     "machine's request size.",
     W, 0, 65536, 0, 1024, false, 0, false, &P::req_bytes, true},
    {"dram_bytes", "DRAM bytes per request", "B_dram", "B",
     "DRAM bytes per memory request after the caches (dram__bytes / requests). The DRAM byte bandwidth caps "
     "the requests: f(k) <= R_dram / (B_dram * clock * SMs). 0 = B_req times the share that misses the "
     "caches.",
     W, 0, 65536, 0, 1024, false, 1, false, &P::dram_bytes, true},
    {"h_2", "L2 hit rate", "h_2", "",
     "Share of the requests that miss the shared cache and hit the L2 (cache mode 'fixed'): average latency "
     "h*L_s + (1-h)*(h_2*L_2 + (1-h_2)*Lm(k)). 0 = one cache level.",
     W, 0, 1, 0, 1, false, 3, false, &P::h_2, true},
    {"R_dram", "DRAM byte bandwidth", "R_dram", "GB/s",
     "Most DRAM bytes per second the device moves whatever the request size (R counts requests of the "
     "machine's request size). Caps f(k) <= R_dram / (B_dram * clock * SMs). 0 = no limit beyond R.",
     M, 0, 1e6, 0, 20000, false, 1, false, &P::R_dram, true},
    {"L_2", "L2 latency", "L_2", "cycles",
     "Hit latency of the second cache level (L2), used where h_2 > 0 and in cache mode 'two-level'. 0 = "
     "no second level.",
     M, 0, 1e5, 0, 2000, false, 1, false, &P::L_2, true},
    {"S_2", "L2 size", "S_2", "KiB",
     "Second-level (L2) cache capacity per SM: the device's L2 divided by its SMs (cache mode 'two-level'). "
     "L2 miss share m_2(k) = 1 / (1 + (S_2/(beta*k))^alpha_2). 0 = no second level.",
     M, 0, 1e6, 0, 4096, false, 1, false, &P::S_2, true},
    {"alpha_2", "L2 capacity sharpness", "gamma_2", "",
     "How sharply the L2 stops holding the footprint (cache mode 'two-level'): m_2(k) = 1 / (1 + "
     "(S_2/(beta*k))^alpha_2). Large values: the hit rate drops from 1 to 0 as beta*k passes S_2 (a private "
     "cyclic footprint); 1 = Eq. 3's alpha = 2.",
     W, 1, 100, 1, 32, false, 3, false, &P::alpha_2, true},
    {"R_l2", "L2 byte bandwidth", "R_l2", "GB/s",
     "Most bytes per second the L2 serves the SMs, at the profile's clock (it scales with the SM clock). Caps "
     "f(k) <= R_l2 / (B_l2 * clock * SMs), B_l2 the bytes per request that reach the L2; in cache mode "
     "'two-level' the L2's hits queue at that rate instead (MODEL.md 1.3). 0 = no L2 ceiling.",
     M, 0, 1e7, 0, 50000, false, 0, false, &P::R_l2, true},
    {"R_l1", "L1 byte bandwidth", "R_l1", "GB/s",
     "Most bytes per second the L1/TEX caches of all SMs move (32-byte sectors), at the profile's clock. Caps "
     "f(k) <= R_l1 / (B_req * clock * SMs). 0 = no L1 ceiling.",
     M, 0, 1e7, 0, 100000, false, 0, false, &P::R_l1, true},
    {"registers", "Registers per SM", "r_SM", "",
     "32-bit registers per SM. A kernel whose threads use r registers, more than the r_SM / (n_max * w) a "
     "thread has at full occupancy, holds r / that as many independent chains and loads (E and m of a "
     "profiled kernel scale with it). 0 = unknown.",
     M, 0, 1e7, 0, 262144, false, 0, true, &P::registers, true},
    {"l2_bytes", "L2 bytes per request", "B_l2", "B",
     "Bytes per memory request that reach the L2 (the L1 misses): B_req x (1 - L1 hit rate). The L2 byte "
     "bandwidth caps f(k) <= R_l2 / (B_l2 * clock * SMs). 0 = B_req times the share that misses the shared "
     "cache.",
     W, 0, 65536, 0, 1024, false, 1, false, &P::l2_bytes, true},
    {"sm_count", "SMs", "SMs", "", "Streaming multiprocessors (or cores) of the device.", M, 1, 100000, 1, 1024,
     true, 0, true, &P::sm_count, false},
    {"clock_ghz", "Clock", "f_clk", "GHz", "Core clock that converts per-cycle rates to per-second rates.", M,
     1e-3, 100, 0.1, 5, true, 3, false, &P::clock_ghz, false},
    {"warp_size", "Warp size", "w", "threads", "Threads per warp (1 for a CPU hardware thread).", M, 1, 1024, 1,
     64, true, 0, true, &P::warp_size, false},
    {"max_warps", "Max warps", "n_max", "warps/SM", "Warp slots per SM: the most warps that can be resident.",
     M, 1, 100000, 1, 1024, true, 0, true, &P::max_warps, false},
    {"request_bytes", "Request size", "b_req", "B",
     "Bytes moved by one warp memory request (128 for a coalesced 4-byte warp access, 256 for 8-byte).", M,
     1, 65536, 1, 1024, true, 0, false, &P::request_bytes, false},
}};

} // namespace

std::string_view cacheModeName(CacheMode mode)
{
    switch (mode) {
    case CacheMode::None:
        return "none";
    case CacheMode::Fixed:
        return "fixed";
    case CacheMode::Locality:
        return "locality";
    case CacheMode::TwoLevel:
        return "two-level";
    }
    return "none";
}

std::optional<CacheMode> cacheModeFromName(std::string_view name)
{
    if (name == "none")
        return CacheMode::None;
    if (name == "fixed")
        return CacheMode::Fixed;
    if (name == "locality")
        return CacheMode::Locality;
    if (name == "two-level")
        return CacheMode::TwoLevel;
    return std::nullopt;
}

std::string_view cacheModeChoices()
{
    return "none, fixed, locality or two-level";
}

std::span<const ParameterInfo> parameterInfos()
{
    return kInfos;
}

const ParameterInfo *findParameter(std::string_view key)
{
    for (const auto &info : kInfos) {
        if (info.key == key)
            return &info;
    }
    return nullptr;
}

std::optional<std::string> checkValue(const ParameterInfo &info, double value)
{
    if (!std::isfinite(value))
        return "must be a finite number (got " + formatExact(value) + ")";
    if (value < info.min || value > info.max) {
        return "must be between " + formatExact(info.min) + " and " + formatExact(info.max) + " (got "
            + formatExact(value) + ")";
    }
    if (info.integer && value != std::floor(value))
        return "must be a whole number (got " + formatExact(value) + ")";
    if ((info.member == &P::R_dram || info.member == &P::R_l2 || info.member == &P::R_l1) && value > 0
        && value < kMinBandwidthGbs) {
        return "must be 0 (no limit) or between " + formatExact(kMinBandwidthGbs) + " and " + formatExact(info.max)
            + " (got " + formatExact(value) + ")";
    }
    return std::nullopt;
}

void setFromText(XModelParams &params, std::string_view key, std::string_view value)
{
    if (key == "cache") {
        const auto mode = cacheModeFromName(value);
        if (!mode)
            throw InputError("parameter 'cache': must be " + std::string(cacheModeChoices()) + " (got '"
                             + quoteForMessage(value) + "')");
        params.cache = *mode;
        return;
    }
    const ParameterInfo *info = findParameter(key);
    if (!info)
        throw InputError("unknown parameter '" + quoteForMessage(key) + "'");
    const std::optional<double> v = parseNumber(value);
    if (!v && isNumberOutOfRange(value)) {
        throw InputError("parameter '" + std::string(key) + "': '" + quoteForMessage(value)
                         + "' is out of range: must be between " + formatExact(info->min) + " and "
                         + formatExact(info->max));
    }
    if (!v)
        throw InputError("parameter '" + std::string(key) + "': '" + quoteForMessage(value) + "' is not a number");
    if (auto problem = checkValue(*info, *v))
        throw InputError("parameter '" + std::string(key) + "': " + *problem);
    params.*(info->member) = *v;
}

void validate(const XModelParams &params)
{
    for (const auto &info : kInfos) {
        if (auto problem = checkValue(info, params.*(info.member)))
            throw InputError("parameter '" + std::string(info.key) + "': " + *problem);
    }
}

} // namespace crossroof::core
