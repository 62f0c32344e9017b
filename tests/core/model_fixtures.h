// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

namespace crossroof::test {

/// A Fermi-like machine (GTX 570 SP, Table II) with a cache-thrashing workload of the paper's Fig. 9-B kind:
/// cache peak, valley and three equilibria. Written out here so that profile edits never change the tests.
inline core::XModelParams thrashingFermi()
{
    core::XModelParams p;
    p.sm_count = 15;
    p.clock_ghz = 1.464;
    p.warp_size = 32;
    p.max_warps = 48;
    p.request_bytes = 128;
    p.R = 147;
    p.L = 917.8384;
    p.M = 1;
    p.S_s = 16;
    p.L_s = 40;
    p.n = 48;
    p.Z = 12;
    p.E = 1;
    p.cache = core::CacheMode::Locality;
    p.alpha = 6;
    p.beta = 2.5;
    return p;
}

} // namespace crossroof::test
