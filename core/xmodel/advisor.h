// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

class SupplyShape;

/// The tuning operations of the X-model paper's case study (section VI, Figs. 12-17).
enum class TuningOperation { ThreadThrottling, CacheBypassing, LargerCache, FasterCache, RaiseZ, LowerE };

struct ParameterChange
{
    std::string_view key;
    double from = 0;
    double to = 0;
};

/// CHANGE as people read it: the parameter's symbol, the value before and after ARROW and the unit, e.g.
/// "n 48 -> 29", "b 0 -> 0.3", "S_s 16 -> 32 KiB" (four significant digits).
std::string describeChange(const ParameterChange &change, std::string_view arrow = " -> ");

/// One operation, predicted as the difference of two full model evaluations: XModel(after).solve()'s
/// operating point minus XModel(current).solve()'s.
struct TuningAdvice
{
    TuningOperation operation = TuningOperation::ThreadThrottling;
    std::string_view id;   ///< stable key for scripts, e.g. "thread_throttling"
    std::string_view name; ///< e.g. "Thread throttling"
    bool applicable = true;
    std::string reason;    ///< why it does not apply (when !applicable)
    std::vector<ParameterChange> changes;
    XModelParams params;   ///< the parameters after the operation
    double k = 0;          ///< operating point after, warps in the memory system
    double ms_gbs = 0;     ///< operating point after, device GB/s
    double cs_gops = 0;    ///< operating point after, device Gop/s
    double ms_change_gbs = 0;
    double cs_change_gops = 0;
    std::optional<double> ms_change_percent; ///< relative to the current throughput (none when that is 0)
    std::optional<double> cs_change_percent;
    int stable_count = 0;  ///< stable states after the change
    /// The low stable state after the change (the operating point when there is one), and its change against
    /// the current low state: what the machine keeps whichever state it is in (see Advice::from_low_state).
    double low_k = 0;
    double low_ms_gbs = 0;
    double low_cs_gops = 0;
    double low_ms_change_gbs = 0;
    double low_cs_change_gops = 0;
    std::optional<double> low_ms_change_percent;
    std::optional<double> low_cs_change_percent;
    int principle = 0;     ///< Principle 1, 2 or 3 (X-model paper, section II) that explains the change
    std::string why;       ///< one sentence
    int rank = 0;          ///< 1: the largest CS gain (from the low state when bistable); 0: not applicable
    /// The other applicable operations that end at the same CS throughput (within 1e-9, from the low state
    /// when bistable), by name in rank order, and why they do; both empty when it ties with none.
    std::vector<std::string_view> ties;
    std::string tie_reason;
};

/// How far a bistable machine can fall when warps are added (the X-model paper, III-D-2, MODEL.md 1.5).
struct DegradationBounds
{
    /// Whether a second stable state appears for some whole n in 1..max(n, max_warps). False without a
    /// falling stretch of f (no cache, a fixed hit rate) or with one stable state over the whole range; the
    /// throughput then never falls from one state to another and max_gbs is 0.
    bool bistable = false;
    /// The largest fall of the MS throughput, GB/s, from a stable state at some n to the state the flow
    /// reaches after warps are added (never negative; 0 when not bistable). By construction: the state before
    /// is at most min(M/Z, the highest f on [0, top]), the state after, when lower, lies past the first cache
    /// peak, so at least the lowest f on [peak, top] (top = max(n, max_warps)). Both extremes are exact: f only
    /// falls on SupplyShape's stretches. With a flat plateau R beyond the peak it is the paper's M/Z - R_req
    /// whenever f's peak reaches M/Z, and smaller otherwise.
    double max_gbs = 0;
    /// The smallest n (a real number, found by bisection) where a second stable state appears: G(n-k)
    /// becomes tangent to f. Searched over n in (0, max(n, max_warps)]; none if the machine never turns
    /// bistable there.
    std::optional<double> tangency_n;
    std::optional<double> tangency_high_gbs; ///< the two stable states at the tangency
    std::optional<double> tangency_low_gbs;
    std::optional<double> min_drop_gbs;      ///< high - low: the smallest fall (sigma' to sigma'')
};

struct AdvisorOptions
{
    std::optional<double> cache_size_kib; ///< target of "larger cache"; default twice S_s
    double z_factor = 1.25;               ///< "raise Z": Z times this (+25 %, an algorithmic change)
    int e_candidates = 65;                ///< "lower E": the best of this many values spread over [E/2, E]
    int bypass_candidates = 96;           ///< "cache bypassing": the best of this many b over [b, 0.95]
};

struct Advice
{
    XModelParams params;
    double ms_gbs = 0;    ///< current operating point
    double cs_gops = 0;
    double k = 0;
    int stable_count = 0; ///< 2 or more: bistable, the operating point can fall (see degradation)
    /// The low stable state: the one with the largest k and so the lowest throughput (G(n-k) never rises in
    /// k). A perturbation larger than the margin, or a sweep down from a larger n or Z, leaves a bistable
    /// machine there, and it stays (MODEL.md 1.6). The operating point itself when there is one stable state.
    double low_k = 0;
    double low_ms_gbs = 0;
    double low_cs_gops = 0;
    /// True when bistable: the operating point is then the best state the machine has, and the operations are
    /// searched and ranked by what they do for the low state, the throughput kept whichever state it is in.
    bool from_low_state = false;
    /// Applicable operations by CS gain, largest first, then the operations that do not apply.
    std::vector<TuningAdvice> operations;
    DegradationBounds degradation;
};

/// Evaluates every tuning operation for PARAMS and ranks them. An operation whose search ends at the current
/// value (throttling where n is already the best, a parameter at its limit) changes nothing and is not
/// applicable, its reason saying so. Throws InputError on invalid parameters or options.
Advice advise(const XModelParams &params, const AdvisorOptions &options = {});

/// Thread throttling's search: the whole n in 1..params.n with the highest CS throughput at the operating
/// point (at the low stable state when FROM_LOW_STATE), every n evaluated (ties within 1e-9 go to the
/// largest n, the smallest change).
int bestThreadCount(const XModelParams &params, bool fromLowState = false);

/// The degradation bounds on their own.
DegradationBounds degradationBounds(const XModelParams &params);

/// DegradationBounds::max_gbs of a machine known to be bistable: min(M/Z, the highest f on [0, top]) minus
/// the lowest f past the first cache peak, top = max(n, max_warps); 0 where f never falls before top. Cheaper
/// than degradationBounds() (no search over n), for readouts that already know the machine is bistable.
double worstDegradationGbs(const XModelParams &params);
/// The same with SHAPE, the SupplyShape of PARAMS' supply (SupplyShape::sameSupply(PARAMS)), kept by a caller
/// whose f(k) does not change while n, Z or E do.
double worstDegradationGbs(const XModelParams &params, const SupplyShape &shape);

} // namespace crossroof::core
