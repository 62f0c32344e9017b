// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/equilibrium_scan.h"

#include "core/xmodel/root_search.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crossroof::core {

using detail::brentRoot;

namespace {

constexpr double kZeroTolerance
        = 1e-11; // as XModel::solve(): |F| below this times the throughput scale is zero

} // namespace

EquilibriumScan::EquilibriumScan(const XModel &model, const SupplyShape &shape)
    : EquilibriumScan(model, shape, model.params().n)
{
}

EquilibriumScan::EquilibriumScan(const XModel &model, const SupplyShape &shape, double n)
    : m_model(model)
    , m_n(n)
{
    if (model.measured()) {
        // A measured curve turns at any of its points: the closed forms behind the lean scan do not hold, so the
        // roots come from the model's grid search (its points are grid points).
        m_dense = true;
        m_denseRoots = model.rootsAt(n);
        m_stableCount = int(std::count_if(m_denseRoots.begin(), m_denseRoots.end(), [](const XModel::Root &r) {
            return r.stability == Stability::Stable || r.stability == Stability::Neutral;
        }));
        return;
    }
    scan(shape);
    countStable();
}

double EquilibriumScan::balance(double k) const
{
    return m_model.msSupply(k) - m_model.csDemand(m_n - k);
}

int EquilibriumScan::signOf(double F) const
{
    return F > m_tol ? 1 : (F < -m_tol ? -1 : 0);
}

void EquilibriumScan::push(double k, double F)
{
    if (m_count < kMaxSamples)
        m_samples[m_count++] = {k, F, signOf(F)};
}

void EquilibriumScan::scan(const SupplyShape &shape)
{
    const XModelParams &p = m_model.params();
    const double n = m_n;
    const double kink = n - p.M / p.issueRate(); // G is flat left of it, sloped right of it

    std::array<double, 4 + 2 * SupplyShape::kMaxFalling> breaks {};
    std::size_t nb = 0;
    breaks[nb++] = 0;
    breaks[nb++] = n;
    auto inside = [&](double k) {
        if (k > 0 && k < n)
            breaks[nb++] = k;
    };
    inside(p.requestRate() * p.L); // delta: as solve(), so that a neutral interval starts at a sample
    inside(kink);
    for (const auto &fall : shape.falling()) {
        inside(fall.lo);
        inside(fall.hi);
    }
    for (std::size_t i = 1; i < nb; ++i) { // insertion sort: a few points
        for (std::size_t j = i; j > 0 && breaks[j] < breaks[j - 1]; --j)
            std::swap(breaks[j], breaks[j - 1]);
    }
    const double same = 1e-12 * std::max(n, 1.0);
    nb = std::size_t(std::unique(breaks.begin(), breaks.begin() + nb,
                                 [same](double a, double b) { return b - a <= same; })
                     - breaks.begin());
    breaks[nb - 1] = n;

    std::array<double, breaks.size()> Fb {};
    double scale = p.M / p.Z;
    for (std::size_t i = 0; i < nb; ++i) {
        const double f = m_model.msSupply(breaks[i]);
        Fb[i] = f - m_model.csDemand(n - breaks[i]);
        scale = std::max(scale, f);
    }
    m_tol = kZeroTolerance * scale;

    const double s = p.issueRate() / p.Z; // -dG(n-k)/dk where G slopes
    push(breaks[0], Fb[0]);
    for (std::size_t i = 0; i + 1 < nb; ++i) {
        const double a = breaks[i];
        const double b = breaks[i + 1];
        const double mid = 0.5 * (a + b);
        const auto falls = shape.falling();
        const auto fall = std::find_if(falls.begin(), falls.end(),
                                       [mid](const auto &f) { return mid > f.lo && mid < f.hi; });
        if (fall != falls.end() && mid > kink) {
            // f falls and G slopes: F' = f' + s is unimodal with its minimum at the steepest descent of f.
            auto dF = [&](double k) { return shape.slope(k, fall->above_delta) + s; };
            const double pk = std::clamp(shape.steepest(std::size_t(fall - falls.begin())), a, b);
            const double dp = dF(pk);
            if (dp < 0) {
                const double xtol = 1e-12 * std::max(n, 1.0);
                const double da = dF(a);
                const double db = dF(b);
                // A local maximum of F matters only if F(a) is not already positive, a minimum only if F(b)
                // is not already negative; otherwise F still crosses at most once between the samples.
                if (da > 0 && signOf(Fb[i]) <= 0) {
                    const double z = brentRoot(dF, a, pk, da, dp, xtol);
                    push(z, balance(z));
                }
                if (db > 0 && signOf(Fb[i + 1]) >= 0) {
                    const double z = brentRoot(dF, pk, b, dp, db, xtol);
                    push(z, balance(z));
                }
            }
        }
        push(b, Fb[i + 1]);
    }
}

template<typename Fn>
void EquilibriumScan::walk(Fn &&fn) const
{
    // The same rules as XModel::solve(): a sign change between samples is a crossing; a run of zero samples
    // is a neutral interval when it spans more than one sample, else a root classified by its neighbours.
    int left = -1; // F(0) < 0: a zero run at k = 0 is entered from below
    for (std::size_t i = 0; i < m_count;) {
        const int s = m_samples[i].sign;
        if (s != 0) {
            if (i > 0 && m_samples[i - 1].sign != 0 && left != s) {
                if (!fn(i - 1, i, true, left < 0 ? Stability::Stable : Stability::Unstable))
                    return;
            }
            left = s;
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < m_count && m_samples[j + 1].sign == 0)
            ++j;
        const int right = j + 1 < m_count ? m_samples[j + 1].sign : 1;
        Stability st = Stability::Critical;
        if (j > i)
            st = Stability::Neutral;
        else if (left != right)
            st = left < 0 ? Stability::Stable : Stability::Unstable;
        if (!fn(i, j, false, st))
            return;
        left = right;
        i = j + 1;
    }
}

void EquilibriumScan::countStable()
{
    m_stableCount = 0;
    walk([this](std::size_t, std::size_t, bool, Stability st) {
        if (st == Stability::Stable || st == Stability::Neutral)
            ++m_stableCount;
        return true;
    });
}

double EquilibriumScan::rootBetween(double a, double Fa, double b, double Fb) const
{
    return brentRoot([this](double k) { return balance(k); }, a, b, Fa, Fb, 1e-14 * std::max(m_n, 1.0));
}

double EquilibriumScan::rootBetween(std::size_t lo, std::size_t hi) const
{
    return rootBetween(m_samples[lo].k, m_samples[lo].F, m_samples[hi].k, m_samples[hi].F);
}

double EquilibriumScan::operatingK() const
{
    if (m_dense) {
        for (const XModel::Root &r : m_denseRoots) {
            if (r.stability != Stability::Unstable)
                return r.k;
        }
        return 0;
    }
    double k = 0;
    walk([&](std::size_t lo, std::size_t hi, bool crossing, Stability) {
        k = crossing ? rootBetween(lo, hi) : m_samples[lo].k;
        return false;
    });
    return k;
}

double EquilibriumScan::operatingGbs() const
{
    return m_model.toGbs(m_model.msSupply(operatingK()));
}

std::vector<EquilibriumScan::Root> EquilibriumScan::roots() const
{
    std::vector<Root> out;
    if (m_dense) {
        for (const XModel::Root &r : m_denseRoots)
            out.push_back({r.k, r.k_end, r.stability});
        return out;
    }
    walk([&](std::size_t lo, std::size_t hi, bool crossing, Stability st) {
        if (crossing) {
            const double k = rootBetween(lo, hi);
            out.push_back({k, k, st});
        } else {
            out.push_back({m_samples[lo].k, m_samples[hi].k, st});
        }
        return true;
    });
    return out;
}

double EquilibriumScan::restFrom(double k0) const
{
    k0 = std::clamp(k0, 0.0, m_n);
    if (m_dense) {
        // A state on one of the roots found (within their precision) rests there: F is about zero, and its
        // sign, rounding's, must not send the flow on to the next root as if this one were not there.
        const double near = 1e-9 * std::max(m_n, 1.0);
        for (const XModel::Root &r : m_denseRoots) {
            if (k0 >= r.k - near && k0 <= r.k_end + near)
                return k0;
        }
    }
    const double F0 = balance(k0);
    const int s0 = signOf(F0);
    if (s0 == 0)
        return k0;
    if (m_dense) {
        // The flow moves towards the nearest root in the direction of -F and cannot pass it.
        if (s0 < 0) {
            for (const XModel::Root &r : m_denseRoots) {
                if (r.k > k0)
                    return r.k;
            }
            return m_n;
        }
        for (auto it = m_denseRoots.rbegin(); it != m_denseRoots.rend(); ++it) {
            if (it->k_end < k0)
                return it->k_end;
        }
        return 0;
    }
    if (s0 < 0) {
        // dk/dt > 0: up to the first sample at or above zero; F < 0 on the way, one crossing in the last
        // step.
        for (std::size_t i = 0; i < m_count; ++i) {
            const Sample &sm = m_samples[i];
            if (sm.k <= k0 || sm.sign < 0)
                continue;
            if (sm.sign == 0)
                return sm.k;
            if (i > 0 && m_samples[i - 1].k > k0)
                return rootBetween(i - 1, i);
            return rootBetween(k0, F0, sm.k, sm.F);
        }
        return m_n;
    }
    for (std::size_t i = m_count; i-- > 0;) {
        const Sample &sm = m_samples[i];
        if (sm.k >= k0 || sm.sign > 0)
            continue;
        if (sm.sign == 0)
            return sm.k;
        if (i + 1 < m_count && m_samples[i + 1].k < k0)
            return rootBetween(i, i + 1);
        return rootBetween(sm.k, sm.F, k0, F0);
    }
    return 0;
}

} // namespace crossroof::core
