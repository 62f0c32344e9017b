#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes large inputs made from real measurements, for timing the command line at scale (docs/PERFORMANCE.md):
#
#   scripts/scale_inputs.sh DIR [ROWS] [KERNELS]
#
#   DIR/family_ROWS.csv   the measured H100 SXM kernel family repeated to ROWS rows (default 100000), each
#                         throughput moved by up to 3 % (a fixed seed, so every run writes the same file)
#   DIR/ncu_KERNELS.csv   the real H100 `ncu --page raw` export repeated to KERNELS kernels (default 10000),
#                         each with its own ID
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: scripts/scale_inputs.sh DIR [ROWS] [KERNELS]}"
rows="${2:-100000}"
kernels="${3:-10000}"
mkdir -p -- "$dir"

awk -F, -v OFS=, -v rows="$rows" 'BEGIN { srand(2) }
    NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "gbs") col = i; print; next }
    { body[++count] = $0 }
    END {
        if (!col) { print "no gbs column" > "/dev/stderr"; exit 1 }
        for (r = 0; r < rows; ++r) {
            $0 = body[r % count + 1]
            $col = sprintf("%.2f", $col * (1 + (2 * rand() - 1) * 0.03))
            print
        }
    }' "$repo_root/tests/data/h100_sxm/family.csv" > "$dir/family_$rows.csv"

# The raw export: ncu's two "==PROF==" lines, the header, the units row, then one kernel per line; the first
# field is the kernel's ID.
awk -v kernels="$kernels" '
    /^==PROF==/ || header < 2 { print; if ($0 !~ /^==PROF==/) ++header; next }
    { body[++count] = $0 }
    END {
        for (k = 0; k < kernels; ++k) {
            line = body[k % count + 1]
            sub(/^"[^"]*"/, "\"" k "\"", line)
            print line
        }
    }' "$repo_root/tests/data/ncu_h100_raw.csv" > "$dir/ncu_$kernels.csv"
echo "wrote $dir/family_$rows.csv and $dir/ncu_$kernels.csv"
