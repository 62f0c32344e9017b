#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes the screenshots of every view at 1600x1000 and 1024x700 in docs/screenshots/views/ again: the main
# window under Xvfb with the xcb platform, each view with the sample or data that shows what it is for.
# Needs a build with the GUI (scripts/test.sh or scripts/run.sh made one in build/).
#
#   scripts/screenshots.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-docs/screenshots/views}"
tool=build/tools/screenshots/crossroof-screenshots
cmake --build build --target crossroof-screenshots --parallel 2 >/dev/null

shoot()
{
    # One X server per run, the screen large enough for the largest window.
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" --out "$out" "$@"
}

shoot --open docs/samples/gtx570-thrashing.crossroof --views xgraph,stability,occupancy,zigzag
shoot --open docs/samples/clovertown-mapping.crossroof --views markov,mapping
shoot --training docs/samples/modeltree-training.csv --views extrapolate
shoot --bandwidth tests/data/perf_stat_excerpt.tsv --views bandwidth
shoot --profile h100-sxm --ncu tests/data/ncu_h100_raw.csv --views roofline
shoot --views skeleton
