// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/xgraph_hover.h"

#include "common/number_format.h"
#include "core/xmodel/measured_curve.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("XGraphView", text);
}

} // namespace

QString describeXGraphAt(const core::XModel &model, const core::XGraphResult &r, double k, double gbs,
                         double kTolerance, double gbsTolerance)
{
    if (k < -kTolerance || k > model.params().n + kTolerance)
        return {};
    const auto &p = model.params();
    auto near = [&](double ek, double egbs) {
        return std::abs(ek - k) <= kTolerance && std::abs(egbs - gbs) <= gbsTolerance;
    };
    for (const auto &e : r.equilibria) {
        if (!near(e.k, e.ms_gbs))
            continue;
        return tr("Equilibrium f(k) = G(n−k): k = %1, x = %2 warps, %3, %4; %5, %6-bound")
                .arg(formatNumber(e.k), formatNumber(e.x), formatQuantity(e.ms_gbs, QStringLiteral("B/s"), si::giga, 4),
                     formatQuantity(e.cs_gops, QStringLiteral("op/s"), si::giga, 4),
                     QString::fromLatin1(core::stabilityName(e.stability).data()),
                     QString::fromLatin1(core::boundClassName(e.bound).data()));
    }
    const double kc = std::clamp(k, 0.0, p.n);
    const double f = model.toGbs(model.msSupply(kc));
    const double g = model.toGbs(model.csDemand(p.n - kc));
    if (std::abs(f - gbs) <= gbsTolerance) {
        QString formula;
        switch (p.cache) {
        case core::CacheMode::None:
            formula = tr("f(k) = k / Lm(k), Lm(k) = max(L, k/R)");
            break;
        case core::CacheMode::Fixed:
            formula = tr("f(k) = k / (h·L_s + (1−h)·Lm(k)), Lm(k) = max(L, k/R)  (Eq. 1, 2)");
            break;
        case core::CacheMode::Locality:
            formula = tr("f(k) = k / (L_s + (Lm(k) − L_s)·(S_s/(βk) + 1)^(1−α))  (Eq. 5)");
            break;
        case core::CacheMode::TwoLevel:
            formula = tr(
                    "f(k) = k / ((1−m₁)·L_s + m₁·L_miss(k)), m_i = 1/(1 + (S_i/(βk))^γ_i)  (two levels)");
            break;
        }
        if (p.measured_f && kc <= p.measured_f->last())
            formula = tr("f(k) measured (%1)").arg(QString::fromStdString(p.measured_f->source()));
        QString hit;
        if (p.cache != core::CacheMode::None)
            hit = tr(", hit rate %1").arg(formatNumber(model.hitRate(kc), 3));
        return tr("%1: at k = %2 warps, %3%4")
                .arg(formula, formatNumber(kc), formatQuantity(f, QStringLiteral("B/s"), si::giga, 4), hit);
    }
    if (std::abs(g - gbs) <= gbsTolerance) {
        return tr("G(x) = min(E·x, M)/Z: at x = %1 warps, %2 demand (%3)")
                .arg(formatNumber(p.n - kc), formatQuantity(g, QStringLiteral("B/s"), si::giga, 4),
                     formatQuantity(model.toGops(model.csThroughput(p.n - kc)), QStringLiteral("op/s"), si::giga, 4));
    }
    const auto &lm = r.landmarks;
    if (std::abs(k - lm.delta) <= kTolerance)
        return tr("δ = R_req·L/m = %1 warps: memory transition, where the MLP of the machine (R_req·L "
                  "requests) is "
                  "in flight")
                .arg(formatNumber(lm.delta));
    if (std::abs(k - (p.n - lm.pi)) <= kTolerance)
        return tr("π = M·L_c/E = %1 warps computing: compute transition").arg(formatNumber(lm.pi));
    if (std::abs(gbs - lm.plateau_gbs) <= gbsTolerance)
        return tr("Memory plateau R = %1")
                .arg(formatQuantity(lm.plateau_gbs, QStringLiteral("B/s"), si::giga, 4));
    return {};
}

} // namespace crossroof::widgets
