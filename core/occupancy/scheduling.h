// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>
#include <vector>

namespace crossroof::core {

/// Hard limits on block counts: B_a * S and every pass count stay exact in 64-bit integers and doubles.
inline constexpr long long kMaxRequestedBlocks = 1LL << 40;
inline constexpr long long kMaxActiveBlocks = 1LL << 20;
inline constexpr long long kMaxSms = 1LL << 20;

/// Passes needed to run B_r requested blocks, B_a at a time on each of S SMs: ceil(B_r / (B_a*S)).
/// Throws InputError unless B_r, B_a and S are all >= 1 and within the limits above.
long long schedulingPasses(long long requestedBlocks, long long activeBlocks, long long sms);

/// The scheduling factor f_sched(B_r) = ceil(B_r / (B_a*S)) * B_a*S / B_r (Eq. 3; MODEL.md 2.2): 1 when B_r
/// is a multiple of B_a*S, above 1 otherwise (the last pass leaves SMs idle). Exactly 1.0 at the minima.
/// Throws InputError unless B_r, B_a and S are all >= 1 and within the limits above.
double schedulingFactor(long long requestedBlocks, long long activeBlocks, long long sms);

/// The most points one zigzag computes.
inline constexpr long long kMaxZigzagPoints = 1'000'000;

/// f_sched for every B_r in [br_min, br_max] (Fig. 1).
struct Zigzag
{
    long long blocks_per_pass = 0; ///< B_a * S
    std::vector<long long> br;     ///< br_min, br_min + 1, ..., br_max
    std::vector<double> f_sched;
    std::vector<long long> minima; ///< the B_r with f_sched = 1: the multiples of B_a * S in range
};

/// Throws InputError naming the bad value (S, B_a, the range) or a range of more than kMaxZigzagPoints.
Zigzag zigzag(long long sms, long long activeBlocks, long long brMin, long long brMax);

/// Which term of the TMM bound max(T1/P, T_inf, M*L/(T*P)) is largest (Eq. 1).
enum class TmmBound {
    Compute, ///< work T1/P: compute-bound, more threads do not help (Eq. 13)
    Span,    ///< critical path T_inf
    Memory   ///< M*L/(T*P): memory-latency-bound, time linear in 1/T (Eq. 14)
};

std::string_view tmmBoundName(TmmBound b); ///< "compute", "span", "memory"

/// Inputs of the TMM time model with scheduling (Table I; Eq. 1, 6-8), in the paper's (unit-free) steps.
struct TmmParams
{
    double work = 1;                ///< T1, operations
    double span = 0;                ///< T_inf, operations on the critical path
    double transactions = 0;        ///< M, global memory transactions
    double latency = 1;             ///< L, steps per slow-memory access
    double threads_per_core = 1;    ///< T (script T in the paper)
    double cores = 1;               ///< P
    long long requested_blocks = 1; ///< B_r
    long long active_blocks = 1;    ///< B_a per SM (from activeBlocks() or set by hand)
    long long sms = 1;              ///< S = P/Q
};

struct TmmResult
{
    double work_term = 0;               ///< T1 / P
    double span_term = 0;               ///< T_inf
    double memory_term = 0;             ///< M * L / (T * P)
    double t_p = 0;                     ///< max of the three (Eq. 1)
    long long passes = 0;               ///< ceil(B_r / (B_a*S))
    double f_sched = 1;                 ///< Eq. 3
    double time = 0;                    ///< t_p * f_sched (Eq. 6-7), proportional to the runtime
    TmmBound bound = TmmBound::Compute; ///< the largest term; ties go to compute, then span
};

/// Throws InputError naming the first bad field (negative work, latency or threads <= 0, ...).
TmmResult evaluateTmm(const TmmParams &p);

/// All-pairs shortest paths by repeated squaring with S_D x S_D sub-blocks (section III).
struct ApspParams
{
    long long vertices = 8192;   ///< n
    long long sub_block = 32;    ///< S_D, must divide n
    double chunk = 32;           ///< C, accesses grouped into one transaction
    double latency = 1;          ///< L
    double threads_per_core = 1; ///< T
    double cores = 480;          ///< P
    long long active_blocks = 1; ///< B_a
    long long sms = 15;          ///< S = P/Q
};

/// The APSP preset (Eq. 10-14): T1 = n^3 lg n, M = n^3 lg n / (S_D*C), B_r = (n/S_D)^2, span dropped
/// (footnote 5: T_inf << T1/P). Memory-bound exactly when T * S_D < L / C. Throws InputError on bad values.
TmmParams apspPreset(const ApspParams &a);

} // namespace crossroof::core
