#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The X-graph's drag against matplotlib's redraw of the same curves, in one run (docs/PERFORMANCE.md).

    python3 tests/benchmarks/matplotlib_xgraph.py BUILD_DIR [--rounds N] [--runs K]

Takes the curves of a drag of Z and of n over the middle of their sliders from `crossroof-cli xgraph --curves`
(the default profile's f(k) and G(n-k), and its equilibria), then times what a matplotlib tool does for each
step of such a drag: the two curves and the equilibria given their new data, the axes rescaled, and the
figure drawn again by Agg at 1280x800 pixels, antialiased, with its legend, grid and labels. Between those
timings, `crossroof-bench --only xgraph` runs K times, so both are measured on the same machine in the same
minutes. Prints JSON: each matplotlib run and each crossroof-bench run (median and p99 in ms) and the ratio
of the medians (matplotlib over Crossroof). Needs python3-matplotlib (Debian's package); CI does not run it.
"""
import json
import os
import statistics
import subprocess
import sys
import time


def summarize(ms):
    ms = sorted(ms)
    pick = lambda q: ms[min(len(ms) - 1, int(q * (len(ms) - 1) + 0.5))]
    return {"median_ms": pick(0.5), "p99_ms": pick(0.99), "samples": len(ms)}


def curves(cli, key, value):
    out = subprocess.run([cli, "xgraph", "--json", "--curves", "200", "--set", "%s=%g" % (key, value)],
                         check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    eq = data["equilibria"]
    return (data["curves"]["k"], data["curves"]["f_gbs"], data["curves"]["g_gbs"],
            [e["k"] for e in eq if e["stability"] == "stable"],
            [e["ms_throughput_gbs"] for e in eq if e["stability"] == "stable"],
            [e["k"] for e in eq if e["stability"] != "stable"],
            [e["ms_throughput_gbs"] for e in eq if e["stability"] != "stable"])


def matplotlib_drag(steps, rounds):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(12.8, 8.0), dpi=100)
    ax = fig.add_subplot()
    k, f, g, sk, sy, uk, uy = steps[0]
    (f_line,) = ax.plot(k, f, color="#0072B2", lw=2, label="f(k): memory supply")
    (g_line,) = ax.plot(k, g, color="#D55E00", lw=2, label="G(n−k): compute demand")
    (stable,) = ax.plot(sk, sy, "o", color="black", ms=9, label="stable")
    (unstable,) = ax.plot(uk, uy, "o", mfc="white", mec="black", ms=9, label="unstable")
    ax.set_xlabel("k: warps in the memory system")
    ax.set_ylabel("throughput [GB/s]")
    ax.grid(True, color="#dddddd")
    ax.legend(loc="upper right")
    fig.canvas.draw()
    times = []
    for i in range(rounds):
        k, f, g, sk, sy, uk, uy = steps[i % len(steps)]
        t0 = time.perf_counter()
        f_line.set_data(k, f)
        g_line.set_data(k, g)
        stable.set_data(sk, sy)
        unstable.set_data(uk, uy)
        ax.relim()
        ax.autoscale_view()
        fig.canvas.draw()
        times.append((time.perf_counter() - t0) * 1000)
    plt.close(fig)
    return summarize(times)


def crossroof_drag(bench):
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    out = subprocess.run([bench, "--json", "--only", "xgraph"], check=True, capture_output=True, text=True,
                         env=env).stdout
    x = json.loads(out)["xgraph_update"]
    return {"median_ms": x["median_ms"], "p99_ms": x["p99_ms"], "samples": x["samples"]}


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    build = sys.argv[1]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 600
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    cli = os.path.join(build, "app/crossroof-cli")
    bench = os.path.join(build, "tests/benchmarks/crossroof-bench")
    # The default profile's Z and n sliders over the middle of their ranges, as crossroof-bench drags them.
    steps = [curves(cli, "Z", 1.5 * (10000 / 2.25) ** (t / 11)) for t in range(12)]
    steps += [curves(cli, "n", round(5 + 3.4 * t)) for t in range(12)]
    result = {"matplotlib": [], "crossroof": []}
    for _ in range(runs):
        result["crossroof"].append(crossroof_drag(bench))
        result["matplotlib"].append(matplotlib_drag(steps, rounds))
    mpl = statistics.median(r["median_ms"] for r in result["matplotlib"])
    ours = statistics.median(r["median_ms"] for r in result["crossroof"])
    result["ratio_of_medians"] = mpl / ours
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
