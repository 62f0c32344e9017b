// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// A switch of branch during a sweep: the state left the basin of attraction of the equilibrium it rested on
/// (its stable branch ended at a tangency), so it fell or rose to another branch.
struct HysteresisJump
{
    bool rising = true;    ///< on the up sweep (values rising); false on the down sweep
    std::size_t index = 0; ///< the state jumped on the way to values[index]
    double from_value = 0; ///< the swept value before the jump
    double to_value = 0;
    double from_k = 0;
    double to_k = 0;
    double from_gbs = 0;
    double to_gbs = 0;
};

/// The states a sweep follows (MODEL.md 1.6), per value in ascending order.
struct HysteresisResult
{
    std::string key;
    std::vector<double> values;
    std::vector<double> up_gbs;   ///< MS throughput of the device while raising the value, GB/s
    std::vector<double> up_k;
    std::vector<double> down_gbs; ///< while lowering it again
    std::vector<double> down_k;
    std::vector<int> stable_count; ///< stable equilibria at each value (the sweep's bistable range)
    std::vector<HysteresisJump> jumps;
};

/// min, min + step, ... up to max (included within 1e-9 of a step), each checked against KEY's rules (whole
/// warps for n). Throws InputError naming the key on a bad range or value, or beyond kMaxSweepValues values.
std::vector<double> sweepValues(std::string_view key, double min, double max, double step);
constexpr std::size_t kMaxSweepValues = 100000;

/// Sweeps KEY over VALUES (strictly ascending) up, then down again. The up sweep starts from a cold start
/// (the operating point at values[0]); every later step starts from the previous state k and follows the flow
/// dk/dt = -F(k) to rest, which is exactly the nearest equilibrium in the direction of -F(k)
/// (EquilibriumScan::restFrom). The down sweep starts from the state the up sweep ended in.
///
/// When n changes, the state keeps k, the warps waiting on memory, clamped to [0, n]: new warps join the
/// compute system (a warp starts by issuing instructions) and removed warps leave it (x = n - k), unless
/// fewer than k warps remain. Throws InputError on an unknown key, a bad value or invalid base parameters.
HysteresisResult sweepHysteresis(const XModelParams &base, std::string_view key,
                                 std::span<const double> values);

} // namespace crossroof::core
