#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes the synthetic parallel-read file tests/data/probe_parallel/parallel.csv, deterministically:
#
#   python3 scripts/generate_probe_parallel_sample.py tests/data/probe_parallel
#
# The numbers are made up, not measured: what crossroof-probe would write on an H100 SXM (132 SMs at 1.98 GHz,
# 64 warps per SM, 50 MiB L2) if that GPU were the X-model machine below, with 1 % noise. The layout and the
# geometry (blocks of 2 warps, 1 for odd counts; launches of about 6 ms; no 16-byte x 8 row at 64 warps, which
# the probe's registers do not leave room for) are the probe's.
#
#   dram rows: GB/s = min(n * m * SMs * req_bytes * clock / L,  R * req_bytes / 128,  R_dram)
#   l2 rows:   GB/s = min(n * m * SMs * req_bytes * clock / L_2, L2_GBS)
#
# with req_bytes = 32 x bytes_per_thread. The first is the X-model's f(k) at k = n with m requests in flight
# (docs/MODEL.md 1.3); the X-model has no L2 bandwidth, so L2_GBS is this script's own made-up ceiling.
import math
import os
import random
import sys

SMS = 132
CLOCK_GHZ = 1.98
L = 760.0  # DRAM latency, cycles
R = 2072.0  # GB/s of 128-byte requests
R_DRAM = 2964.0  # DRAM byte bandwidth, GB/s
L_2 = 270.0  # L2 latency, cycles
L2_GBS = 6800.0  # L2 read ceiling, GB/s (not an X-model key)
NOISE = 0.01

DRAM_FOOTPRINT = 2 << 30
L2_FOOTPRINT = 52428800 // 4 // 4096 * 4096
WARPS = [1, 2, 4, 8, 16, 32, 48, 64]
WIDTHS = [4, 8, 16]
IN_FLIGHT = [1, 2, 4, 8]


def truth(level, bytes_per_thread, m, n):
    req = 32 * bytes_per_thread
    if level == "dram":
        return min(n * m * SMS * req * CLOCK_GHZ / L, R * req / 128, R_DRAM)
    return min(n * m * SMS * req * CLOCK_GHZ / L_2, L2_GBS)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/probe_parallel"
    os.makedirs(out, exist_ok=True)
    rng = random.Random(30)
    lines = ["level,bytes_per_thread,loads_in_flight,warps_per_sm,footprint_bytes,grid,block,iters,ms,read_gbs"]
    for level, footprint in (("dram", DRAM_FOOTPRINT), ("l2", L2_FOOTPRINT)):
        for width in WIDTHS:
            for m in IN_FLIGHT:
                for n in WARPS:
                    if width == 16 and m == 8 and n == 64:
                        continue
                    per_block = 1 if n % 2 else 2
                    grid = SMS * (n // per_block)
                    block = 32 * per_block
                    gbs = truth(level, width, m, n) * math.exp(rng.gauss(0, NOISE))
                    bytes_per_iter = grid * per_block * m * 32 * width
                    iters = max(16, round(6e-3 * gbs * 1e9 / bytes_per_iter))
                    ms = iters * bytes_per_iter / (gbs * 1e9) * 1e3
                    lines.append(f"{level},{width},{m},{n},{footprint},{grid},{block},{iters},{ms:.4f},{gbs:.2f}")
    with open(os.path.join(out, "parallel.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
