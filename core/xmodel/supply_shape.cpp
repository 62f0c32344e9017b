// SPDX-License-Identifier: GPL-3.0-or-later
// SupplyShape: where the MS supply f(k) falls, found once per machine and cache (equilibrium_scan.h), and
// XModel's cache peak and valley found from it.
#include "core/xmodel/equilibrium_scan.h"
#include "core/xmodel/measured_curve.h"

#include "core/xmodel/root_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::core {

using detail::brentRoot;
using detail::goldenMinLog;
using detail::logNewton;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

} // namespace

SupplyShape::SupplyShape(const XModelParams &params)
    : m_p(params)
    , m_keep(1 - params.bypass)
    , m_rreq(m_keep * params.requestRate())
    , m_delta(m_rreq * params.L)
{
    for (auto &s : m_steepest)
        s.store(kUnknown, std::memory_order_relaxed);
    // Without cache, with a fixed hit rate, with alpha = 1 or without capacity, f = k / (a + b*Lm(k)) rises;
    // the bypassing warps add b*min(k/L, R_req), which never falls.
    if (m_p.cache == CacheMode::Locality && m_p.alpha > 1 && m_p.S_s > 0) {
        findLocality();
        if (m_p.bypass > 0)
            applyBypass();
        if (m_p.R_dram > 0 || m_p.R_l2 > 0 || m_p.R_l1 > 0)
            applyByteCap();
    }
    if (m_p.cache == CacheMode::TwoLevel)
        findNumeric();
}

double SupplyShape::supply(double k) const
{
    return m_numeric->msSupply(k);
}

void SupplyShape::findNumeric()
{
    m_numeric.emplace(m_p);
    // The grid: log-spaced over [1e-9, 1e7] warps (n is at most 1e5), 32 points per decade, plus a dense band
    // across each level's capacity step, where the miss share 1/(1 + (S/(beta*kc))^gamma) turns within a few
    // 1/gamma of ln k = ln(S/(beta*(1-b))).
    constexpr double kLo = 1e-9;
    constexpr double kHi = 1e7;
    std::vector<double> ks;
    const double decades = std::log10(kHi / kLo);
    const int coarse = int(32 * decades);
    ks.reserve(std::size_t(coarse) + 2 * 1201 + 1);
    for (int i = 0; i <= coarse; ++i)
        ks.push_back(kLo * std::pow(10.0, decades * i / coarse));
    const double delta
            = m_p.requestRate() * m_p.L / m_p.m; // the bypassing warps' corner, Lm(k) = max(L, k*m/R_req)
    for (const auto &[capacity, gamma] : {std::pair(m_p.S_s, m_p.alpha), std::pair(m_p.S_2, m_p.alpha_2)}) {
        if (!(capacity > 0))
            continue;
        const double centre = std::log(capacity / (m_p.beta * m_keep));
        for (int i = -600; i <= 600; ++i) {
            const double k = std::exp(centre + 0.05 / gamma * i);
            if (k > kLo && k < kHi)
                ks.push_back(k);
        }
    }
    std::sort(ks.begin(), ks.end());
    // f has corners where the requests past the L1 start or stop queueing (XModel::queueMargin() changes
    // sign) and, with bypassing warps, at delta: f' jumps there, so stretches are split there, and f is
    // sampled densely around them (1 % apart in k within 30 %), where a short dip could hide.
    std::vector<double> corners;
    if (m_p.bypass > 0 && delta > kLo && delta < kHi)
        corners.push_back(delta);
    const auto margin = [this](double k) { return m_numeric->queueMargin(k); };
    double previous = margin(ks[0]);
    for (std::size_t i = 1; i < ks.size(); ++i) {
        const double current = margin(ks[i]);
        if ((previous < 0) != (current < 0))
            corners.push_back(brentRoot(margin, ks[i - 1], ks[i], previous, current, 1e-13 * ks[i]));
        previous = current;
    }
    std::sort(corners.begin(), corners.end());
    for (double corner : corners) {
        ks.push_back(corner);
        for (int i = -30; i <= 30; ++i) {
            const double k = corner * (1 + 0.01 * i);
            if (i != 0 && k > kLo && k < kHi)
                ks.push_back(k);
        }
    }
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());

    std::vector<double> fs(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i)
        fs[i] = supply(ks[i]);
    // Each step rises (+1), falls (-1) or changes f by less than rounding can explain (0, which keeps the
    // state before it: f flat at the byte cap, or settled at its limit).
    const auto stepSign = [&](std::size_t i) {
        const double d = fs[i + 1] - fs[i];
        if (std::abs(d) <= 1e-12 * std::max(std::abs(fs[i]), std::abs(fs[i + 1])))
            return 0;
        return d > 0 ? 1 : -1;
    };
    const auto f = [this](double k) { return supply(k); };
    const auto negF = [this](double k) { return -supply(k); };
    std::vector<Falling> found;
    int state = 1; // f(0) = 0 < f(k): it rises first
    for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
        const int s = stepSign(i);
        if (s == 0 || s == state)
            continue;
        // The turn lies between the grid points around step i.
        const double a = ks[i > 0 ? i - 1 : 0];
        const double b = ks[i + 1];
        if (s < 0)
            found.push_back({goldenMinLog(negF, a, b), kInfinity, false});
        else
            found.back().hi = goldenMinLog(f, a, b);
        state = s;
    }
    // Keep where f really falls, then split each stretch at delta and where f' has a local maximum.
    std::vector<Falling> pieces;
    const auto slopeAt = [this](double k) { return slope(k, false); };
    for (const Falling &fall : found) {
        std::vector<double> cuts {fall.lo};
        for (double corner : corners) {
            if (corner > fall.lo && corner < fall.hi)
                cuts.push_back(corner);
        }
        // Discrete slopes of the grid steps inside the stretch; a local maximum that stands out by more than
        // 1e-6 of the steepest descent is a turn of f'.
        std::vector<std::size_t> steps;
        double steepestSlope = 0;
        for (std::size_t i = 0; i + 1 < ks.size(); ++i) {
            if (ks[i] >= fall.lo && ks[i + 1] <= fall.hi) {
                steps.push_back(i);
                steepestSlope = std::min(steepestSlope, (fs[i + 1] - fs[i]) / (ks[i + 1] - ks[i]));
            }
        }
        const auto sl = [&](std::size_t j) {
            const std::size_t i = steps[j];
            return (fs[i + 1] - fs[i]) / (ks[i + 1] - ks[i]);
        };
        const double noise = 1e-6 * std::abs(steepestSlope);
        double lowest = steps.empty() ? 0 : sl(0);
        for (std::size_t j = 1; j + 1 < steps.size(); ++j) {
            const double v = sl(j);
            lowest = std::min(lowest, v);
            if (!(v > sl(j - 1) && v >= sl(j + 1) && v - lowest > noise))
                continue;
            double after = v;
            for (std::size_t r = j + 1; r < steps.size() && sl(r) <= after; ++r)
                after = sl(r);
            if (v - after <= noise)
                continue;
            const double kx = goldenMinLog([&](double k) { return -slopeAt(k); }, ks[steps[j - 1]],
                                           ks[steps[j + 1] + 1]);
            cuts.push_back(kx);
            lowest = v;
        }
        cuts.push_back(fall.hi);
        std::sort(cuts.begin(), cuts.end());
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
            if (cuts[c + 1] > cuts[c] * (1 + 1e-9)) {
                const double mid = std::isinf(cuts[c + 1]) ? 2 * cuts[c] : 0.5 * (cuts[c] + cuts[c + 1]);
                pieces.push_back({cuts[c], cuts[c + 1], margin(mid) < 0});
            }
        }
    }
    // More pieces than the shape holds (never seen): merge the pair with the smallest gap between them.
    while (pieces.size() > kMaxFalling) {
        std::size_t best = 0;
        for (std::size_t i = 1; i + 1 < pieces.size(); ++i) {
            if (pieces[i + 1].lo - pieces[i].hi < pieces[best + 1].lo - pieces[best].hi)
                best = i;
        }
        pieces[best].hi = pieces[best + 1].hi;
        pieces.erase(pieces.begin() + std::ptrdiff_t(best) + 1);
    }
    for (const Falling &piece : pieces)
        m_falling[m_fallingCount++] = piece;
}

void SupplyShape::applyByteCap()
{
    // f = min(f_lat, cap) with a constant cap (locality mode counts every request's bytes): where f_lat falls
    // from above the cap, f is flat until f_lat crosses it. Each stretch starts there instead, or goes when f_lat
    // stays above the cap to its end (the tail's end is the limit R_req of f_lat).
    const XModel model(m_p);
    const double cap = model.byteCap();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_fallingCount; ++i) {
        Falling fall = m_falling[i];
        const double end = std::isinf(fall.hi) ? m_p.requestRate() : model.latencySupply(fall.hi);
        if (end >= cap)
            continue;
        if (model.latencySupply(fall.lo) > cap) {
            double a = fall.lo;
            double b = std::isinf(fall.hi) ? 2 * std::max(fall.lo, 1.0) : fall.hi;
            while (std::isinf(fall.hi) && model.latencySupply(b) > cap && b < 1e300)
                b *= 2;
            for (int it = 0; it < 200 && b - a > 1e-14 * b; ++it) {
                const double mid = 0.5 * (a + b);
                (model.latencySupply(mid) > cap ? a : b) = mid;
            }
            fall.lo = b;
        }
        m_falling[kept++] = fall;
    }
    m_fallingCount = kept;
}

void SupplyShape::applyBypass()
{
    // findLocality() found where the cache users' supply falls, in kc = (1-b) k. Back to k: f'(k) is
    // (1-b) f_c'(kc) plus b/L below delta (the bypassing warps are latency-bound there) and plus 0 above it.
    // Above delta the stretch only rescales; below it f falls only where (1-b) f_c' < -b/L: f_c' is unimodal
    // on the stretch, so that is one interval around its steepest point, or none.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_fallingCount; ++i) {
        Falling fall = m_falling[i];
        fall.lo /= m_keep;
        fall.hi /= m_keep;
        if (!fall.above_delta) {
            auto fp = [&](double k) { return slope(k, false); };
            const double s = goldenMinLog(fp, fall.lo, fall.hi);
            const double fs = fp(s);
            if (!(fs < 0))
                continue;
            const double xtol = 1e-12 * fall.hi;
            const double flo = fp(fall.lo);
            const double fhi = fp(fall.hi);
            fall.lo = flo < 0 ? fall.lo : brentRoot(fp, fall.lo, s, flo, fs, xtol);
            fall.hi = fhi < 0 ? fall.hi : brentRoot(fp, s, fall.hi, fs, fhi, xtol);
        }
        m_falling[kept++] = fall;
    }
    m_fallingCount = kept;
}

SupplyShape::SupplyShape(const SupplyShape &other)
{
    *this = other;
}

SupplyShape &SupplyShape::operator=(const SupplyShape &other)
{
    m_p = other.m_p;
    m_keep = other.m_keep;
    m_rreq = other.m_rreq;
    m_delta = other.m_delta;
    m_numeric = other.m_numeric;
    m_falling = other.m_falling;
    m_fallingCount = other.m_fallingCount;
    for (std::size_t i = 0; i < m_steepest.size(); ++i)
        m_steepest[i].store(other.m_steepest[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
}

bool SupplyShape::sameSupply(const XModelParams &p) const
{
    return p.cache == m_p.cache && p.R == m_p.R && p.request_bytes == m_p.request_bytes
           && p.clock_ghz == m_p.clock_ghz && p.sm_count == m_p.sm_count && p.L == m_p.L && p.L_s == m_p.L_s
           && p.S_s == m_p.S_s && p.alpha == m_p.alpha && p.beta == m_p.beta && p.h == m_p.h
           && p.bypass == m_p.bypass && p.m == m_p.m && p.R_dram == m_p.R_dram && p.L_2 == m_p.L_2
           && p.h_2 == m_p.h_2 && p.req_bytes == m_p.req_bytes && p.dram_bytes == m_p.dram_bytes
           && p.S_2 == m_p.S_2 && p.alpha_2 == m_p.alpha_2 && p.measured_f == m_p.measured_f && p.R_l2 == m_p.R_l2
           && p.R_l1 == m_p.R_l1 && p.l2_bytes == m_p.l2_bytes;
}

bool SupplyShape::dependsOn(std::string_view key)
{
    constexpr std::array<std::string_view, 22> kKeys {
            "R",     "request_bytes", "clock_ghz",  "sm_count", "L",      "L_s",    "S_s",  "alpha",
            "beta",  "h",             "bypass",     "m",        "R_dram", "L_2",    "h_2",  "req_bytes",
            "dram_bytes", "S_2",      "alpha_2",    "R_l2",     "R_l1",   "l2_bytes"};
    return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

void SupplyShape::findLocality()
{
    // With m requests in flight per warp, f(k) is the m = 1 supply of u = m*k warps with a footprint beta/m
    // per warp: the stretches are found in u (c = S_s*m/beta) and divided by m at the end.
    const double a = m_p.alpha;
    const double c = m_p.S_s * m_p.m / m_p.beta;
    const double L = m_p.L;
    const double Ls = m_p.L_s;

    // Below delta: sign f' = sign(g(t)), g(t) = L_s + (L - L_s) phi(t), phi(t) = (1+t)^-a (1 + (2-a) t).
    // phi falls from 1 to its minimum -((a-2)/a)^a at t* = 2/(a-2) and rises back towards 0, so f falls on
    // (c/t_a, c/t_b) with t_b < t* < t_a the two zeros of g, when g(t*) < 0.
    if (L > Ls && a > 2) {
        auto g = [&](double t) {
            const double lg = std::log1p(t);
            const double value = Ls + (L - Ls) * std::exp(-a * lg) * (1 + (2 - a) * t);
            const double dphi = std::exp((-a - 1) * lg) * (2 - 2 * a + (2 - a) * (1 - a) * t); // phi'(t)
            return std::pair(value, (L - Ls) * t * dphi);
        };
        const double tStar = 2 / (a - 2);
        if (g(tStar).first < 0) {
            const double tb = logNewton(g, 1 / (a - 2), tStar, false, 1.5 / (a - 2));
            // For large t, phi(t) ~ (2-a) t^(1-a): its zero is a good start, and doubling brackets it.
            const double far = std::pow((a - 2) * (L - Ls) / Ls, 1 / (a - 1));
            double hi = std::max(2 * tStar, 2 * far);
            while (g(hi).first < 0 && hi < 1e300)
                hi *= 2;
            const double ta = logNewton(g, tStar, hi, true, far);
            const double psi = c / ta;
            const double valley = c / tb;
            if (psi < m_delta) {
                Falling &fall = m_falling[m_fallingCount++];
                fall.lo = psi;
                fall.hi = std::min(valley, m_delta);
                fall.above_delta = false;
            }
        }
    }

    // Above delta f = 1/H, H = L_s (1-m)/k + m/R_req; sign f' = sign(L_s/c Psi(t) - (a-1)/R_req) with
    // Psi(t) = (1+t)^a + (a-2) t - 1, which rises from Psi(0) = 0: f rises up to k_p = c/t_p, Psi(t_p) = q,
    // and falls beyond it.
    const double q = (a - 1) * c / (m_rreq * Ls);
    auto psiMinusQ = [&](double t) {
        const double lg = std::log1p(t);
        return std::pair(std::expm1(a * lg) + (a - 2) * t - q, t * (a * std::exp((a - 1) * lg) + a - 2));
    };
    // Psi is convex with Psi'(0) = 2a - 2, so t_p <= q/(2a-2). With r = (1+q)^(1/a) - 1,
    // Psi(r) = q + (a-2) r: r bounds t_p from above for a >= 2 and from below for a < 2.
    const double r = std::expm1(std::log1p(q) / a);
    const double hi = a >= 2 ? std::min(q / (2 * a - 2), r) : q / (2 * a - 2);
    double lo = a >= 2 ? 0.5 * hi : r;
    while (psiMinusQ(lo).first >= 0 && lo > 1e-300)
        lo *= 0.5;
    // Newton from the upper end converges without overshooting: Psi(e^u) is convex in u.
    const double tp = logNewton(psiMinusQ, lo, hi, true, hi);
    Falling &fall = m_falling[m_fallingCount++];
    fall.lo = std::max(m_delta, c / tp);
    fall.hi = kInfinity;
    fall.above_delta = true;
    for (std::size_t i = 0; i < m_fallingCount; ++i) {
        m_falling[i].lo /= m_p.m;
        m_falling[i].hi /= m_p.m;
    }
}

double SupplyShape::steepest(std::size_t i) const
{
    // Computing it twice in two threads is harmless: both store the same value.
    double k = m_steepest[i].load(std::memory_order_relaxed);
    if (!std::isnan(k))
        return k;
    const Falling &fall = m_falling[i];
    // The largest n is 1e5 warps (parameters.cpp); beyond the cap only the far tail of f is left.
    const double hi = std::isinf(fall.hi) ? std::max(1e6, 100 * fall.lo) : fall.hi;
    k = fall.lo;
    if (hi > fall.lo) {
        auto fp = [&](double kk) { return slope(kk, fall.above_delta); };
        k = goldenMinLog(fp, fall.lo, hi);
        // f' can fall all the way to an end of the stretch (at delta, say): take the end then.
        if (fp(hi) < fp(k))
            k = hi;
    }
    m_steepest[i].store(k, std::memory_order_relaxed);
    return k;
}

double SupplyShape::slope(double k, bool aboveDelta) const
{
    if (m_fallingCount == 0 || k <= 0)
        return 0; // only called on falling stretches
    if (m_numeric) {
        // A central difference; at a corner of f (an end of a stretch) it gives the mean of the two sides.
        const double h = 1e-7 * k;
        return (supply(k + h) - supply(k - h)) / (2 * h);
    }
    // In u = m*k (findLocality()): df/dk = m * df/du.
    const double cached = m_keep * cachedSlope(m_keep * k * m_p.m, aboveDelta);
    return m_p.m * (aboveDelta ? cached : cached + m_p.bypass / m_p.L);
}

double SupplyShape::cachedSlope(double k, bool aboveDelta) const
{
    const double a = m_p.alpha;
    const double c = m_p.S_s * m_p.m / m_p.beta;
    const double Ls = m_p.L_s;
    const double t = c / k;
    const double lg = std::log1p(t);
    const double miss = std::exp((1 - a) * lg); // 1 - h(k), Eq. 3
    if (!aboveDelta) {
        // f = k/D, D = L_s + (L - L_s) miss: f' = (D - k D')/D^2 = (L_s + (L - L_s) phi(t))/D^2.
        const double D = Ls + (m_p.L - Ls) * miss;
        return (Ls + (m_p.L - Ls) * std::exp(-a * lg) * (1 + (2 - a) * t)) / (D * D);
    }
    // f = 1/H: f' = -H'(k)/H^2 = (t^2/c) dH/dt / H^2 with dH/dt = (1+t)^-a (L_s/c Psi(t) - (a-1)/R_req),
    // multiplied out so that (1+t)^a cannot overflow.
    const double H = Ls * -std::expm1((1 - a) * lg) / k + miss / m_rreq;
    const double e = std::exp(-a * lg);
    const double dHdt = Ls / c * (-std::expm1(-a * lg) + (a - 2) * t * e) - (a - 1) * e / m_rreq;
    return t * t / c * dHdt / (H * H);
}

XModel::Extremes XModel::findExtremes() const
{
    if (m_p.measured_f) {
        // The interpolant turns only at measured points: the first peak, and the valley after it. The last
        // point is a turn too where the analytic continuation leaves it the other way than the data came in:
        // a curve that falls to its last point and rises beyond it has its valley there.
        std::vector<double> turns = m_p.measured_f->turns();
        const std::vector<CurvePoint> &points = m_p.measured_f->points();
        const double last = m_p.measured_f->last();
        const double into = points.back().y - points[points.size() - 2].y;
        const double atLast = msSupply(last);
        const double beyond = msSupply(last * (1 + 1e-6)) - atLast;
        const bool turnsAtLast = std::abs(beyond) > 1e-9 * atLast && into != 0 && (into < 0) != (beyond < 0);
        // turns alternate peak, valley, ...: a fall into the last point follows a peak (an odd count).
        if (turnsAtLast && (into < 0) == (turns.size() % 2 == 1))
            turns.push_back(last);
        Extremes ex;
        if (!turns.empty())
            ex.psi = turns[0];
        if (turns.size() > 1)
            ex.valley = turns[1];
        return ex;
    }
    if (m_p.cache == CacheMode::TwoLevel) {
        // The falling stretches are found numerically (SupplyShape): the first starts at the cache peak, and
        // the stretches that follow it without a gap (split where f' turns) run on to the valley.
        const SupplyShape shape(m_p);
        const auto falls = shape.falling();
        if (falls.empty())
            return {};
        Extremes ex;
        for (const auto &fall : falls) {
            ex.turns.push_back(fall.lo);
            if (std::isfinite(fall.hi))
                ex.turns.push_back(fall.hi);
        }
        ex.psi = falls[0].lo;
        double end = falls[0].hi;
        for (std::size_t i = 1; i < falls.size() && falls[i].lo <= end; ++i)
            end = falls[i].hi;
        if (std::isfinite(end))
            ex.valley = end;
        return ex;
    }
    // Only Eq. 5 can fall: without cache and with a constant hit rate f(k) never decreases.
    if (m_p.cache != CacheMode::Locality || m_p.alpha <= 1 || m_p.S_s <= 0)
        return {};
    // Where Eq. 5 falls follows from the sign of f' in closed form (SupplyShape), at any scale of k: a grid
    // would miss a peak below its first point (beta = 1e6 KiB puts it at 1.6e-5 warps). The cache peak is the
    // start of the first falling stretch when that lies at or below delta (Lm = L up to there, MODEL.md 1.5);
    // the valley is where f stops falling, unless it falls on for ever towards R_req.
    const SupplyShape shape(m_p);
    const auto falls = shape.falling();
    const double corner = m_rreq * m_p.L / m_p.m; // Lm(k) = max(L, k*m/R_req) turns here
    if (falls.empty() || falls[0].lo > corner * (1 + 1e-12))
        return {};
    Extremes ex;
    ex.psi = falls[0].lo;
    double end = falls[0].hi;
    for (std::size_t i = 1; i < falls.size() && falls[i].lo <= end * (1 + 1e-12); ++i)
        end = falls[i].hi;
    if (std::isfinite(end))
        ex.valley = end;
    return ex;
}

} // namespace crossroof::core
