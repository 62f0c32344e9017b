#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs the documented crossroof-cli examples (docs/CLI.md) and writes each one's standard output and exit
# status to OUTDIR, one file per example. Run it with two builds and diff the folders to check that a change
# leaves the CLI's output byte-identical:
#
#   scripts/cli_examples.sh build-old/app/crossroof-cli /tmp/old
#   scripts/cli_examples.sh build/app/crossroof-cli /tmp/new
#   diff -r /tmp/old /tmp/new
set -uo pipefail

if [[ $# -ne 2 ]]; then
    sed -n '4,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
cli="$1"
out="$2"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A small stream table (warps per SM, GB/s) for the fit examples.
cat >"$work/stream.csv" <<'CSV'
warps,gbs,kernel
2,150,init
4,300,init
8,590,init
12,790,init
16,805,init
24,810,init
32,812,init
48,811,init
2,80,read
4,160,read
8,320,read
CSV

run()
{
    local name="$1"
    shift
    "$cli" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo "$?" >"$out/$name.rc"
}

run profiles profiles --json
run profiles-text profiles
run xgraph-default xgraph --json
run xgraph-v100 xgraph --profile v100 --json
run xgraph-curves xgraph --profile gtx570-sp --set n=40 --set Z=8 --curves 16 --json
run xgraph-locality xgraph --profile gtx570-sp --set cache=locality --set alpha=1.8 --set beta=0.5 --json
run xgraph-fixed xgraph --profile k40-sp --set cache=fixed --set h=0.4 --json
run xgraph-text xgraph --profile a100-40
run xgraph-bad-L xgraph --set L=-5
run occupancy occupancy --cc 8.0 --threads 256 --regs 64 --smem 12288 --json
run occupancy-paper occupancy --cc 8.0 --threads 256 --regs 64 --smem 12288 --mode paper --json
run zigzag zigzag --sms 15 --ba 1 --br 1:30 --json
run markov markov --groups 4 --threads-per-group 2 --p 0.5 --q 0.5 --json
run markov-literal markov --groups 2 --threads-per-group 2 --p 0.3 --q 0.7 --solver literal --json
run markov-steps markov --groups 4 --threads-per-group 2 --p 0.2 --q 0.9 --steps 10 --json
run markov-surface markov-surface --groups 2 --threads-per-group 2 --grid uniform:5 --json
run markov-surface-thesis markov-surface --groups 4 --threads-per-group 2 --json
run mappings mappings --profile clovertown-x5365 --p 0.1 --q 0.9 --json
run stability-map stability-map --profile gtx570-sp --x n:1:48:8 --y Z:4:40:6:log --json
run hysteresis hysteresis --profile gtx570-sp --set cache=locality --n 4:48:4 --json
run advise advise --profile gtx570-sp --set cache=locality --json
run fit-trace fit-trace --trace "$work/stream.csv" --x warps --y gbs --where kernel=init --json
run fit-trace-fixed fit-trace --trace "$work/stream.csv" --x warps --y gbs --where kernel=init \
    --model fixed --profile v100 --json
run bandwidth-curve bandwidth-curve --trace "$repo/tests/data/perf_stat_excerpt.tsv" --input-format perf-stat \
    --column imc-bytes --window 1 --limit 1e9 --json
run extrapolate extrapolate --train "$repo/docs/samples/modeltree-training.csv" --target-size 160 \
    --measured "$repo/docs/samples/modeltree-measured-cpi.csv" --json
run extrapolate-text extrapolate --train "$repo/docs/samples/modeltree-training.csv" --target-size 160
exit 0
