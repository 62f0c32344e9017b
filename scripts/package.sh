#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the Debian packages crossroof and crossroof-cli in build-package/ (Release, Ninja, no tests), checks
# them (lintian, desktop-file-validate, appstreamcli validate --no-net), unpacks them into a scratch root with
# dpkg -x (nothing is installed on the system) and runs the unpacked programs; then makes the source tarball
# and checks that it unpacks to crossroof-VERSION/ and configures and builds. docs/PACKAGING.md.
#
#   scripts/package.sh [--no-source-build] [--keep]
#
#   --no-source-build  check the source tarball's layout but do not build it
#   --keep             keep the scratch root and the unpacked tarball (in build-package/check/)
#
# The packages are left in build-package/packages/. Exits non-zero on the first failed check.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/lib/deps.sh
source "$script_dir/lib/deps.sh"

usage()
{
    sed -n '4,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

source_build=1
keep=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-source-build) source_build=0 ;;
        --keep) keep=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "package.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

section()
{
    printf '\n==== %s ====\n' "$*"
}
fail()
{
    echo "package.sh: $*" >&2
    exit 1
}

build_dir="build-package"
out_dir="$build_dir/packages"
check_dir="$build_dir/check"
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

section "Dependencies"
crossroof_install_deps
# The packaging tools, on top of the build dependencies: lintian, desktop-file-validate, appstreamcli.
CROSSROOF_DEB_PACKAGES=(lintian desktop-file-utils appstream dpkg-dev file gzip)
crossroof_install_deps

section "Configure and build ($build_dir/, Release, no tests, 2 jobs)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROSSROOF_BUILD_TESTS=OFF "${launcher[@]}"
cmake --build "$build_dir" --parallel 2
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")"
[[ -n "$version" ]] || fail "no CMAKE_PROJECT_VERSION in $build_dir/CMakeCache.txt"

section "cpack -G DEB ($out_dir/)"
rm -rf -- "$out_dir"
cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$out_dir"
arch="$(dpkg --print-architecture)"
gui_deb="$out_dir/crossroof_${version}_${arch}.deb"
cli_deb="$out_dir/crossroof-cli_${version}_${arch}.deb"
for deb in "$gui_deb" "$cli_deb"; do
    [[ -f "$deb" ]] || fail "cpack made no $deb"
    echo "--- $deb"
    dpkg-deb -I "$deb" | sed -n '/^ Package:/,$p'
done
if dpkg-deb -f "$cli_deb" Depends | grep -qi 'qt\|qcustomplot'; then
    fail "$cli_deb depends on Qt: $(dpkg-deb -f "$cli_deb" Depends)"
fi

section "lintian"
# Default level (errors and warnings); any E: or W: tag fails. docs/PACKAGING.md lists what is left.
lintian_out="$(lintian --no-tag-display-limit "$gui_deb" "$cli_deb" 2>&1 || true)"
printf '%s\n' "$lintian_out"
if grep -q '^[EW]: ' <<<"$lintian_out"; then
    fail "lintian reported errors or warnings"
fi
echo "lintian: no errors or warnings"

section "Unpack into a scratch root (dpkg -x)"
rm -rf -- "$check_dir"
root="$check_dir/root"
mkdir -p "$root"
dpkg -x "$cli_deb" "$root"
dpkg -x "$gui_deb" "$root"
find "$root" -type f | sed "s|^$root||" | sort

section "desktop-file-validate, appstreamcli validate --no-net"
desktop-file-validate "$root/usr/share/applications/crossroof.desktop"
echo "desktop-file-validate: ok"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.crossroof.Crossroof.metainfo.xml"
grep -q 'application/x-crossroof-session' "$root/usr/share/mime/packages/crossroof.xml" \
    || fail "the MIME type is missing from crossroof.xml"
for page in crossroof crossroof-cli; do
    gzip -t "$root/usr/share/man/man1/$page.1.gz"
    # man's own checks: groff warnings fail.
    warnings="$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
        "$root/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null || true)"
    [[ -z "$warnings" ]] || fail "man $page: $warnings"
done
echo "man pages: ok"

section "Run the unpacked programs"
cli="$root/usr/bin/crossroof-cli"
"$cli" --version | tee "$check_dir/version.txt"
grep -qx "crossroof-cli $version" "$check_dir/version.txt" || fail "crossroof-cli --version is not $version"
"$cli" profiles --json > "$check_dir/profiles.json"
grep -q '"id": "v100"' "$check_dir/profiles.json" || fail "crossroof-cli profiles --json lists no v100"
echo "crossroof-cli profiles --json: $(grep -c '"id":' "$check_dir/profiles.json") profiles"
"$cli" zigzag --sms 15 --ba 1 --br 1:3 --format csv
# The GUI's --version needs no display; render runs the helper from ../libexec/crossroof/.
gui_version="$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$root/usr/bin/crossroof" --version)"
echo "$gui_version"
[[ "$gui_version" == "Crossroof $version" ]] || fail "crossroof --version printed '$gui_version'"
QT_QPA_PLATFORM=offscreen "$cli" render --session docs/samples/v100-measured.crossroof --view xgraph \
    --out "$check_dir/render.svg"
[[ -s "$check_dir/render.svg" ]] || fail "crossroof-cli render wrote no figure"

section "Source tarball (cpack --config CPackSourceConfig.cmake)"
source_out="$(cd "$build_dir" && cpack --config CPackSourceConfig.cmake 2>&1)"
printf '%s\n' "$source_out"
if grep -qi 'warning' <<<"$source_out"; then
    fail "cpack warned while making the source tarball"
fi
tarball="$build_dir/crossroof-$version.tar.gz"
[[ -f "$tarball" ]] || fail "no $tarball"
top="$(tar -tzf "$tarball" | cut -d/ -f1 | sort -u)"
[[ "$top" == "crossroof-$version" ]] || fail "$tarball unpacks to '$top', not crossroof-$version/"
for path in CMakeLists.txt LICENSE README.md core/CMakeLists.txt installer/copyright scripts/package.sh; do
    tar -tzf "$tarball" "crossroof-$version/$path" >/dev/null || fail "$tarball lacks $path"
done
if tar -tzf "$tarball" | grep -q -e '/build/' -e '/build-package/' -e '/\.git/'; then
    fail "$tarball holds build trees or .git"
fi
echo "$tarball: crossroof-$version/ with the repository's layout"
if [[ $source_build -eq 1 ]]; then
    tar -xzf "$tarball" -C "$check_dir"
    src="$check_dir/crossroof-$version"
    cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCROSSROOF_BUILD_TESTS=OFF "${launcher[@]}"
    cmake --build "$src/build" --parallel 2
    "$src/build/app/crossroof-cli" --version
fi

if [[ $keep -eq 0 ]]; then
    rm -rf -- "$check_dir"
fi
section "Done"
ls -l "$out_dir"/*.deb "$tarball"
