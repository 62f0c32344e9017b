// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The machines the advisor's tests share: a parameter changed, the thrashing and bistable Fermi, the low state.

#include "core/xmodel/advisor.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "model_fixtures.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

namespace crossroof::advisor_test {

using core::CacheMode;
using core::TuningOperation;
using core::XModel;
using core::XModelParams;

inline XModelParams with(XModelParams p, const std::string &key, double v)
{
    p.*(core::findParameter(key)->member) = v;
    return p;
}

/// The thrashing state alone (demand above the cache peak): every operation has something to gain.
inline XModelParams thrashing()
{
    return with(test::thrashingFermi(), "Z", 4);
}

/// Bistable in n over bounded ranges (as in tst_hysteresis).
inline XModelParams loopFermi()
{
    return with(with(test::thrashingFermi(), "E", 0.006), "Z", 9);
}

/// The stable equilibrium with the largest k, by a full solve: the low state.
inline core::Equilibrium lowState(const XModelParams &p)
{
    const auto r = XModel(p).solve();
    core::Equilibrium low = r.operatingPoint();
    for (const auto &e : r.equilibria) {
        if ((e.stability == core::Stability::Stable || e.stability == core::Stability::Neutral) && e.k > low.k)
            low = e;
    }
    return low;
}

} // namespace crossroof::advisor_test
