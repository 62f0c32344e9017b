#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes every picture README.md and docs/ show again, from the samples and the real data in tests/data, with
# the build in BUILD_DIR (default build/; the targets it needs are built first):
#  - docs/screenshots/views/: the main window at 1600x1000 and 1024x700 with each view in front, under Xvfb
#    with the xcb platform, each view with the sample or data that shows what it is for;
#  - docs/screenshots/figures/: every view at the three presets (single column 85 x 60 mm, double column
#    175 x 90 mm, slide 254 x 142.9 mm, each with its text and line sizes): those of the samples by
#    crossroof-cli render, the others (a session holds no ncu export, perf trace or training set) exported from
#    the window with their data loaded;
#  - docs/samples/*.pdf, *.svg, *.png: figures of the sample sessions, by crossroof-cli render.
# Each picture is recorded in docs/screenshots/MANIFEST with the code and inputs it shows and their content
# hash; the ctest screenshots_are_current fails once one of them changes, until this script is run again.
# Run it after committing the code (it hashes the files git knows of), then commit the pictures with MANIFEST.
#
#   scripts/screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=$(realpath "${1:-build}")
out=docs/screenshots
tool="$build/tools/screenshots/crossroof-screenshots"
cli="$build/app/crossroof-cli"
cmake --build "$build" --target crossroof-screenshots crossroof-cli crossroof-render --parallel 2 >/dev/null

# The code a window picture shows, and that of a figure crossroof-cli render draws (with the inputs named).
window_code="core widgets app/gui tools/screenshots hardware_profiles resources"
figure_code="core widgets app/gui app/render hardware_profiles resources"
source "scripts/lib/screenshot_manifest.sh"
manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT

# Runs crossroof-screenshots with INPUTS (the files after each option that names one) and records what it wrote.
shoot()
{
    local inputs=() previous="" arg file
    for arg in "$@"; do
        case "$previous" in
        --open | --ncu | --bandwidth | --training | --trace) inputs+=("$arg") ;;
        esac
        previous="$arg"
    done
    # One X server per run, the screen large enough for the largest window.
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1200x24" "$tool" --out "$out/views" "$@" > "$manifest.run"
    while IFS= read -r file; do
        screenshot_record "$manifest" "$file" $window_code "${inputs[@]}"
    done < "$manifest.run"
    rm -f "$manifest.run"
}

# crossroof-cli render of SESSION's VIEW into FILE with further options.
render()
{
    local session="$1" view="$2" file="$3"
    shift 3
    QT_QPA_PLATFORM=offscreen "$cli" render --session "$session" --view "$view" --out "$file" "$@" >/dev/null
    screenshot_record "$manifest" "$file" $figure_code "$session"
}

rm -rf "$out/views" "$out/figures"
mkdir -p "$out/views" "$out/figures"

shoot --open docs/samples/gtx570-thrashing.crossroof --views xgraph,stability,occupancy,zigzag
shoot --open docs/samples/gtx570-thrashing.crossroof --views xgraph --size 1600x1000 --zoom-pan --prefix zoom-
shoot --open docs/samples/v100-measured.crossroof --views xgraph --prefix v100-measured-
# gpu-benches' real MI100 pointer chase and cache sweep over a profile's levels (no profile is an MI100's).
shoot --profile v100 --trace tests/data/gpu_benches/latency_mi100.txt --trace tests/data/gpu_benches/cache_mi100.txt \
    --views levels --prefix mi100-
shoot --open docs/samples/clovertown-mapping.crossroof --views markov,mapping
# Views whose data no session holds: their figures too, exported from the window as File > Export Figure does.
shoot --training docs/samples/modeltree-training.csv --views extrapolate --figures "$out/figures"
shoot --bandwidth tests/data/perf_stat_excerpt.tsv --views bandwidth --figures "$out/figures"
shoot --profile h100-sxm --ncu tests/data/ncu_h100_raw.csv --views roofline --figures "$out/figures"
shoot --views skeleton
shoot --profile h100-sxm --ncu tests/data/h100_sxm/torch_raw.csv --views prediction
shoot --open docs/samples/h100-thrashing.crossroof --views xgraph --prefix h100-thrashing- --side-by-side

for view in xgraph stability occupancy zigzag skeleton markov mapping; do
    session=docs/samples/gtx570-thrashing.crossroof
    [[ $view == markov || $view == mapping ]] && session=docs/samples/clovertown-mapping.crossroof
    for preset in single double slide; do
        render "$session" "$view" "$out/figures/$view-$preset.png" --preset "$preset" --dpi 110
    done
done

# The sample figures beside the sessions: vector at the double-column preset, one single column in grey.
for view in xgraph occupancy zigzag markov; do
    render docs/samples/gtx570-thrashing.crossroof "$view" "docs/samples/$view.pdf" --preset double
done
render docs/samples/clovertown-mapping.crossroof markov docs/samples/markov-clovertown-8T_1.pdf --preset double
render docs/samples/clovertown-mapping.crossroof mapping docs/samples/mapping.pdf --preset double
render docs/samples/gtx570-thrashing.crossroof xgraph docs/samples/xgraph-single-column.svg --preset single
render docs/samples/gtx570-thrashing.crossroof xgraph docs/samples/xgraph-single-column-greyscale.png \
    --preset single --greyscale --dpi 300

LC_ALL=C sort -t $'\t' -k2,2 "$manifest" > "$out/MANIFEST"
echo "$(wc -l < "$out/MANIFEST") pictures made again; recorded in $out/MANIFEST"
