// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/xmodel.h"

#include "core/xmodel/measured_curve.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/search_grid.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

using detail::addGrid;
using detail::sortUnique;

namespace {

constexpr double kZeroTolerance = 1e-11; // |F| below this times the throughput scale counts as zero

template<typename Fn>
double bisect(Fn &&fn, double a, double b, double fa)
{
    const double width = std::max({std::abs(a), std::abs(b), 1.0}) * 1e-14;
    for (int i = 0; i < 200 && b - a > width; ++i) {
        const double m = 0.5 * (a + b);
        const double fm = fn(m);
        if (fm == 0)
            return m;
        if ((fm < 0) == (fa < 0)) {
            a = m;
            fa = fm;
        } else {
            b = m;
        }
    }
    return 0.5 * (a + b);
}

/// Golden-section search for the maximum of fn on [a, b] (fn unimodal there). Returns the abscissa.
template<typename Fn>
double goldenMax(Fn &&fn, double a, double b)
{
    constexpr double r = 0.6180339887498949;
    double c = b - r * (b - a);
    double d = a + r * (b - a);
    double fc = fn(c);
    double fd = fn(d);
    const double width = std::max(std::abs(b), 1.0) * 1e-12;
    for (int i = 0; i < 200 && b - a > width; ++i) {
        if (fc >= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = fn(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = fn(d);
        }
    }
    return 0.5 * (a + b);
}

} // namespace

std::string_view stabilityName(Stability s)
{
    switch (s) {
    case Stability::Stable:
        return "stable";
    case Stability::Unstable:
        return "unstable";
    case Stability::Critical:
        return "critical";
    case Stability::Neutral:
        return "neutral";
    }
    return "stable";
}

std::string_view boundClassName(BoundClass b)
{
    switch (b) {
    case BoundClass::Compute:
        return "compute";
    case BoundClass::Memory:
        return "memory";
    case BoundClass::Capacity:
        return "capacity";
    case BoundClass::Thread:
        return "thread";
    case BoundClass::CacheThrashing:
        return "cache-thrashing";
    }
    return "thread";
}

int XGraphResult::stableCount() const
{
    return static_cast<int>(std::count_if(equilibria.begin(), equilibria.end(), [](const Equilibrium &e) {
        return e.stability == Stability::Stable || e.stability == Stability::Neutral;
    }));
}

XModel::XModel(const XModelParams &params)
    : m_p(params)
{
    validate(m_p);
    m_rreq = m_p.requestRate();
    m_cap = m_rreq;
    // The tightest byte ceiling of the L1, L2 and DRAM (memory_levels.h; MODEL.md 1.7).
    m_byteCap = tightestLevel(m_p).cap;
    m_cap = std::min(m_rreq, m_byteCap);
    // Two-level mode: the L2's hits queue at the L2's own request rate, R_l2 over the bytes a request moves
    // there (MODEL.md 1.3); without R_l2 they do not wait.
    const double l2Rate = memoryLevels(m_p)[1].cap;
    m_l2Service = m_p.R_l2 > 0 && std::isfinite(l2Rate) ? 1 / l2Rate : 0;
    m_delta = m_cap * m_p.L / m_p.m;
    m_pi = m_p.M / m_p.issueRate();
    m_gbsFactor = m_p.gbsPerRequestRate();
    m_gopsFactor = m_p.gopsPerInstructionRate();
    // Beyond its last point a measured curve is continued by the analytic one, scaled to join it there.
    if (m_p.measured_f) {
        const double last = m_p.measured_f->last();
        const double analytic = std::min(latencySupply(last), m_byteCap);
        if (analytic > 0)
            m_joinF = m_p.measured_f->value(last) / m_gbsFactor / analytic;
    }
    if (m_p.measured_g) {
        const double last = m_p.measured_g->last();
        const double analytic = analyticCsThroughput(last);
        if (analytic > 0)
            m_joinG = m_p.measured_g->value(last) / m_gopsFactor / analytic;
    }
}

double XModel::memoryLatency(double k) const
{
    return std::max(m_p.L, k * m_p.m / m_rreq);
}

double XModel::dramBytesPerRequest() const
{
    return core::dramBytesPerRequest(m_p);
}

double XModel::dramGbs(double k) const
{
    double bytes = m_p.dram_bytes;
    if (bytes <= 0) {
        bytes = m_p.workloadRequestBytes() * (1 - hitRate(k));
        if (m_p.cache == CacheMode::Fixed)
            bytes *= 1 - m_p.h_2;
        if (m_p.cache == CacheMode::TwoLevel && k > 0) {
            // The cache users' requests that miss both levels, and every bypassing request.
            const double kc = (1 - m_p.bypass) * k;
            const double lm = memoryLatency(k);
            const double cached = cachedSupply(kc, lm);
            const double bypassing = m_p.bypass * k * m_p.m / lm;
            const double dram = cached * levelMissShare(kc, m_p.S_s, m_p.alpha)
                                        * levelMissShare(kc, m_p.S_2, m_p.alpha_2)
                                + bypassing;
            bytes = m_p.workloadRequestBytes() * dram / (cached + bypassing);
        }
    }
    return msSupply(k) * bytes * m_p.clock_ghz * m_p.sm_count;
}

double XModel::cacheMissShare(double kc) const
{
    if (kc <= 0)
        return 0;
    return std::pow(m_p.S_s / (m_p.beta * kc) + 1, 1 - m_p.alpha); // 1 - h, Eq. 3
}

double XModel::levelMissShare(double kc, double capacity, double sharpness) const
{
    if (capacity <= 0)
        return 1;
    if (kc <= 0)
        return 0;
    // 1 / (1 + (S/(beta*kc))^gamma), through the logarithm: exp overflows to infinity (a miss share of 0),
    // never to NaN.
    return 1 / (1 + std::exp(sharpness * std::log(capacity / (m_p.beta * kc))));
}

double XModel::hitRate(double k) const
{
    if (m_p.cache == CacheMode::None)
        return 0;
    // Of the k warps in the MS, (1-b)*k use the cache: their hit rate, weighted by their share of the supply.
    const double kc = (1 - m_p.bypass) * k;
    double h = m_p.h;
    if (m_p.cache == CacheMode::Locality)
        h = 1 - cacheMissShare(kc);
    else if (m_p.cache == CacheMode::TwoLevel)
        h = 1 - levelMissShare(kc, m_p.S_s, m_p.alpha);
    if (m_p.bypass == 0 || k <= 0)
        return h;
    // Each bypassing warp keeps m requests in flight, as latencySupply() counts them.
    const double lm = memoryLatency(k);
    const double cached = cachedSupply(kc, lm);
    return h * cached / (cached + m_p.bypass * k * m_p.m / lm);
}

double XModel::cachedSupply(double kc, double lm) const
{
    if (kc <= 0)
        return 0;
    // Each of the kc warps keeps m requests in flight.
    const double inFlight = kc * m_p.m;
    switch (m_p.cache) {
    case CacheMode::None:
        return inFlight / lm;
    case CacheMode::Fixed: {
        // Eq. 1, 2; the misses of the shared cache hit the L2 with h_2 (h_2 = 0: one level, the paper's form).
        const double missLatency = m_p.h_2 > 0 ? m_p.h_2 * m_p.L_2 + (1 - m_p.h_2) * lm : lm;
        return inFlight / (m_p.h * m_p.L_s + (1 - m_p.h) * missLatency);
    }
    case CacheMode::Locality:
        return inFlight / (m_p.L_s + (lm - m_p.L_s) * cacheMissShare(kc)); // Eq. 5
    case CacheMode::TwoLevel: {
        // MODEL.md 1.3: the footprint beta*kc against each level's capacity; L1 misses go to the L2, L2
        // misses to memory. Past the L1 the requests queue as Eq. 4 has them, each level's at its own rate
        // (the L2's at R_l2, memory's at R_req), after the L1 lookup every request makes.
        const double miss1 = levelMissShare(kc, m_p.S_s, m_p.alpha);
        const double k = kc / (1 - m_p.bypass);
        const double miss2 = levelMissShare(kc, m_p.S_2, m_p.alpha_2);
        const double missLatency = queuedLatency(k) + std::max(queueMargin(k), 0.0)
                                   + (1 - miss2) * k * m_p.m * m_l2Service;
        return inFlight / ((1 - miss1) * m_p.L_s + miss1 * missLatency);
    }
    }
    return 0;
}

double XModel::queuedLatency(double k) const
{
    const double miss2 = levelMissShare((1 - m_p.bypass) * k, m_p.S_2, m_p.alpha_2);
    return m_p.L_s + k * m_p.m * miss2 / m_rreq;
}

double XModel::queueMargin(double k) const
{
    const double miss2 = levelMissShare((1 - m_p.bypass) * k, m_p.S_2, m_p.alpha_2);
    return (1 - miss2) * m_p.L_2 + miss2 * m_p.L - queuedLatency(k);
}

double XModel::msSupply(double k) const
{
    if (m_p.measured_f) {
        if (k <= m_p.measured_f->last())
            return m_p.measured_f->value(k) / m_gbsFactor;
        return std::min(latencySupply(k), m_byteCap) * m_joinF;
    }
    return std::min(latencySupply(k), m_byteCap);
}

double XModel::latencySupply(double k) const
{
    if (k <= 0)
        return 0;
    const double lm = memoryLatency(k);
    double f = 0;
    if (m_p.cache == CacheMode::None) {
        f = k * m_p.m / lm;
    } else {
        // Bypassing warps see the memory latency; with b = 0 this is Eq. 1-5 exactly.
        const double kc = (1 - m_p.bypass) * k;
        f = cachedSupply(kc, lm) + m_p.bypass * k * m_p.m / lm;
    }
    return f;
}

double XModel::csThroughput(double x) const
{
    if (m_p.measured_g) {
        if (x <= m_p.measured_g->last())
            return m_p.measured_g->value(std::max(x, 0.0)) / m_gopsFactor;
        return analyticCsThroughput(x) * m_joinG;
    }
    return analyticCsThroughput(x);
}

double XModel::analyticCsThroughput(double x) const
{
    return std::min(m_p.issueRate() * std::max(x, 0.0), m_p.M);
}

double XModel::csDemand(double x) const
{
    return csThroughput(x) / m_p.Z;
}

double XModel::balance(double k) const
{
    return msSupply(k) - csDemand(m_p.n - k);
}

Landmarks XModel::landmarksFrom(const Extremes &ex) const
{
    Landmarks lm;
    lm.pi = m_pi;
    lm.delta = m_delta;
    lm.plateau_gbs = toGbs(m_cap);
    lm.psi = ex.psi;
    lm.valley = ex.valley;
    if (ex.psi)
        lm.psi_gbs = toGbs(msSupply(*ex.psi));
    if (ex.valley)
        lm.valley_gbs = toGbs(msSupply(*ex.valley));
    return lm;
}

Landmarks XModel::landmarks() const
{
    return landmarksFrom(findExtremes());
}

Metrics XModel::metrics() const
{
    Metrics m;
    // Requests in flight that keep the memory busy (the paper's R*L, one request per warp there); with m per
    // waiting warp, delta = mlp/m warps hold them (MODEL.md 1.5).
    m.mlp = m_cap * m_p.L;
    m.dlp_machine = m_p.M / m_cap;
    if (m_p.Z * m_cap <= m_p.M)
        m.tlp_machine = m_delta + m_p.Z * m_cap / m_p.issueRate();
    m.ilp = m_p.E;
    return m;
}

double XModel::slopeOfSupply(double k) const
{
    const double h = 1e-6 * std::max(k, 1.0);
    const double lo = std::max(k - h, 0.0);
    return (msSupply(k + h) - msSupply(lo)) / (k + h - lo);
}

BoundClass XModel::boundAt(double k) const
{
    const double scale = std::max(m_cap, m_p.M / m_p.Z) / std::max(m_p.n, 1.0);
    if (slopeOfSupply(k) < -1e-9 * scale)
        return BoundClass::CacheThrashing;
    const double x = m_p.n - k;
    const bool csSaturated = x >= m_pi * (1 - 1e-9);
    const bool msSaturated = k >= m_delta * (1 - 1e-9);
    if (csSaturated && msSaturated)
        return BoundClass::Capacity;
    if (csSaturated)
        return BoundClass::Compute;
    if (msSaturated)
        return BoundClass::Memory;
    return BoundClass::Thread;
}

Equilibrium XModel::describe(double k, double k_end, Stability s) const
{
    Equilibrium e;
    e.k = k;
    e.k_end = k_end;
    e.x = m_p.n - k;
    e.stability = s;
    e.ms_gbs = toGbs(msSupply(k));
    e.dram_gbs = dramGbs(k);
    e.cs_gops = toGops(csThroughput(e.x));
    if (m_p.cache != CacheMode::None)
        e.hit_rate = hitRate(k);
    e.bound = boundAt(k);
    return e;
}

std::vector<XModel::Root> XModel::rootsAt(double n) const
{
    return findRoots(n, findExtremes());
}

void XModel::addKinks(std::vector<double> &ks, double n, const Extremes &ex) const
{
    for (double kink : ex.turns) {
        if (kink > 0 && kink < n)
            ks.push_back(kink);
    }
    // The measured curves' points: between two of them the interpolant is monotone, as between analytic kinks.
    if (m_p.measured_f) {
        for (const CurvePoint &pt : m_p.measured_f->points()) {
            if (pt.x > 0 && pt.x < n)
                ks.push_back(pt.x);
        }
    }
    if (m_p.measured_g) {
        for (auto it = m_p.measured_g->points().rbegin(); it != m_p.measured_g->points().rend(); ++it) {
            if (it->x > 0 && it->x < n)
                ks.push_back(n - it->x);
        }
    }
}

std::vector<XModel::Root> XModel::findRoots(double n, const Extremes &ex) const
{
    std::vector<double> ks;
    addGrid(ks, 0, n);
    for (double kink : {m_delta, n - m_pi, ex.psi.value_or(-1), ex.valley.value_or(-1)}) {
        if (kink > 0 && kink < n)
            ks.push_back(kink);
    }
    addKinks(ks, n, ex);
    sortUnique(ks, n);

    const std::size_t count = ks.size();
    std::vector<double> F(count);
    double scale = m_p.M / m_p.Z;
    for (std::size_t i = 0; i < count; ++i) {
        const double f = msSupply(ks[i]); // F = f - G, as balance() has it, with f evaluated once
        F[i] = f - csDemand(n - ks[i]);
        scale = std::max(scale, f);
    }
    const double tol = kZeroTolerance * scale;
    auto sign = [tol](double v) { return v > tol ? 1 : (v < -tol ? -1 : 0); };
    auto fn = [this, n](double k) { return msSupply(k) - csDemand(n - k); };

    std::vector<Root> roots;
    auto add = [&](double k, double k_end, Stability s) { roots.push_back({k, k_end, s}); };
    auto crossing = [](int from, int to) { return from < to ? Stability::Stable : Stability::Unstable; };

    for (std::size_t i = 0; i < count; ++i) {
        const int s = sign(F[i]);
        if (s == 0) {
            // A zero at a grid point, or a run of zeros (a neutral interval).
            std::size_t j = i;
            while (j + 1 < count && sign(F[j + 1]) == 0)
                ++j;
            const int left = i > 0 ? sign(F[i - 1]) : -1;
            const int right = j + 1 < count ? sign(F[j + 1]) : 1;
            if (j > i)
                add(ks[i], ks[j], Stability::Neutral);
            else
                add(ks[i], ks[i], left == right ? Stability::Critical : crossing(left, right));
            i = j;
            continue;
        }
        if (i + 1 < count && sign(F[i + 1]) == -s) {
            const double k = bisect(fn, ks[i], ks[i + 1], F[i]);
            add(k, k, crossing(s, -s));
            continue;
        }
        // Same sign on both sides of a grid extremum towards zero: F may touch or cross zero between them.
        if (i > 0 && i + 1 < count && sign(F[i - 1]) == s && sign(F[i + 1]) == s) {
            const bool towardsZero = s < 0 ? (F[i] > F[i - 1] && F[i] >= F[i + 1])
                                           : (F[i] < F[i - 1] && F[i] <= F[i + 1]);
            if (!towardsZero)
                continue;
            const double a = ks[i - 1];
            const double b = ks[i + 1];
            const double kx = goldenMax([&](double k) { return -s * fn(k); }, a, b);
            const double Fx = fn(kx);
            if (sign(Fx) == 0) {
                add(kx, kx, Stability::Critical);
            } else if (sign(Fx) == -s) {
                const double k1 = bisect(fn, a, kx, F[i - 1]);
                const double k2 = bisect(fn, kx, b, Fx);
                add(k1, k1, crossing(s, -s));
                add(k2, k2, crossing(-s, s));
            }
        }
    }

    // Extremum checks at neighbouring grid points can report the same root twice.
    std::sort(roots.begin(), roots.end(), [](const Root &a, const Root &b) { return a.k < b.k; });
    const double same = std::max(n, 1.0) * 1e-9;
    roots.erase(std::unique(roots.begin(), roots.end(),
                            [same](const Root &a, const Root &b) { return std::abs(a.k - b.k) <= same; }),
                roots.end());
    return roots;
}

Equilibrium XModel::operatingPoint() const
{
    if (measured() || (m_p.cache != CacheMode::None && m_p.cache != CacheMode::Fixed))
        return solve().operatingPoint();
    // findRoots() with no extremes (findExtremes() finds none here), evaluating F only where the bisection of
    // the grid and of the bracketing interval look.
    const double n = m_p.n;
    std::vector<double> ks;
    addGrid(ks, 0, n);
    for (double kink : {m_delta, n - m_pi}) {
        if (kink > 0 && kink < n)
            ks.push_back(kink);
    }
    sortUnique(ks, n);
    const std::size_t count = ks.size();
    const auto fn = [this, n](double k) { return msSupply(k) - csDemand(n - k); };
    // f is largest at the grid's last point.
    const double tol = kZeroTolerance * std::max(m_p.M / m_p.Z, msSupply(ks.back()));
    const auto sign = [tol](double v) { return v > tol ? 1 : (v < -tol ? -1 : 0); };
    // The first grid point where F is not below zero.
    std::size_t lo = 0, hi = count;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (sign(fn(ks[mid])) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const std::size_t first = lo;
    // F above zero from the first point, or never reaching it: not the single crossing from below this path
    // expects, so the full search decides.
    if (first == 0 || first == count)
        return solve().operatingPoint();
    const double Ffirst = fn(ks[first]);
    if (sign(Ffirst) > 0) {
        const double k = bisect(fn, ks[first - 1], ks[first], fn(ks[first - 1]));
        return describe(k, k, Stability::Stable);
    }
    // A zero at a grid point, or a run of zeros (a neutral interval), with F below zero before it.
    std::size_t last = first;
    while (last + 1 < count && sign(fn(ks[last + 1])) == 0)
        ++last;
    if (last + 1 < count && sign(fn(ks[last + 1])) < 0)
        return solve().operatingPoint();
    return describe(ks[first], ks[last], last > first ? Stability::Neutral : Stability::Stable);
}

XGraphResult XModel::solve() const
{
    const Extremes ex = findExtremes();
    XGraphResult result;
    for (const Root &r : findRoots(m_p.n, ex))
        result.equilibria.push_back(describe(r.k, r.k_end, r.stability));

    // From a cold start (k = 0, F(0) < 0) the flow raises k to the first root: that is the operating point.
    const auto op = std::find_if(result.equilibria.begin(), result.equilibria.end(),
                                 [](const Equilibrium &e) { return e.stability != Stability::Unstable; });
    result.operating_index = op == result.equilibria.end() ? 0 : std::size_t(op - result.equilibria.begin());
    if (result.operating_index + 1 < result.equilibria.size()) {
        const auto &cur = result.equilibria[result.operating_index];
        result.margin_warps = result.equilibria[result.operating_index + 1].k - cur.k_end;
    }
    result.landmarks = landmarksFrom(ex);
    result.metrics = metrics();
    return result;
}

} // namespace crossroof::core
