#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes the large but valid inputs of docs/PERFORMANCE.md ("Large inputs"), the same bytes on every run:
#
#   scripts/large_inputs.sh DIR
#
#   DIR/train_1m.csv    1,000,000 training runs for `extrapolate`: the law of the synthetic sample
#                       (scripts/generate_modeltree_sample.py) at 14,286 sizes from 32 to 128, iterations 1-10,
#                       its seven strategies, p and q moved by up to 0.01 (58 MB)
#   DIR/trace_1m.csv    1,000,000 points for `fit-trace`: the measured H100 SXM curve at 1 KiB per warp
#                       (tests/data/h100_sxm/cache.csv) repeated, each throughput moved by up to 3 % (11 MB)
#   DIR/ncu_1m.csv      1,000,000 kernels for `kernels`: an `ncu --page raw` export of the real H100 rows'
#                       counters (tests/data/ncu_h100_raw.csv), the columns the model needs only, so that it
#                       stays under the 64 MiB limit, each kernel with its own ID (60 MB)
#   DIR/perf_1mb.txt    1 MiB of `perf stat -I -x,` output in which every line is its own interval and its own
#                       event (29,000 of each)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: scripts/large_inputs.sh DIR}"
mkdir -p -- "$dir"

python3 - "$dir/train_1m.csv" <<'PY'
import math, sys
STRATEGIES = [("2threads_same_L2", 1, 2, 0.55), ("2threads_different_L2_same_socket", 2, 1, 0.62),
              ("4threads_with_1threads_per_L2", 4, 1, 0.68), ("4threads_with_2threads_per_L2", 2, 2, 0.72),
              ("8threads_1threads_per_core", 4, 2, 0.58), ("8threads_2threads_per_core", 2, 4, 0.80),
              ("8threads_4threads_per_core", 1, 8, 0.85)]
state = 12345
def noise():
    global state
    state = (1103515245 * state + 12345) % 2**31
    return 2 * state / 2**31 - 1
def p_of(q, g, t):
    if q <= 0.84:
        return 1.37 - 1.6 * q + 0.10 * g + 0.07 * t if (t + 1) ** g <= 20.5 else 1.00 - 0.57 * q + 0.02 * g + 0.04 * t
    if q <= 0.982:
        return 0.80 - 0.58 * q - 0.04 * g
    return 0.30 - 0.23 * q - 0.016 * g
clip = lambda v: min(0.999, max(0.001, v))
with open(sys.argv[1], "w") as f:
    f.write("Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,p_value,q_value\n")
    rows = 0
    i = 0
    while rows < 1000000:
        size = 32 + 96 * i / 14285
        i += 1
        for it in range(1, 11):
            for name, g, t, base in STRATEGIES:
                if rows == 1000000:
                    break
                q = clip(base + 0.001 * size + 0.02 * (1 - math.exp(-it / 3)) + 0.01 * noise())
                p = clip(p_of(q, g, t) + 0.01 * noise())
                f.write("%.4f,%d,%d,%d,%s,%d,%.4f,%.4f\n" % (size, it, g, t, name, (t + 1) ** g, p, q))
                rows += 1
PY

awk -F, 'BEGIN { srand(3) }
    NR == 1 { print "warps_per_sm,request_gbs"; next }
    $2 == 1024 { k[++n] = $1; y[n] = $6 }
    END { for (r = 0; r < 1000000; ++r) { j = r % n + 1; printf "%d,%.2f\n", k[j], y[j] * (1 + (2 * rand() - 1) * 0.03) } }' \
    "$repo_root/tests/data/h100_sxm/cache.csv" > "$dir/trace_1m.csv"

python3 - "$repo_root/tests/data/ncu_h100_raw.csv" "$dir/ncu_1m.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
cols = ["ID", "Kernel Name", "sm__warps_active.avg.per_cycle_active", "dram__bytes.sum.per_second",
        "gpu__time_duration.sum", "smsp__inst_executed.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
at = [rows[h].index(c) for c in cols]
body = [r for r in rows[h + 2:] if len(r) == len(rows[h])]
with open(sys.argv[2], "w") as f:
    f.write("==PROF== Connected to process 1 (/usr/bin/xbench)\n")
    f.write(",".join('"%s"' % c for c in cols) + "\n")
    f.write('"","","warp","Gbyte/s","ns","inst","",""\n')
    for k in range(1000000):
        v = [body[k % len(body)][i].replace(",", "") for i in at]
        f.write('"%d","k",%s,%.1f,%s,%s,%s,%s\n' % (k, v[2], float(v[3]) / 1e9, v[4], v[5], v[6], v[7]))
PY

awk 'BEGIN { for (i = 0; bytes < 1048576; ++i) { line = sprintf("%d.000,%d,,ev%d,1000,100.00", i + 1, 100 + i, i); print line; bytes += length(line) + 1 } }' \
    > "$dir/perf_1mb.txt"
echo "wrote $dir/train_1m.csv, trace_1m.csv, ncu_1m.csv and perf_1mb.txt"
