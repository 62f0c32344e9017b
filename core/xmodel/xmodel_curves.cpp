// SPDX-License-Identifier: GPL-3.0-or-later
// XModel: the sampled f(k) and G(n-k) curves the X-graph draws (xmodel.h).
#include "core/xmodel/search_grid.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace crossroof::core {

using detail::mergeRuns;
using detail::sortUnique;

void XModel::sampleCurves(int count, XGraphCurves &out) const
{
    const double n = m_p.n;
    count = std::max(count, 2);
    const Extremes ex = findExtremes();
    out.k.clear();
    out.k.reserve(std::size_t(count) + 4);
    for (int i = 0; i < count; ++i)
        out.k.push_back(n * i / (count - 1));
    for (double kink : {m_delta, n - m_pi, ex.psi.value_or(-1), ex.valley.value_or(-1)}) {
        if (kink > 0 && kink < n)
            out.k.push_back(kink);
    }
    addKinks(out.k, n, ex);
    mergeRuns(out.k);

    const std::size_t size = out.k.size();
    out.f_gbs.resize(size);
    out.g_gbs.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
        const double k = out.k[i];
        const double f = msSupply(k);
        const double g = csDemand(n - k);
        out.f_gbs[i] = toGbs(f);
        out.g_gbs[i] = toGbs(g);
    }
    markFalling(out);
}

void XModel::markFalling(XGraphCurves &out)
{
    const std::size_t size = out.k.size();
    out.f_falling_faster.assign(size, false);
    for (std::size_t i = 0; i + 1 < size; ++i) {
        const double dF = (out.f_gbs[i + 1] - out.g_gbs[i + 1]) - (out.f_gbs[i] - out.g_gbs[i]);
        out.f_falling_faster[i] = dF < -1e-12 * std::max(out.f_gbs[i], 1e-300);
    }
}

void XModel::sampleCurvesAdaptive(double tolerance, XGraphCurves &out, int maxSamples) const
{
    sampleAdaptive(tolerance, out, maxSamples, findExtremes());
}

void XModel::sampleCurvesAdaptive(double tolerance, XGraphCurves &out, const Landmarks &solved, int maxSamples) const
{
    sampleAdaptive(tolerance, out, maxSamples, {solved.psi, solved.valley, {}});
}

void XModel::sampleAdaptive(double tolerance, XGraphCurves &out, int maxSamples, const Extremes &ex) const
{
    const double n = m_p.n;
    // A coarse even grid and the kinks first; each stretch between them is then halved until the chords of f
    // and G pass within the tolerance of both curves at the stretch's middle and quarters.
    constexpr int kCoarse = 32;
    constexpr int kMaxDepth = 24;
    std::vector<double> ks;
    ks.reserve(kCoarse + 5);
    for (int i = 0; i <= kCoarse; ++i)
        ks.push_back(n * i / kCoarse);
    for (double kink : {m_delta, n - m_pi, ex.psi.value_or(-1), ex.valley.value_or(-1)}) {
        if (kink > 0 && kink < n)
            ks.push_back(kink);
    }
    addKinks(ks, n, ex);
    sortUnique(ks, n);
    struct Sample
    {
        double k, f, g;
    };
    const auto at = [&](double k) { return Sample{k, msSupply(k), csDemand(n - k)}; };
    std::vector<Sample> coarse;
    coarse.reserve(ks.size());
    double scale = 0;
    for (double k : ks) {
        coarse.push_back(at(k));
        scale = std::max(scale, coarse.back().f);
    }
    const double tol = tolerance * (scale > 0 ? scale : 1.0);
    const std::size_t most = std::size_t(std::max(maxSamples, int(coarse.size())));

    std::vector<Sample> samples;
    samples.reserve(std::min<std::size_t>(most, 1024));
    struct Stretch
    {
        Sample a, b;
        int depth;
    };
    std::vector<Stretch> todo; // depth first, the left half on top: samples come out in order of k
    // Whether the chord from A to B passes within the tolerance of S, a sample between them.
    const auto near = [tol](const Sample &a, const Sample &b, const Sample &s) {
        const double t = (s.k - a.k) / (b.k - a.k);
        return std::abs(s.f - (a.f + t * (b.f - a.f))) <= tol && std::abs(s.g - (a.g + t * (b.g - a.g))) <= tol;
    };
    for (std::size_t i = 0; i + 1 < coarse.size(); ++i) {
        todo.push_back({coarse[i], coarse[i + 1], 0});
        while (!todo.empty()) {
            const Stretch s = todo.back();
            todo.pop_back();
            // The middle and the quarters: a bend that turns back inside the stretch (an S) can pass its
            // middle close to the chord and still leave it elsewhere.
            const Sample m = at(0.5 * (s.a.k + s.b.k));
            const bool full = samples.size() + todo.size() + coarse.size() - i >= most;
            bool straight = near(s.a, s.b, m);
            if (straight && !full && s.depth < kMaxDepth) {
                straight = near(s.a, s.b, at(0.75 * s.a.k + 0.25 * s.b.k))
                           && near(s.a, s.b, at(0.25 * s.a.k + 0.75 * s.b.k));
            }
            if (straight || full || s.depth >= kMaxDepth) {
                samples.push_back(s.a);
                continue;
            }
            todo.push_back({m, s.b, s.depth + 1});
            todo.push_back({s.a, m, s.depth + 1});
        }
    }
    samples.push_back(coarse.back());

    const std::size_t size = samples.size();
    out.k.resize(size);
    out.f_gbs.resize(size);
    out.g_gbs.resize(size);
    for (std::size_t i = 0; i < size; ++i) {
        out.k[i] = samples[i].k;
        out.f_gbs[i] = toGbs(samples[i].f);
        out.g_gbs[i] = toGbs(samples[i].g);
    }
    markFalling(out);
}

} // namespace crossroof::core
