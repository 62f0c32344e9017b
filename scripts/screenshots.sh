#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes the pictures in docs/screenshots/ again from the samples:
#  - views/: the main window at 1600x1000 and 1024x700 with each view in front, under Xvfb with the xcb
#    platform, each view with the sample or data that shows what it is for;
#  - figures/: every view at the three presets (single column 85 x 60 mm, double column 175 x 90 mm, slide
#    254 x 142.9 mm, each with its text and line sizes): those of the samples by crossroof-cli render, the others (a session holds no ncu export,
#    perf trace or training set) exported from the window with their data loaded.
# Needs a build with the GUI (scripts/test.sh or scripts/run.sh made one in build/).
#
#   scripts/screenshots.sh [OUT_DIR]      (default docs/screenshots)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-docs/screenshots}"
tool=build/tools/screenshots/crossroof-screenshots
cmake --build build --target crossroof-screenshots crossroof-cli --parallel 2 >/dev/null

shoot()
{
    # One X server per run, the screen large enough for the largest window.
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" --out "$out/views" "$@"
}

shoot --open docs/samples/gtx570-thrashing.crossroof --views xgraph,stability,occupancy,zigzag
shoot --open docs/samples/clovertown-mapping.crossroof --views markov,mapping
# Views whose data no session holds: their figures too, exported from the window as File > Export Figure does.
shoot --training docs/samples/modeltree-training.csv --views extrapolate --figures "$out/figures"
shoot --bandwidth tests/data/perf_stat_excerpt.tsv --views bandwidth --figures "$out/figures"
shoot --profile h100-sxm --ncu tests/data/ncu_h100_raw.csv --views roofline --figures "$out/figures"
shoot --views skeleton
shoot --profile h100-sxm --ncu tests/data/h100_sxm/torch_raw.csv --views prediction
shoot --open docs/samples/h100-thrashing.crossroof --views xgraph --prefix h100-thrashing- --side-by-side

figure()
{
    local session="$1" view="$2"
    local preset
    for preset in single double slide; do
        QT_QPA_PLATFORM=offscreen build/app/crossroof-cli render --session "$session" --view "$view" \
            --out "$out/figures/$view-$preset.png" --preset "$preset" --dpi 110
    done
}

mkdir -p "$out/figures"
for view in xgraph stability occupancy zigzag skeleton; do
    figure docs/samples/gtx570-thrashing.crossroof "$view"
done
for view in markov mapping; do
    figure docs/samples/clovertown-mapping.crossroof "$view"
done
