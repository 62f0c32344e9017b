// SPDX-License-Identifier: GPL-3.0-or-later
// CPI surfaces over (p, q): the thesis' grid and its uniform and logit variants, every cell solved exactly.
#include "core/markov/markov.h"

#include "core/markov/markov_math.h"
#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/text.h"

#include <cmath>

namespace crossroof::core {

using detail::checkProbability;
using detail::checkSteps;
using detail::isPeriodic;
using detail::kInf;
using detail::kNegligibleLog;
using detail::logSuspended;

namespace {

constexpr double kLn10 = 2.302585092994045684;

/// One cell of a surface with the same (p, q) in every group: P_all = a^n for n threads in all.
double surfaceCell(double p, double q, double n, std::optional<long long> steps)
{
    const double logPAll = !steps && isPeriodic(p, q) ? std::log(0.5) : n * logSuspended(p, q, steps);
    if (logPAll <= kNegligibleLog)
        return 1;
    const double active = -std::expm1(logPAll);
    return active > 0 ? 1 / active : kInf;
}

/// The values of one grid axis, ascending.
std::vector<double> gridValues(MarkovGridKind kind, int count)
{
    if (kind == MarkovGridKind::Thesis)
        return thesisGrid();
    std::vector<double> v(static_cast<std::size_t>(count));
    const auto logit = [](double x) { return std::log(x / (1 - x)); };
    const double a = kind == MarkovGridKind::Uniform ? kGridLow : logit(kGridLow);
    const double b = kind == MarkovGridKind::Uniform ? kGridHigh : logit(kGridHigh);
    for (int i = 0; i < count; ++i) {
        const double y = a + (b - a) * i / (count - 1);
        v[std::size_t(i)] = kind == MarkovGridKind::Uniform ? y : 1 / (1 + std::exp(-y));
    }
    v.front() = kGridLow; // exact ends, whatever the rounding
    v.back() = kGridHigh;
    return v;
}

} // namespace

std::vector<double> thesisGrid()
{
    return {0.001, 0.003, 0.005, 0.007, 0.009, // a) 0.001 to 0.009, intervals of 0.002
            0.01,  0.03,  0.05,  0.07,  0.09,  // b) 0.01 to 0.09, intervals of 0.02
            0.1,   0.3,   0.5,   0.7,   0.9,   // c) 0.1 to 0.9, intervals of 0.2
            0.91,  0.93,  0.95,  0.97,  0.99,  // d) 0.91 to 0.99, intervals of 0.02
            0.991, 0.993, 0.995, 0.997, 0.999};
}

MarkovGrid MarkovGrid::fromText(std::string_view text)
{
    if (text == "thesis")
        return {MarkovGridKind::Thesis, 25};
    const auto colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    if (colon == std::string_view::npos || (kind != "uniform" && kind != "logit"))
        throw InputError("grid must be thesis, uniform:K or logit:K (got '" + brief(text) + "')");
    const std::string_view count = text.substr(colon + 1);
    const std::optional<int> k = parseInteger<int>(count);
    if (!k || *k < 2 || *k > kMaxGridCount) {
        throw InputError("grid '" + std::string(text) + "': K must be a whole number between 2 and "
                         + std::to_string(kMaxGridCount));
    }
    return {kind == "uniform" ? MarkovGridKind::Uniform : MarkovGridKind::Logit, *k};
}

std::string MarkovGrid::text() const
{
    switch (kind) {
    case MarkovGridKind::Thesis:
        return "thesis";
    case MarkovGridKind::Uniform:
        return "uniform:" + std::to_string(count);
    case MarkovGridKind::Logit:
        return "logit:" + std::to_string(count);
    }
    return "thesis";
}

std::vector<double> MarkovGrid::values() const
{
    if (kind != MarkovGridKind::Thesis && (count < 2 || count > kMaxGridCount)) {
        throw InputError("grid '" + text() + "': K must be a whole number between 2 and "
                         + std::to_string(kMaxGridCount));
    }
    return gridValues(kind, count);
}

SurfaceCells markovSurfaceCells(std::span<const int> threadsPerGroup, std::span<const double> p,
                                std::span<const double> q, std::optional<long long> steps, std::span<double> cpi,
                                std::span<double> log10Cpi)
{
    if (threadsPerGroup.empty())
        throw InputError("the topology needs at least one cache group");
    MarkovTopology shape;
    for (int n : threadsPerGroup)
        shape.push_back({n, 0, 0});
    validate(shape);
    checkSteps(steps);
    if (p.empty() || q.empty())
        throw InputError("a surface needs at least one p and one q value");
    for (double v : p)
        checkProbability(v, "surface p");
    for (double v : q)
        checkProbability(v, "surface q");
    if (cpi.size() != p.size() * q.size() || log10Cpi.size() != cpi.size())
        throw InputError("a surface of " + std::to_string(p.size()) + " x " + std::to_string(q.size())
                         + " cells needs as many outputs");

    const long long threads = threadCount(shape);
    const double n = double(threads);
    constexpr double kInvLn10 = 1 / kLn10;
    if (steps) {
        for (std::size_t at = 0; at < cpi.size(); ++at) {
            cpi[at] = surfaceCell(p[at % p.size()], q[at / p.size()], n, steps);
            log10Cpi[at] = std::log10(cpi[at]);
        }
    } else {
        // Steady state, a row (one q) at a time: P_all = s^n by binary powering, a few multiplies per cell
        // that the compiler vectorises, where the general path spends a log and an exp. Any s with s^n below
        // e^kNegligibleLog gives CPI 1 exactly; it is set to 0 first, so no partial product underflows into
        // (slow) subnormals.
        const double negligible = std::exp(kNegligibleLog / n);
        std::vector<double> base(p.size());
        std::vector<double> pAll(p.size());
        for (std::size_t j = 0; j < q.size(); ++j) {
            double *row = cpi.data() + j * p.size();
            double *logRow = log10Cpi.data() + j * p.size();
            const double c = 1 - q[j];
            for (std::size_t i = 0; i < p.size(); ++i) {
                const double v = p[i] > 0 ? p[i] / (p[i] + c) : 0;
                base[i] = v < negligible ? 0 : v;
                pAll[i] = 1;
            }
            for (long long e = threads; e > 0; e >>= 1) {
                if (e & 1) {
                    for (std::size_t i = 0; i < p.size(); ++i)
                        pAll[i] *= base[i];
                }
                if (e > 1) {
                    for (std::size_t i = 0; i < p.size(); ++i)
                        base[i] *= base[i];
                }
            }
            // CPI = 1 / (1 - P_all); log10 CPI = -log1p(-P_all) / ln 10, whose series' first four terms are
            // exact to double precision below P_all = 1e-4 (most cells) and cost no call.
            for (std::size_t i = 0; i < p.size(); ++i) {
                const double a = pAll[i];
                row[i] = 1 / (1 - a);
                logRow[i] = a * (1 + a * (0.5 + a * (1.0 / 3 + a * 0.25))) * kInvLn10;
            }
            // The few cells the above does not fit: where 1 - P_all would cancel (P_all > 1/2) and the periodic
            // p = 1, q = 0 take the general path; from 1e-4 on the logarithm is taken.
            for (std::size_t i = 0; i < p.size(); ++i) {
                if (pAll[i] > 0.5 || isPeriodic(p[i], q[j])) {
                    row[i] = surfaceCell(p[i], q[j], n, steps);
                    logRow[i] = std::log10(row[i]);
                } else if (pAll[i] >= 1e-4) {
                    logRow[i] = -std::log1p(-pAll[i]) * kInvLn10;
                }
            }
        }
    }
    SurfaceCells extremes;
    extremes.system_states = systemStateCount(shape);
    for (std::size_t at = 1; at < cpi.size(); ++at) {
        if (cpi[at] > cpi[extremes.max])
            extremes.max = at;
        if (cpi[at] < cpi[extremes.min])
            extremes.min = at;
    }
    return extremes;
}

void markovSurface(std::span<const int> threadsPerGroup, std::span<const double> p, std::span<const double> q,
                   std::optional<long long> steps, MarkovSurface &out)
{
    out.cpi.resize(p.size() * q.size());
    out.log10_cpi.resize(out.cpi.size());
    const SurfaceCells cells = markovSurfaceCells(threadsPerGroup, p, q, steps, out.cpi, out.log10_cpi);
    out.p.assign(p.begin(), p.end());
    out.q.assign(q.begin(), q.end());
    out.system_states = cells.system_states;
    out.max = out.extremeAt(cells.max);
    out.min = out.extremeAt(cells.min);
}

MarkovSurface markovSurface(std::span<const int> threadsPerGroup, const MarkovGrid &grid,
                            std::optional<long long> steps)
{
    const std::vector<double> values = grid.values();
    MarkovSurface s;
    markovSurface(threadsPerGroup, values, values, steps, s);
    return s;
}

} // namespace crossroof::core
