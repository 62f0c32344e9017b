// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/advisor.h"

#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/xmodel/measured_curve.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>

namespace crossroof::core {

namespace {

constexpr double kTie = 1e-9; // relative throughput difference treated as a tie in the searches
constexpr double kMaxBypass = 0.95; // the largest bypass share the advisor tries

bool isStable(Stability s)
{
    return s == Stability::Stable || s == Stability::Neutral;
}

struct Evaluation
{
    double ms_gbs = 0;
    double cs_gops = 0;
    double k = 0;
    int stable_count = 0;
    // The stable state with the largest k, the lowest throughput (the operating point when it is alone).
    double low_ms_gbs = 0;
    double low_cs_gops = 0;
    double low_k = 0;
};

/// A full model evaluation: the operating point of XModel::solve() and the low stable state.
Evaluation evaluate(const XModelParams &p)
{
    const XGraphResult r = XModel(p).solve();
    const Equilibrium &op = r.operatingPoint();
    Evaluation e{op.ms_gbs, op.cs_gops, op.k, r.stableCount(), op.ms_gbs, op.cs_gops, op.k};
    for (const Equilibrium &q : r.equilibria) {
        if (isStable(q.stability) && q.k > e.low_k) {
            e.low_ms_gbs = q.ms_gbs;
            e.low_cs_gops = q.cs_gops;
            e.low_k = q.k;
        }
    }
    return e;
}

/// CS throughput at the operating point, or at the low stable state, with the lean scan, for searches over
/// many candidates.
double scannedCsGops(const XModel &model, const SupplyShape &shape, bool lowState)
{
    const EquilibriumScan scan(model, shape);
    double k = scan.operatingK();
    if (lowState && scan.stableCount() > 1) {
        for (const auto &root : scan.roots()) {
            if (isStable(root.stability))
                k = std::max(k, root.k);
        }
    }
    return model.toGops(model.csThroughput(model.params().n - k));
}

std::string format(const char *spec, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

std::optional<double> percent(double change, double base)
{
    if (base == 0)
        return std::nullopt;
    return 100 * change / base;
}

TuningAdvice notApplicable(TuningOperation op, std::string_view id, std::string_view name, std::string reason)
{
    TuningAdvice a;
    a.operation = op;
    a.id = id;
    a.name = name;
    a.applicable = false;
    a.reason = std::move(reason);
    return a;
}

/// Why the throughput moved, from Principles 1-3 of the X-model paper (section II). FROM_LOW: the change is
/// judged at the low stable state of a bistable machine (Advice::from_low_state).
void explain(TuningAdvice &a, const Evaluation &before, const XModelParams &p, bool fromLow)
{
    const double msChange = fromLow ? a.low_ms_change_gbs : a.ms_change_gbs;
    const double csChange = fromLow ? a.low_cs_change_gops : a.cs_change_gops;
    const double ms0 = fromLow ? before.low_ms_gbs : before.ms_gbs;
    const double cs0 = fromLow ? before.low_cs_gops : before.cs_gops;
    const double k0 = fromLow ? before.low_k : before.k;
    // A change within a tie is rounding of the solver (it printed "MS -4.547e-13 GB/s"): shown as none.
    const std::string ms = std::abs(msChange) <= kTie * std::abs(ms0) ? std::string("MS unchanged")
                                                                       : "MS " + formatGigaRate(msChange, "B/s", 4, true);
    std::string lead;
    if (fromLow) {
        lead = a.stable_count <= 1
                ? "One stable state is left, so the low state at k = " + format("%.3g", k0)
                          + " is gone and the machine settles at the operating point whatever state it was "
                            "in. "
                : "The machine stays bistable, and its low state moves from k = " + format("%.3g", k0)
                          + " to k = " + format("%.3g", a.low_k) + ". ";
    }
    const std::string crossing = fromLow ? "the low state's intersection" : "the intersection";
    if (a.operation != TuningOperation::RaiseZ) {
        a.principle = 2;
        const std::string subject
                = std::string(fromLow ? "The low state's intersection" : "The intersection") + " of f and G";
        const std::string unchanged = ") with Z unchanged, so CS throughput ";
        if (msChange > kTie * ms0)
            a.why = lead + subject + " moves up (" + ms + unchanged + "rises with it.";
        else if (msChange < -kTie * ms0)
            a.why = lead + subject + " moves down (" + ms + unchanged + "falls with it.";
        else
            a.why = lead + subject + " stays where it is and Z is unchanged, so neither throughput changes.";
        return;
    }
    a.principle = 3;
    const bool rightOfPi = p.n - k0 < p.M / p.issueRate() * (1 - kTie);
    if (csChange > kTie * cs0 && rightOfPi) {
        a.why = lead + "Z rises while " + crossing
                + " lies right of the CS transition pi (x < pi: the compute system is not saturated), so CS "
                  "throughput rises; MS throughput only follows the height of the intersection ("
                + ms + ").";
    } else if (!rightOfPi) {
        a.why = lead
                + "The intersection lies left of the CS transition pi (x >= pi): the compute system is "
                  "saturated at M, so more instructions per request cannot raise CS throughput ("
                + ms + ").";
    } else {
        a.why = lead + "Z rises with " + crossing + " right of pi, but the intersection also moves down ("
                + ms + "), so CS throughput does not rise here.";
    }
}

/// Fills the outcome of an applicable operation from a full evaluation of the changed parameters.
TuningAdvice assess(TuningOperation op, std::string_view id, std::string_view name,
                    const XModelParams &current, const Evaluation &before, bool fromLow,
                    std::vector<ParameterChange> changes)
{
    TuningAdvice a;
    a.operation = op;
    a.id = id;
    a.name = name;
    a.changes = std::move(changes);
    a.params = current;
    for (const auto &c : a.changes)
        a.params.*(findParameter(c.key)->member) = c.to;
    const Evaluation after = evaluate(a.params);
    a.k = after.k;
    a.ms_gbs = after.ms_gbs;
    a.cs_gops = after.cs_gops;
    a.ms_change_gbs = after.ms_gbs - before.ms_gbs;
    a.cs_change_gops = after.cs_gops - before.cs_gops;
    a.ms_change_percent = percent(a.ms_change_gbs, before.ms_gbs);
    a.cs_change_percent = percent(a.cs_change_gops, before.cs_gops);
    a.stable_count = after.stable_count;
    a.low_k = after.low_k;
    a.low_ms_gbs = after.low_ms_gbs;
    a.low_cs_gops = after.low_cs_gops;
    a.low_ms_change_gbs = after.low_ms_gbs - before.low_ms_gbs;
    a.low_cs_change_gops = after.low_cs_gops - before.low_cs_gops;
    a.low_ms_change_percent = percent(a.low_ms_change_gbs, before.low_ms_gbs);
    a.low_cs_change_percent = percent(a.low_cs_change_gops, before.low_cs_gops);
    explain(a, before, current, fromLow);
    return a;
}

/// assess(), unless the operation's search ended where it started: then it changes nothing and is not applicable,
/// UNCHANGED saying why (a row "n 23 -> 23" would rank a change that is none).
TuningAdvice assessOrNone(TuningOperation op, std::string_view id, std::string_view name,
                          const XModelParams &current, const Evaluation &before, bool fromLow,
                          std::vector<ParameterChange> changes, std::string unchanged)
{
    if (std::all_of(changes.begin(), changes.end(), [](const ParameterChange &c) { return c.to == c.from; }))
        return notApplicable(op, id, name, std::move(unchanged));
    return assess(op, id, name, current, before, fromLow, std::move(changes));
}

/// What the searches judge: the CS throughput after the operation, at the low state when FROM_LOW.
double judgedCs(const TuningAdvice &a, bool fromLow)
{
    return fromLow ? a.low_cs_gops : a.cs_gops;
}

bool sameThroughput(double a, double b)
{
    return std::abs(a - b) <= kTie * std::max(std::abs(a), std::abs(b));
}

/// Fills TuningAdvice::ties and tie_reason of the applicable operations in OPS that end at the same CS
/// throughput, and says why: the compute system's ceiling M, the operating point the machine already had, or
/// no change at all.
void explainTies(std::vector<TuningAdvice> &ops, const XModelParams &p, const Evaluation &before, bool fromLow)
{
    const double ceiling = XModel(p).toGops(p.M); // g(x) = min(issue rate x, M): no operation changes M
    for (TuningAdvice &a : ops) {
        if (!a.applicable)
            continue;
        const double cs = judgedCs(a, fromLow);
        bool allOneState = a.stable_count == 1;
        for (const TuningAdvice &b : ops) {
            if (&b != &a && b.applicable && sameThroughput(judgedCs(b, fromLow), cs)) {
                a.ties.push_back(b.name);
                allOneState = allOneState && b.stable_count == 1;
            }
        }
        if (a.ties.empty())
            continue;
        const std::string gops = formatGigaRate(cs, "op/s", 4);
        const bool saturated = !p.measured_g && cs >= ceiling * (1 - kTie);
        const bool unchanged = sameThroughput(cs, fromLow ? before.low_cs_gops : before.cs_gops);
        if (fromLow && allOneState && sameThroughput(cs, before.cs_gops)) {
            a.tie_reason = "each leaves one stable state, the operating point the machine has from a cold start ("
                           + gops + ")";
            if (saturated)
                a.tie_reason += ", where the compute system is saturated at M (x >= pi), so no operation can go "
                                "higher";
        } else if (saturated) {
            a.tie_reason = "each ends with the compute system saturated at M (x >= pi), " + gops
                           + ", which no operation can exceed";
        } else if (unchanged) {
            a.tie_reason = "none of them moves the CS throughput from " + gops;
        } else {
            a.tie_reason = "each ends at the same CS throughput, " + gops;
        }
    }
}

double clampTo(std::string_view key, double v)
{
    const ParameterInfo *info = findParameter(key);
    return std::clamp(v, info->min, info->max);
}

/// The index of the highest CS throughput among the candidates; ties go to the last (put the smallest change
/// last).
template<typename Fn>
std::size_t bestOf(std::size_t count, Fn &&csAt)
{
    std::vector<double> cs(count);
    for (std::size_t i = 0; i < count; ++i)
        cs[i] = csAt(i);
    const double top = *std::max_element(cs.begin(), cs.end());
    std::size_t best = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (cs[i] >= top - kTie * std::abs(top))
            best = i;
    }
    return best;
}

} // namespace

std::string describeChange(const ParameterChange &change, std::string_view arrow)
{
    const ParameterInfo *info = findParameter(change.key);
    std::string text = std::string(info ? info->symbol : change.key) + " " + format("%.4g", change.from)
                       + std::string(arrow) + format("%.4g", change.to);
    if (info && !info->unit.empty()) {
        text += ' ';
        text += info->unit;
    }
    return text;
}

int bestThreadCount(const XModelParams &params, bool fromLowState)
{
    validate(params);
    const SupplyShape shape(params); // f does not depend on n
    const std::size_t count = std::size_t(params.n);
    return int(bestOf(count,
                      [&](std::size_t i) {
                          XModelParams p = params;
                          p.n = double(i + 1);
                          return scannedCsGops(XModel(p), shape, fromLowState);
                      }))
           + 1;
}

namespace {

/// min(M/Z, highest f on [0, top]) - lowest f past the first peak, GB/s. f rises between the falling
/// stretches: its highest value on [0, top] is at a stretch's start or at top, its lowest past the first peak
/// at a stretch's end or at top.
double largestDrop(const XModel &model, const SupplyShape &shape, double top)
{
    const XModelParams &params = model.params();
    if (params.measured_f) {
        // A measured f turns only at its points (the analytic curve beyond them): sampled finely enough to
        // land on each of them, the highest f and the lowest after the first fall.
        constexpr int kSteps = 4096;
        double highest = 0;
        double lowest = std::numeric_limits<double>::infinity();
        bool fallen = false;
        double previous = 0;
        for (int i = 1; i <= kSteps; ++i) {
            const double f = model.msSupply(top * i / kSteps);
            fallen = fallen || f < previous;
            if (fallen)
                lowest = std::min(lowest, f);
            highest = std::max(highest, f);
            previous = f;
        }
        const std::vector<double> &turns = params.measured_f->turns(); // peak, valley, peak, ...
        for (std::size_t i = 0; i < turns.size() && turns[i] < top; ++i) {
            const double f = model.msSupply(turns[i]);
            if (i % 2 == 0)
                highest = std::max(highest, f);
            else
                lowest = std::min(lowest, f);
        }
        return fallen ? model.toGbs(std::max(0.0, std::min(params.M / params.Z, highest) - lowest)) : 0;
    }
    const auto falling = shape.falling();
    if (falling.empty() || falling.front().lo >= top)
        return 0;
    double highest = model.msSupply(top);
    double lowest = highest;
    for (const auto &s : falling) {
        if (s.lo >= top)
            break;
        highest = std::max(highest, model.msSupply(s.lo));
        lowest = std::min(lowest, model.msSupply(std::min(s.hi, top)));
    }
    return model.toGbs(std::max(0.0, std::min(params.M / params.Z, highest) - lowest));
}

} // namespace

double worstDegradationGbs(const XModelParams &params)
{
    return worstDegradationGbs(params, SupplyShape(params));
}

double worstDegradationGbs(const XModelParams &params, const SupplyShape &shape)
{
    validate(params);
    const XModel model(params);
    return largestDrop(model, shape, std::max(params.n, params.max_warps));
}

DegradationBounds degradationBounds(const XModelParams &params)
{
    validate(params);
    const XModel model(params);
    DegradationBounds d;

    // f and G(x) do not depend on n: one model and one shape serve every n, whole or not.
    const SupplyShape shape(params);
    const double top = std::max(params.n, params.max_warps);
    const auto falling = shape.falling();
    if (!params.measured_f && (falling.empty() || falling.front().lo >= top))
        return d; // f never falls on [0, top]: one stable state for every n
    auto stableAt = [&](double n) { return EquilibriumScan(model, shape, n).stableCount(); };
    double hi = 0;
    for (double n = 1; n <= top; ++n) {
        if (stableAt(n) >= 2) {
            hi = n;
            break;
        }
    }
    if (hi == 0)
        return d;
    d.bistable = true;

    d.max_gbs = largestDrop(model, shape, top);

    double lo = hi - 1;
    if (lo == 0) {
        lo = 1e-6;
        if (stableAt(lo) >= 2)
            return d;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (stableAt(mid) >= 2 ? hi : lo) = mid;
    }
    double high = -1;
    double low = -1;
    for (const auto &root : EquilibriumScan(model, shape, hi).roots()) {
        if (root.stability != Stability::Stable && root.stability != Stability::Neutral)
            continue;
        const double gbs = model.toGbs(model.msSupply(root.k));
        high = high < 0 ? gbs : std::max(high, gbs);
        low = low < 0 ? gbs : std::min(low, gbs);
    }
    d.tangency_n = hi;
    d.tangency_high_gbs = high;
    d.tangency_low_gbs = low;
    d.min_drop_gbs = high - low;
    return d;
}

Advice advise(const XModelParams &p, const AdvisorOptions &options)
{
    validate(p);
    if (!(options.z_factor > 1) || !std::isfinite(options.z_factor))
        throw InputError("advisor: the Z factor must be above 1 (got " + format("%g", options.z_factor)
                         + ")");
    if (options.e_candidates < 2 || options.e_candidates > 100000)
        throw InputError("advisor: E candidates must be between 2 and 100000");
    if (options.bypass_candidates < 2 || options.bypass_candidates > 100000)
        throw InputError("advisor: bypass candidates must be between 2 and 100000");
    if (options.cache_size_kib) {
        if (auto problem = checkValue(*findParameter("S_s"), *options.cache_size_kib))
            throw InputError("advisor: cache size " + *problem);
        if (*options.cache_size_kib <= p.S_s) {
            throw InputError("advisor: the larger cache must be above S_s = " + format("%g", p.S_s)
                             + " KiB (got " + format("%g", *options.cache_size_kib) + ")");
        }
    }

    Advice advice;
    advice.params = p;
    const Evaluation before = evaluate(p);
    advice.ms_gbs = before.ms_gbs;
    advice.cs_gops = before.cs_gops;
    advice.k = before.k;
    advice.stable_count = before.stable_count;
    advice.low_k = before.low_k;
    advice.low_ms_gbs = before.low_ms_gbs;
    advice.low_cs_gops = before.low_cs_gops;
    const bool low = advice.from_low_state = before.stable_count >= 2;
    auto &ops = advice.operations;

    // Thread throttling (Fig. 14): decrease n; the best n is found by evaluating every n.
    const std::string judged = low ? " of the low state" : "";
    const int n = bestThreadCount(p, low);
    ops.push_back(assessOrNone(TuningOperation::ThreadThrottling, "thread_throttling", "Thread throttling", p,
                               before, low, {{"n", p.n, double(n)}},
                               "n = " + format("%g", p.n) + " is already the best: no smaller n raises the CS "
                                       "throughput" + judged));

    // Cache bypassing (Fig. 15): let a share b of the warps bypass the cache, so that fewer warps thrash it;
    // the best b of a grid (ties go to the smallest change). It helps where the intersection lies on a falling
    // f; the best is reached about where the cache users' supply meets its peak (the paper's Fig. 15 bound).
    const bool capacityCache = p.cache == CacheMode::Locality || p.cache == CacheMode::TwoLevel;
    if (capacityCache && XModel(p).landmarks().psi && p.bypass < kMaxBypass) {
        std::vector<double> bs(std::size_t(options.bypass_candidates));
        for (std::size_t i = 0; i < bs.size(); ++i)
            bs[i] = kMaxBypass - (kMaxBypass - p.bypass) * double(i) / double(bs.size() - 1);
        bs.back() = p.bypass;
        const std::size_t best = bestOf(bs.size(), [&](std::size_t i) {
            XModelParams q = p;
            q.bypass = bs[i];
            return scannedCsGops(XModel(q), SupplyShape(q), low);
        });
        ops.push_back(assessOrNone(TuningOperation::CacheBypassing, "cache_bypassing", "Cache bypassing", p,
                                   before, low, {{"bypass", p.bypass, bs[best]}},
                                   "no bypass share above b = " + format("%g", p.bypass)
                                           + " raises the CS throughput" + judged));
    } else {
        ops.push_back(notApplicable(TuningOperation::CacheBypassing, "cache_bypassing", "Cache bypassing",
                                    !capacityCache
                                            ? "bypassing only changes f with cache=locality or two-level"
                                    : p.bypass >= kMaxBypass
                                            ? "the warps already bypass the cache as far as the model goes"
                                            : "f has no cache peak, so no warps thrash the cache"));
    }

    // Larger cache (Fig. 13, Fig. 8-B): S_s enters f only in locality mode.
    const double size = options.cache_size_kib.value_or(2 * p.S_s);
    if (capacityCache && size > p.S_s) {
        ops.push_back(assessOrNone(TuningOperation::LargerCache, "larger_cache", "Larger cache", p, before, low,
                                   {{"S_s", p.S_s, clampTo("S_s", size)}},
                                   "S_s = " + format("%g", p.S_s) + " KiB is already the largest the model takes"));
    } else {
        ops.push_back(notApplicable(TuningOperation::LargerCache, "larger_cache", "Larger cache",
                                    !capacityCache
                                            ? "the cache capacity S_s enters f only with cache=locality or "
                                              "two-level"
                                            : "no shared cache to enlarge (S_s = 0)"));
    }

    // Faster cache (Fig. 8-C): halve the hit latency.
    if (p.cache != CacheMode::None) {
        ops.push_back(assessOrNone(TuningOperation::FasterCache, "faster_cache", "Faster cache", p, before, low,
                                   {{"L_s", p.L_s, clampTo("L_s", p.L_s / 2)}},
                                   "L_s = " + format("%g", p.L_s)
                                           + " cycles is already the smallest the model takes"));
    } else {
        ops.push_back(notApplicable(TuningOperation::FasterCache, "faster_cache", "Faster cache",
                                    "no shared cache modelled (cache=none)"));
    }

    // Higher compute intensity (Fig. 16).
    ops.push_back(assessOrNone(TuningOperation::RaiseZ, "raise_z", "Higher compute intensity", p, before, low,
                               {{"Z", p.Z, clampTo("Z", p.Z * options.z_factor)}},
                               "Z = " + format("%g", p.Z) + " is already the largest the model takes"));

    // Lower ILP (Fig. 17): the best E in [E/2, E].
    {
        const SupplyShape shape(p);
        std::vector<double> es(std::size_t(options.e_candidates));
        for (std::size_t i = 0; i < es.size(); ++i)
            es[i] = clampTo("E", p.E * (0.5 + 0.5 * double(i) / double(es.size() - 1)));
        es.back() = p.E;
        const std::size_t best = bestOf(es.size(), [&](std::size_t i) {
            XModelParams q = p;
            q.E = es[i];
            return scannedCsGops(XModel(q), shape, low);
        });
        ops.push_back(assessOrNone(TuningOperation::LowerE, "lower_e", "Lower ILP", p, before, low,
                                   {{"E", p.E, es[best]}},
                                   "no E between " + format("%.4g", es.front()) + " and E = " + format("%g", p.E)
                                           + " raises the CS throughput" + judged));
    }

    std::stable_sort(ops.begin(), ops.end(), [low](const TuningAdvice &a, const TuningAdvice &b) {
        if (a.applicable != b.applicable)
            return a.applicable;
        return a.applicable
               && (low ? a.low_cs_change_gops > b.low_cs_change_gops : a.cs_change_gops > b.cs_change_gops);
    });
    int rank = 0;
    for (auto &op : ops)
        op.rank = op.applicable ? ++rank : 0;
    explainTies(ops, p, before, low);

    advice.degradation = degradationBounds(p);
    return advice;
}

} // namespace crossroof::core
