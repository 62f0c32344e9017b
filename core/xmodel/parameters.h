// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace crossroof::core {

class MeasuredCurve;

/// How the memory system's shared cache is modelled (MODEL.md 1.3).
enum class CacheMode { None, Fixed, Locality, TwoLevel };

std::string_view cacheModeName(CacheMode mode);
std::optional<CacheMode> cacheModeFromName(std::string_view name);
/// The accepted names, for messages: "none, fixed, locality or two-level".
std::string_view cacheModeChoices();

/// Every parameter of the X-model, in MODEL.md 1.2 units. Machine keys come from a profile,
/// workload keys describe the application; both can be changed for what-if analysis.
struct XModelParams
{
    // machine: device shape
    double sm_count = 15;
    double clock_ghz = 1.0;
    double warp_size = 32;
    double max_warps = 48;
    double request_bytes = 128;
    // machine: memory and compute system
    double R = 100;   ///< GB/s for the whole device
    double L = 500;   ///< cycles
    double M = 1;     ///< warp-instructions per cycle per SM
    double L_c = 1;   ///< cycles between two dependent instructions of one warp (1 = the paper's model)
    double S_s = 16;  ///< KiB per SM
    double L_s = 30;  ///< cycles
    double R_dram = 0; ///< DRAM byte bandwidth of the device, GB/s, whatever the request size; 0 = only R limits
    double L_2 = 0;    ///< second-level (L2) cache hit latency, cycles; used where h_2 > 0 or cache = two-level
    double S_2 = 0;    ///< L2 capacity per SM (the device's L2 over its SMs), KiB (cache = two-level); 0 = no L2
    double R_l2 = 0;   ///< L2 byte bandwidth of the device at clock_ghz, GB/s; 0 = no L2 ceiling (memory_levels.h)
    double R_l1 = 0;   ///< L1 (L1/TEX sector) byte bandwidth of the device at clock_ghz, GB/s; 0 = no L1 ceiling
    double registers = 0; ///< 32-bit registers per SM; 0 = unknown (no register-held parallelism, MODEL.md 1.7)
    // workload
    double n = 48;    ///< warps resident per SM
    double Z = 16;    ///< warp-instructions per memory request
    double E = 1;     ///< ILP
    CacheMode cache = CacheMode::None;
    double h = 0;     ///< hit rate (cache = fixed)
    double alpha = 2; ///< locality exponent (cache = locality); sharpness of the L1 capacity step (two-level)
    double beta = 1;  ///< KiB (cache = locality)
    double bypass = 0; ///< share of the warps in the MS whose requests bypass the shared cache (0 = none)
    double h_2 = 0;    ///< L2 hit rate of the requests that miss the shared cache (cache = fixed)
    double m = 1;      ///< memory requests one warp has in flight while it waits
    double req_bytes = 0;  ///< bytes one request of the workload moves; 0 = request_bytes
    double dram_bytes = 0; ///< DRAM bytes per request after the caches; 0 = req_bytes times the miss share
    double l2_bytes = 0;   ///< bytes per request that reach the L2 (L1 misses); 0 = req_bytes times (1 - h)
    double alpha_2 = 2; ///< sharpness of the L2 capacity step (cache = two-level)
    /// A measured f(k) (GB/s against warps) that stands in for the analytic supply up to its last point;
    /// none: the analytic curve everywhere.
    std::shared_ptr<const MeasuredCurve> measured_f;
    /// A measured g(x) (Gop/s against warps computing), likewise.
    std::shared_ptr<const MeasuredCurve> measured_g;

    /// Instructions one computing warp issues per cycle: E independent chains, one instruction of each per
    /// L_c cycles. g(x) = min(issueRate() * x, M).
    double issueRate() const { return E / L_c; }
    /// Saturation throughput in requests per cycle per SM (R counts requests of request_bytes).
    double requestRate() const { return R * 1e9 / (request_bytes * clock_ghz * 1e9 * sm_count); }
    /// Bytes one request of the workload moves: req_bytes, or the machine's request_bytes when that is 0.
    double workloadRequestBytes() const { return req_bytes > 0 ? req_bytes : request_bytes; }
    /// Conversion factor: requests/cycle/SM -> GB/s for the device, at the workload's request size.
    double gbsPerRequestRate() const { return workloadRequestBytes() * clock_ghz * sm_count; }
    /// Conversion factor: warp-instructions/cycle/SM -> Gop/s for the device.
    double gopsPerInstructionRate() const { return warp_size * clock_ghz * sm_count; }

    bool operator==(const XModelParams &) const = default;
};

enum class ParameterSide { Machine, Workload };

/// What a user needs to know about one numeric parameter: how to show it, its unit, the valid range
/// (hard limits, checked everywhere) and the range a slider covers.
struct ParameterInfo
{
    std::string_view key;
    std::string_view label;    ///< short display name, e.g. "Compute intensity"
    std::string_view symbol;   ///< as in the papers, e.g. "Z"
    std::string_view unit;     ///< empty when dimensionless
    std::string_view tooltip;  ///< meaning and the formula it enters
    ParameterSide side;
    double min;                ///< hard limits, inclusive
    double max;
    double slider_min;         ///< slider range; spin boxes allow [min, max]
    double slider_max;
    bool log_scale;            ///< slider in log scale (range spans decades)
    int decimals;
    bool integer;              ///< must be a whole number
    double XModelParams::*member;
    /// Machine keys must be in every profile unless this is set; then an absent key keeps its default.
    bool optional_in_profile = false;
};

/// All numeric parameters, in display order.
std::span<const ParameterInfo> parameterInfos();
/// Information on one key, or nullptr for an unknown key (the key "cache" is not numeric).
const ParameterInfo *findParameter(std::string_view key);

/// Checks one value against its key's rules; returns an error text ("must be > 0 (got -5)") or nothing.
std::optional<std::string> checkValue(const ParameterInfo &info, double value);

/// Sets KEY to the text VALUE, as on the command line (`--set Z=8`, `--set cache=locality`).
/// Throws InputError naming the key on an unknown key, a malformed number or a value out of range.
void setFromText(XModelParams &params, std::string_view key, std::string_view value);

/// Checks every field; throws InputError naming the first bad key.
void validate(const XModelParams &params);

} // namespace crossroof::core
