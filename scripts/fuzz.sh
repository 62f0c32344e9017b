#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A long fuzzing run: builds the libFuzzer targets with clang in build-sanitize/ (as scripts/test.sh does)
# and runs every one of them, one after the other, for SECONDS_PER_TARGET seconds. The default shares one
# hour among the targets (3600 / their number). Inputs found go to build-sanitize/tests/fuzz/corpus/<target>/
# (kept between runs, so a second run goes on from the first); a crash, hang or sanitizer report is written
# to build-sanitize/crashes/<target>/ and named at the end; libFuzzer's output goes to
# build-sanitize/fuzz-logs/<target>.log.
# Exits 1 when any target failed.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [-- extra libFuzzer options...]
#
# Reproduce a finding: build-sanitize/tests/fuzz/fuzz_<target> build-sanitize/crashes/<target>/crash-...
set -uo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
cd "$repo_root" || exit 2

seconds=""
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h | --help) sed -n '4,15s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *[!0-9]* | "") echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number (got '$1')" >&2; exit 2 ;;
        *) seconds="$1" ;;
    esac
    shift
done

# The same tree and configuration as scripts/test.sh's sanitizer pass (clang, ASan + UBSan, the core
# libraries with coverage hooks), so one build serves both; only the fuzz targets are built here.
echo "==== Build the fuzz targets (clang, libFuzzer + AddressSanitizer + UBSan, build-sanitize/) ===="
if [[ -f build-sanitize/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=\(.*/\)\?clang++$' \
    build-sanitize/CMakeCache.txt; then
    echo "fuzz.sh: build-sanitize/ was configured with another compiler; remove it first" >&2
    exit 2
fi
CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
    -DCROSSROOF_SANITIZE=ON -DCROSSROOF_FUZZ=ON -DCROSSROOF_BUILD_TESTS=ON -DCROSSROOF_BUILD_BENCH=OFF \
    > /dev/null || exit 2
cmake --build build-sanitize --parallel 2 --target fuzz_all || exit 2

targets=()
for exe in build-sanitize/tests/fuzz/fuzz_*; do
    [[ -x "$exe" && -f "$exe" ]] && targets+=("$(basename "$exe")")
done
if [[ ${#targets[@]} -eq 0 ]]; then
    echo "fuzz.sh: no fuzz targets in build-sanitize/tests/fuzz/" >&2
    exit 2
fi
if [[ -z "$seconds" ]]; then
    seconds=$((3600 / ${#targets[@]}))
fi
echo "==== ${#targets[@]} targets, $seconds s each ===="

failed=()
for target in "${targets[@]}"; do
    name="${target#fuzz_}"
    work="build-sanitize/tests/fuzz/corpus/$name"
    crashes="build-sanitize/crashes/$name"
    mkdir -p "$work" "$crashes" build-sanitize/fuzz-logs
    log="build-sanitize/fuzz-logs/$name.log"
    printf '%-20s ' "$target"
    # -rss_limit_mb and -timeout: a hang or a runaway allocation is a finding too. The JSON target's documents
    # must read in linear time: 10 s per input, as tests/fuzz/CMakeLists.txt gives it.
    per_input=30
    [[ "$name" == json ]] && per_input=10
    "build-sanitize/tests/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$per_input" \
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
