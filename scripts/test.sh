#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the Debian build dependencies if missing, configures and builds Crossroof with its tests
# in build/ (Release, Ninja) and runs them with ctest. Exits with ctest's status.
#
#   scripts/test.sh [--clean] [--no-fuzz] [--sanitize] [--package] [-- extra ctest arguments...]
#
#   --clean    remove build/ (and build-sanitize/) before configuring
#   --no-fuzz  skip the fuzz targets (libFuzzer, built with clang in build-sanitize/, each run for 10 s)
#   --sanitize also build everything with clang, AddressSanitizer and UndefinedBehaviorSanitizer in
#              build-sanitize/ and run the whole suite there (any report fails the test)
#   --package  also run the test labelled "package" (scripts/package.sh: both .deb packages, lintian,
#              the source tarball; minutes, in build-package/); left out by default
#   --         everything after it is passed to ctest (e.g. -- -R profile)
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/lib/deps.sh
source "$script_dir/lib/deps.sh"

usage()
{
    sed -n '4,15s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

clean=0
fuzz=1
sanitize=0
package=0
ctest_extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --clean) clean=1 ;;
        --no-fuzz) fuzz=0 ;;
        --sanitize) sanitize=1 ;;
        --package) package=1 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; ctest_extra=("$@"); break ;;
        *) echo "test.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

section()
{
    printf '\n==== %s ====\n' "$*"
}

build_dir="build"

if [[ $clean -eq 1 ]]; then
    section "Clean"
    echo "removing $build_dir/"
    rm -rf -- "$build_dir" build-sanitize
fi

section "Dependencies"
crossroof_install_deps

section "Configure ($build_dir/, clang, Release, Ninja, tests on)"
crossroof_configure_release "$build_dir" -DCROSSROOF_BUILD_TESTS=ON

section "Build (2 jobs)"
cmake --build "$build_dir" --parallel 2

# The second tree: clang with ASan and UBSan at -O1 (-g1 keeps the line tables reports need, and compiles
# much faster than -g). Its core libraries also carry libFuzzer's coverage hooks, so the fuzz targets are
# built from the same objects as the tests. Without --sanitize only the fuzz targets are built there.
if [[ $fuzz -eq 1 || $sanitize -eq 1 ]]; then
    fuzz_flag=OFF
    [[ $fuzz -eq 1 ]] && fuzz_flag=ON
    section "Configure build-sanitize/ (clang, AddressSanitizer + UndefinedBehaviorSanitizer, fuzz $fuzz_flag)"
    crossroof_fresh_tree build-sanitize clang++
    # The benchmark is left out: it measures speed, which this tree does not have, and its drawing paths are
    # the GUI tests' too; so is the screenshot tool. LLVM's linker links the instrumented programs in about
    # half the time of GNU ld.
    CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DCROSSROOF_SANITIZE=ON "-DCROSSROOF_FUZZ=$fuzz_flag" \
        -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
        -DCROSSROOF_BUILD_TESTS=ON -DCROSSROOF_BUILD_BENCH=OFF -DCROSSROOF_BUILD_SCREENSHOTS=OFF
    if [[ $sanitize -eq 1 ]]; then
        section "Build build-sanitize/ (2 jobs)"
        cmake --build build-sanitize --parallel 2
    else
        section "Build the fuzz targets in build-sanitize/ (2 jobs)"
        cmake --build build-sanitize --parallel 2 --target fuzz_all
    fi
fi

section "Test (ctest, QT_QPA_PLATFORM=offscreen)"
export QT_QPA_PLATFORM=offscreen
status=0
if [[ $fuzz -eq 1 ]]; then
    ctest --test-dir build-sanitize --output-on-failure -L fuzz -j2 --no-tests=error || status=$?
fi
package_filter=(-LE package)
if [[ $package -eq 1 ]]; then
    package_filter=()
fi
ctest --test-dir "$build_dir" --output-on-failure --timeout 300 -j2 --no-tests=error \
    "${package_filter[@]}" "${ctest_extra[@]}" || status=$?
if [[ $sanitize -eq 1 ]]; then
    # Leaks are not checked: Qt's and fontconfig's process-lifetime allocations would drown real reports.
    ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir build-sanitize --output-on-failure --timeout 600 -j2 --no-tests=error \
        -LE 'fuzz|package' -E '^installer_' "${ctest_extra[@]}" || status=$?
fi

# Nothing is printed after ctest's summary on success, so that its closing lines end the output.
if [[ $status -ne 0 ]]; then
    echo "test.sh: ctest failed with status $status" >&2
fi
exit "$status"
