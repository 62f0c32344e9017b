// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/physical_bounds.h"

#include "core/calibration/calibration.h"
#include "core/support/text.h"

#include <algorithm>
#include <tuple>

namespace crossroof::core {

namespace {

bool isFitted(const std::vector<std::string> &fit, std::string_view key)
{
    return std::find(fit.begin(), fit.end(), key) != fit.end();
}

/// Lowers RANGE's upper end to VALUE (when positive and lower), saying WHY.
void capAbove(KeyRange &range, double value, std::string why)
{
    if (value > 0 && value < range.hi && value > range.lo) {
        range.hi = value;
        range.hi_why = std::move(why);
    }
}

/// Raises RANGE's lower end to VALUE (when higher), saying WHY.
void capBelow(KeyRange &range, double value, std::string why)
{
    if (value > range.lo && value < range.hi) {
        range.lo = value;
        range.lo_why = std::move(why);
    }
}

} // namespace

KeyRange physicalRange(std::string_view key, const XModelParams &machine, const std::vector<std::string> &fit)
{
    KeyRange range;
    std::tie(range.lo, range.hi) = calibrationBounds(key);
    const XModelParams &p = machine;
    const auto gbs = [](double v) { return formatNumber(v) + " GB/s"; };
    const auto cycles = [](double v) { return formatNumber(v) + " cycles"; };
    if (key == "R_dram") {
        // No fitted DRAM is faster than the machine says its DRAM is, nor than the levels above it.
        capAbove(range, p.R_l1,
                 "the L1 bandwidth R_l1 = " + gbs(p.R_l1) + ": no level is faster than the L1");
        capAbove(range, p.R_l2,
                 "the L2 bandwidth R_l2 = " + gbs(p.R_l2) + ": DRAM is never faster than the L2");
        capAbove(range, p.R_dram, "the profile's DRAM peak R_dram = " + gbs(p.R_dram));
    } else if (key == "R") {
        // R is the rate of the requests that pass the L1: at most what the L2 (else the L1) serves.
        capAbove(range, p.R_l1,
                 "the L1 bandwidth R_l1 = " + gbs(p.R_l1) + ": no level is faster than the L1");
        capAbove(range, p.R_l2,
                 "the L2 bandwidth R_l2 = " + gbs(p.R_l2)
                         + ": the requests past the L1 go no faster than the L2");
    } else if (key == "L") {
        capBelow(range, p.L_s,
                 "the L1 latency L_s = " + cycles(p.L_s) + ": memory never answers faster than the L1");
        if (!isFitted(fit, "L_2"))
            capBelow(range, p.L_2,
                     "the L2 latency L_2 = " + cycles(p.L_2) + ": memory never answers faster than the L2");
    } else if (key == "L_2") {
        capBelow(range, p.L_s,
                 "the L1 latency L_s = " + cycles(p.L_s) + ": the L2 never answers faster than the L1");
        if (!isFitted(fit, "L"))
            capAbove(range, p.L,
                     "the memory latency L = " + cycles(p.L) + ": the L2 never answers slower than memory");
    }
    return range;
}

} // namespace crossroof::core
