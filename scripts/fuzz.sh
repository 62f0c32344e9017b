#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A long fuzzing run: builds the libFuzzer targets with clang in build-fuzz/ (as scripts/test.sh does) and runs
# every one of them, one after the other, for SECONDS_PER_TARGET seconds. The default shares one hour among
# the targets (3600 / their number). Inputs found go to build-fuzz/tests/fuzz/corpus/<target>/ (kept between
# runs, so a second run goes on from the first); a crash, hang or sanitizer report is written to
# build-fuzz/crashes/<target>/ and named at the end; libFuzzer's output goes to build-fuzz/fuzz-logs/<target>.log.
# Exits 1 when any target failed.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [-- extra libFuzzer options...]
#
# Reproduce a finding: build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/crashes/<target>/crash-...
set -uo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
cd "$repo_root" || exit 2

seconds=""
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h | --help) sed -n '4,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *[!0-9]* | "") echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number (got '$1')" >&2; exit 2 ;;
        *) seconds="$1" ;;
    esac
    shift
done

echo "==== Build (clang, libFuzzer + AddressSanitizer, build-fuzz/) ===="
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCROSSROOF_BUILD_GUI=OFF -DCROSSROOF_FUZZ=ON -DCROSSROOF_BUILD_TESTS=ON > /dev/null || exit 2
cmake --build build-fuzz --parallel 2 --target fuzz_all || exit 2

targets=()
for exe in build-fuzz/tests/fuzz/fuzz_*; do
    [[ -x "$exe" && -f "$exe" ]] && targets+=("$(basename "$exe")")
done
if [[ ${#targets[@]} -eq 0 ]]; then
    echo "fuzz.sh: no fuzz targets in build-fuzz/tests/fuzz/" >&2
    exit 2
fi
if [[ -z "$seconds" ]]; then
    seconds=$((3600 / ${#targets[@]}))
fi
echo "==== ${#targets[@]} targets, $seconds s each ===="

failed=()
for target in "${targets[@]}"; do
    name="${target#fuzz_}"
    work="build-fuzz/tests/fuzz/corpus/$name"
    crashes="build-fuzz/crashes/$name"
    mkdir -p "$work" "$crashes" build-fuzz/fuzz-logs
    log="build-fuzz/fuzz-logs/$name.log"
    printf '%-20s ' "$target"
    # -rss_limit_mb and -timeout: a hang or a runaway allocation is a finding too.
    "build-fuzz/tests/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 \
        -artifact_prefix="$crashes/" -print_final_stats=1 "${extra[@]}" \
        "$work" "tests/fuzz/corpus/$name" > "$log" 2>&1
    status=$?
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')"
    if [[ $status -eq 0 ]]; then
        echo "ok, ${runs:-?} inputs"
    else
        echo "FAILED (status $status), see $log and $crashes/"
        failed+=("$target")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz.sh: findings in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: no findings"
