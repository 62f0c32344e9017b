#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# crossroof-cli render (and the crossroof-render helper it runs) draws offscreen whatever QT_QPA_PLATFORM
# names: a platform that cannot load here (xcb without a display, as over ssh or in a container, or a
# misspelt name) made Qt abort with SIGABRT before anything was drawn.
# Usage: render_platform.sh CROSSROOF_CLI CROSSROOF_RENDER SESSION
set -u
cli=$1 helper=$2 session=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failed=0
for platform in xcb no-such-platform; do
    for how in cli helper; do
        rm -f "$dir/f.svg"
        if [ "$how" = cli ]; then
            cmd=("$cli" render)
        else
            cmd=("$helper")
        fi
        env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM="$platform" "${cmd[@]}" --session "$session" \
            --view xgraph --out "$dir/f.svg" > "$dir/out" 2> "$dir/err"
        rc=$?
        if [ $rc -ne 0 ] || [ ! -s "$dir/f.svg" ]; then
            echo "QT_QPA_PLATFORM=$platform through the $how: exit status $rc, stderr: $(head -c 300 "$dir/err")"
            failed=1
        fi
    done
done
exit $failed
