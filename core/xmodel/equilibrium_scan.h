// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Where the MS supply f(k) falls, on k in [0, inf) (MODEL.md 1.3). It depends only on the machine and the
/// cache parameters, never on n, Z, E or M, so one shape serves a whole sweep over those.
///
/// Without cache and with a fixed hit rate f never falls. In locality mode (Eq. 5, alpha > 1, S_s > 0), with
/// t = c/k, c = S_s/beta and a = alpha, the sign of f' is known in closed form:
/// - below delta, sign f' = sign(L_s + (L - L_s) (1+t)^-a (1 + (2-a) t)): f rises, falls from the cache peak
///   psi to the valley, and rises again; it can fall only when L > L_s and a > 2;
/// - above delta, sign f' = sign(L_s/c ((1+t)^a + (a-2) t - 1) - (a-1)/R_req), increasing in t: f rises up to
///   one peak and then falls for ever towards the plateau R_req (the cache lifts f above R near delta).
/// So f falls on at most two stretches, each found by one one-dimensional root. On each stretch f' is
/// unimodal (f bends from concave to convex once; checked on random parameters in tst_stability_map); its
/// minimum, the steepest descent, is found by a golden-section search the first time a scan needs it.
///
/// With a bypass share b the cache users' supply is the same Eq. 5 in kc = (1-b) k with R_req scaled by 1-b,
/// and the bypassing warps add b*min(k/L, R_req): the stretches above scale by 1/(1-b), and the one below
/// delta shrinks to where (1-b) f_c' < -b/L (or vanishes).
///
/// In two-level mode (MODEL.md 1.3) f can fall after each level's capacity and again above delta, and no
/// closed form gives where: f is evaluated on a log-spaced grid of k from 1e-9 to 1e7 warps, denser across
/// each level's capacity step (spacing 0.05/gamma in ln k within 30/gamma of beta*k = S), and the stretches
/// where it does not rise are refined by golden-section searches for the peaks and valleys between grid
/// points. Each stretch is split at the corners of f (where the requests past the L1 start queueing, and
/// delta with bypassing) and wherever f' has a local maximum, so that f' is unimodal on every stretch as the
/// scan needs; slope() is then a central difference of f, and above_delta says that the requests past the
/// L1 queue on the stretch.
class SupplyShape
{
public:
    /// A stretch [lo, hi] on which f does not rise (hi may be infinite).
    struct Falling
    {
        double lo = 0;
        double hi = 0;
        bool above_delta = false; ///< the stretch lies in k >= delta (Lm = k/R_req; two-level: see above)
    };

    explicit SupplyShape(const XModelParams &params);
    SupplyShape(const SupplyShape &other);
    SupplyShape &operator=(const SupplyShape &other);

    /// Whether params have the same f(k) (same machine and cache keys), so that this shape applies to them.
    bool sameSupply(const XModelParams &params) const;
    /// Whether the numeric KEY enters f(k): R, L, L_s, S_s, h, alpha, beta and the device shape behind R_req
    /// do; n, Z, E, M, warp_size and max_warps do not.
    static bool dependsOn(std::string_view key);
    /// Most falling stretches a shape holds (two in locality mode; in two-level mode more stretches, never
    /// seen, would be merged with their nearest neighbour).
    static constexpr std::size_t kMaxFalling = 8;

    /// The falling stretches, sorted by k (none, one or two; up to kMaxFalling in two-level mode).
    std::span<const Falling> falling() const { return {m_falling.data(), m_fallingCount}; }
    /// k where f' is lowest on falling stretch i (the inflection of f; capped at 1e6 warps on the last
    /// stretch). Computed on first use and kept; safe to call from several threads.
    double steepest(std::size_t i) const;
    /// f'(k) from Eq. 5 in requests/cycle/SM per warp, on the side of delta that aboveDelta names (two-level
    /// mode: a central difference of f).
    double slope(double k, bool aboveDelta) const;

private:
    void findLocality();
    void findNumeric();
    /// f(k) of m_p (two-level mode).
    double supply(double k) const;
    void applyBypass();
    void applyByteCap();
    /// f_c'(kc) of the cache users' supply, in their own kc.
    double cachedSlope(double kc, bool aboveDelta) const;

    XModelParams m_p;
    double m_keep = 1;  ///< 1 - bypass: share of the warps that use the cache
    double m_rreq = 0;  ///< R_req of the cache users, (1-b) R_req
    double m_delta = 0; ///< delta in kc
    std::optional<XModel> m_numeric; ///< two-level mode: the model whose f gives stretches and slopes
    std::array<Falling, kMaxFalling> m_falling{};
    std::size_t m_fallingCount = 0;
    mutable std::array<std::atomic<double>, kMaxFalling> m_steepest; ///< NaN until computed
};

/// The equilibria of the X-model found with a handful of evaluations of F(k) = f(k) - G(n-k): the lean path
/// behind the stability map, the hysteresis sweep and the advisor's searches.
///
/// G(n-k) never rises in k, so F can only turn around where f falls, and where G is flat (x >= pi) only where
/// f turns. The scan samples F at 0, n, delta, n - pi and the ends of the falling stretches; on a falling
/// stretch where G slopes, F' = f' + E/Z is unimodal as f' is, so F has at most one local maximum and one
/// local minimum there, found as the zeros of F' (Brent) only when their sign matters. Between two
/// consecutive samples F then crosses zero at most once, and the sign sequence gives the roots exactly.
///
/// It agrees with XModel::solve() (same rules, same zero tolerance 1e-11 of the throughput scale) on every
/// random case tst_stability_map draws, except (1) in a thin band around tangencies, where a root pair is
/// closer to touching than either method resolves: measured, counts agree once Z is 1e-7 (relative) away
/// from a tangency, and (2) for structure below n*1e-6 warps, which solve()'s grid does not reach and the
/// scan does.
///
/// n may be any positive real (solve() needs whole warps): the tangency search bisects on it. The shape must
/// be the model's (SupplyShape(model.params()), or one whose sameSupply() accepts them). The model and the
/// shape are referenced, not copied: they must outlive the scan.
class EquilibriumScan
{
public:
    /// One equilibrium as the scan sees it (XModel::solve() adds the descriptions).
    struct Root
    {
        double k = 0;
        double k_end = 0; ///< equal to k, except for a neutral interval
        Stability stability = Stability::Stable;
    };

    /// Scans the model's own n.
    EquilibriumScan(const XModel &model, const SupplyShape &shape);
    /// Scans with n replaced by any n > 0 (f and G(x) come from the model; only where x = n - k changes).
    EquilibriumScan(const XModel &model, const SupplyShape &shape, double n);

    double n() const { return m_n; }
    /// F(k) = f(k) - G(n-k) with this scan's n.
    double balance(double k) const;
    /// Number of stable equilibria, Stable and Neutral ones, as XGraphResult::stableCount() counts them.
    int stableCount() const { return m_stableCount; }
    /// k of the operating point: the first equilibrium above k = 0, reached from a cold start (MODEL.md 1.4).
    double operatingK() const;
    /// MS throughput of the device at the operating point, GB/s.
    double operatingGbs() const;
    /// Where the flow dk/dt = -F(k) comes to rest from k0 (clamped to [0, n]): the nearest equilibrium in the
    /// direction of -F(k0), or k0 itself when F(k0) is zero. Exact: in one dimension the flow is monotone and
    /// cannot pass a zero of F, and F keeps its sign up to that zero.
    double restFrom(double k0) const;
    /// Every equilibrium, sorted by k.
    std::vector<Root> roots() const;

private:
    struct Sample
    {
        double k;
        double F;
        int sign;
    };
    static constexpr std::size_t kMaxSamples = 6 * SupplyShape::kMaxFalling + 16;

    void scan(const SupplyShape &shape);
    void push(double k, double F);
    int signOf(double F) const;
    double rootBetween(std::size_t lo, std::size_t hi) const;
    double rootBetween(double a, double Fa, double b, double Fb) const;
    void countStable();
    /// Calls fn(lo, hi, crossing, stability) for each equilibrium in k order until fn returns false: a
    /// crossing lies between samples lo and hi, otherwise samples lo..hi are zero.
    template<typename Fn>
    void walk(Fn &&fn) const;

    const XModel &m_model;
    double m_n;
    double m_tol = 0;
    std::array<Sample, kMaxSamples> m_samples{};
    std::size_t m_count = 0;
    int m_stableCount = 0;
    bool m_dense = false;                    ///< a measured curve: the roots come from XModel::rootsAt()
    std::vector<XModel::Root> m_denseRoots;
};

} // namespace crossroof::core
