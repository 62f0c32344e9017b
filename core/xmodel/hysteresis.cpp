// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/hysteresis.h"

#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace crossroof::core {

namespace {

const ParameterInfo &parameterFor(std::string_view key)
{
    const ParameterInfo *info = findParameter(key);
    if (!info)
        throw InputError("unknown parameter '" + std::string(key) + "' (a numeric key of MODEL.md 1.2)");
    return *info;
}

/// The model at one sweep value; the supply shape is carried over while f stays the same.
struct Step
{
    XModel model;
    SupplyShape shape;

    Step(const XModelParams &p, const Step *previous)
        : model(p)
        , shape(previous && previous->shape.sameSupply(p) ? previous->shape : SupplyShape(p))
    {
    }

    double n() const { return model.params().n; }
    double gbs(double k) const { return model.toGbs(model.msSupply(k)); }
};

} // namespace

std::vector<double> sweepValues(std::string_view key, double min, double max, double step)
{
    const ParameterInfo &info = parameterFor(key);
    const std::string name = "parameter '" + std::string(key) + "'";
    if (!std::isfinite(step) || step <= 0)
        throw InputError(name + ": the step must be > 0 (got " + formatNumber(step) + ")");
    if (!std::isfinite(min) || !std::isfinite(max) || min > max)
        throw InputError(name + ": need MIN <= MAX (got " + formatNumber(min) + ":" + formatNumber(max)
                         + ")");
    const double span = std::floor((max - min) / step + 1e-9);
    if (span + 1 > double(kMaxSweepValues)) {
        throw InputError(name + ": " + formatNumber(span + 1) + " values, at most "
                         + std::to_string(kMaxSweepValues));
    }
    std::vector<double> values(std::size_t(span) + 1);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = min + double(i) * step;
        if (std::abs(values[i] - max) <= 1e-9 * step)
            values[i] = max; // 0:1:0.1 ends on 1, not on 1 + 2e-16
        if (auto problem = checkValue(info, values[i]))
            throw InputError(name + ": " + *problem);
    }
    return values;
}

HysteresisResult sweepHysteresis(const XModelParams &base, std::string_view key,
                                 std::span<const double> values)
{
    const ParameterInfo &info = parameterFor(key);
    validate(base);
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (auto problem = checkValue(info, values[i]))
            throw InputError("parameter '" + std::string(key) + "': " + *problem);
        if (i > 0 && !(values[i] > values[i - 1]))
            throw InputError("parameter '" + std::string(key) + "': sweep values must rise strictly");
    }

    HysteresisResult r;
    r.key = std::string(key);
    r.values.assign(values.begin(), values.end());
    const std::size_t m = values.size();
    r.up_gbs.resize(m);
    r.up_k.resize(m);
    r.down_gbs.resize(m);
    r.down_k.resize(m);
    r.stable_count.resize(m);
    if (m == 0)
        return r;

    auto makeStep = [&](std::size_t i, const Step *previous) {
        XModelParams p = base;
        p.*(info.member) = values[i];
        return Step(p, previous);
    };
    // The state left the basin of the equilibrium `from` it rested on at the previous value if the previous
    // dynamics, started from the new state, no longer lead back to `from`.
    auto jumped = [](const Step &previous, double from, double to) {
        const double n = previous.n();
        const double back = EquilibriumScan(previous.model, previous.shape).restFrom(std::clamp(to, 0.0, n));
        return std::abs(back - from) > 1e-9 * std::max(n, 1.0);
    };

    std::optional<Step> previous;
    double k = 0;
    for (std::size_t i = 0; i < m; ++i) {
        Step step = makeStep(i, previous ? &*previous : nullptr);
        const EquilibriumScan scan(step.model, step.shape);
        r.stable_count[i] = scan.stableCount();
        if (!previous) {
            k = scan.operatingK(); // cold start
        } else {
            const double from = k;
            k = scan.restFrom(std::clamp(from, 0.0, step.n()));
            if (jumped(*previous, from, k))
                r.jumps.push_back({true, i, values[i - 1], values[i], from, k, r.up_gbs[i - 1], step.gbs(k)});
        }
        r.up_k[i] = k;
        r.up_gbs[i] = step.gbs(k);
        previous.emplace(std::move(step));
    }

    k = EquilibriumScan(previous->model, previous->shape).restFrom(k);
    r.down_k[m - 1] = k;
    r.down_gbs[m - 1] = previous->gbs(k);
    for (std::size_t i = m - 1; i-- > 0;) {
        Step step = makeStep(i, &*previous);
        const double from = k;
        k = EquilibriumScan(step.model, step.shape).restFrom(std::clamp(from, 0.0, step.n()));
        if (jumped(*previous, from, k))
            r.jumps.push_back({false, i, values[i + 1], values[i], from, k, r.down_gbs[i + 1], step.gbs(k)});
        r.down_k[i] = k;
        r.down_gbs[i] = step.gbs(k);
        previous.emplace(std::move(step));
    }
    return r;
}

} // namespace crossroof::core
