#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes the synthetic model-tree sample (docs/samples/modeltree-training.csv and
# docs/samples/modeltree-measured-cpi.csv), deterministically:
#
#   python3 scripts/generate_modeltree_sample.py docs/samples
#
# The numbers are made up, not measured. They are built so that the tree M5' learns for p has the shape of
# the example tree in the Markov thread-mapping thesis (its appendix of Weka output): splits on q near 0.84
# and 0.982 and, below 0.84, on the number of Markov states near 20.5, with a linear model in each leaf.
#   q = base(strategy) + 0.001 * size + 0.02 * (1 - exp(-iteration / 3)) + noise
#   p = one of four linear models of q, Num_L2 and Num_threads_per_L2, chosen by q and the number of states
# The measured-CPI file holds the steady-state Markov CPI of that truth at two larger sizes, for the second
# check of `crossroof-cli extrapolate --measured`; strategies whose made-up q reaches 1 there are left out.
import math
import os
import sys

# name, Num_L2 (groups), threads per L2, base q
STRATEGIES = [
    ("2threads_same_L2", 1, 2, 0.55),
    ("2threads_different_L2_same_socket", 2, 1, 0.62),
    ("4threads_with_1threads_per_L2", 4, 1, 0.68),
    ("4threads_with_2threads_per_L2", 2, 2, 0.72),
    ("8threads_1threads_per_core", 4, 2, 0.58),
    ("8threads_2threads_per_core", 2, 4, 0.80),
    ("8threads_4threads_per_core", 1, 8, 0.85),
]
SIZES = [32, 48, 64, 96, 128]
ITERATIONS = range(1, 11)
MEASURED_SIZES = [144, 160]


class Noise:
    """A fixed linear congruential sequence in [-1, 1)."""

    def __init__(self):
        self.state = 12345

    def __call__(self):
        self.state = (1103515245 * self.state + 12345) % 2**31
        return 2 * self.state / 2**31 - 1


def states(groups, threads):
    return (threads + 1) ** groups


def q_of(base, size, iteration):
    return base + 0.001 * size + 0.02 * (1 - math.exp(-iteration / 3))


def p_of(q, groups, threads):
    if q <= 0.84:
        if states(groups, threads) <= 20.5:
            return 1.37 - 1.6 * q + 0.10 * groups + 0.07 * threads
        return 1.00 - 0.57 * q + 0.02 * groups + 0.04 * threads
    if q <= 0.982:
        return 0.80 - 0.58 * q - 0.04 * groups
    return 0.30 - 0.23 * q - 0.016 * groups


def cpi(p, q, groups, threads):
    suspended = p / (p + 1 - q)
    return 1 / (1 - suspended ** (groups * threads))


def clip(v):
    return min(0.999, max(0.001, v))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate_modeltree_sample.py OUTDIR")
    out = sys.argv[1]
    noise = Noise()
    with open(os.path.join(out, "modeltree-training.csv"), "w", newline="\n") as f:
        f.write("# Synthetic training runs for crossroof-cli extrapolate, written by "
                "scripts/generate_modeltree_sample.py (not measurements)\n")
        f.write("Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,"
                "p_value,q_value\n")
        for size in SIZES:
            for name, groups, threads, base in STRATEGIES:
                for it in ITERATIONS:
                    q = clip(q_of(base, size, it) + 0.002 * noise())
                    p = clip(p_of(q, groups, threads) + 0.003 * noise())
                    f.write(f"{size},{it},{groups},{threads},{name},{states(groups, threads)},{p:.4f},{q:.4f}\n")
    with open(os.path.join(out, "modeltree-measured-cpi.csv"), "w", newline="\n") as f:
        f.write("# Synthetic steady-state CPI at larger sizes, from the same made-up truth as "
                "modeltree-training.csv\n")
        f.write("Application_size,Iteration,Mapping_Strategy,CPI\n")
        for size in MEASURED_SIZES:
            for name, groups, threads, base in STRATEGIES:
                q = q_of(base, size, 10)
                if q >= 0.999:
                    continue
                p = clip(p_of(q, groups, threads))
                f.write(f"{size},10,{name},{cpi(p, q, groups, threads):.5f}\n")


if __name__ == "__main__":
    main()
