# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash
#
# Shared Debian package handling for scripts/run.sh and scripts/test.sh.
# Source this file; it only defines variables and functions and changes no shell options.
#
#   crossroof_missing_packages   print the packages of CROSSROOF_DEB_PACKAGES that are not installed
#   crossroof_install_deps       install the missing ones (apt-get update + install, only when needed)
#   crossroof_fresh_tree DIR [CXX]  remove DIR when it was configured with another generator or compiler
#   crossroof_configure_release DIR [cmake args...]  configure the Release tree that run.sh and test.sh share
#
# Set CROSSROOF_SKIP_DEPS=1 to skip the check and the installation altogether.

# The one list of Debian 12 (bookworm) packages needed to build, test, run and package Crossroof.
#   qt6-svg-dev:       QSvgGenerator for SVG figure export.
#   libgl-dev:         Qt6Gui's CMake package needs the GL headers (WrapOpenGL).
#   qt6-qpa-plugins:   the platform plugins (xcb, offscreen) that any Qt GUI needs at run time.
#   xvfb, xauth:       xvfb-run, for GUI runs and screenshots without a display.
#   clang, libclang-rt-14-dev: libFuzzer and AddressSanitizer for the importers' fuzz targets.
#   lld:               links the sanitizer tree (about half the time of GNU ld for its ~150 programs).
#   dpkg-dev, file:    CPack's DEB generator (dpkg-shlibdeps, file).
CROSSROOF_DEB_PACKAGES=(
    cmake
    ninja-build
    g++
    qt6-base-dev
    qt6-svg-dev
    qt6-qpa-plugins
    libqcustomplot-dev
    libeigen3-dev
    nlohmann-json3-dev
    libgl-dev
    xvfb
    xauth
    dpkg-dev
    clang
    libclang-rt-14-dev
    lld
    file
)

# Prints each package of CROSSROOF_DEB_PACKAGES that is not fully installed, one per line.
crossroof_missing_packages()
{
    local pkg status
    for pkg in "${CROSSROOF_DEB_PACKAGES[@]}"; do
        status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
        if [[ "$status" != "install ok installed" ]]; then
            printf '%s\n' "$pkg"
        fi
    done
}

# Installs the missing packages. Runs apt-get only when something is missing; uses sudo only
# when not root and sudo exists. Returns non-zero if the packages cannot be installed.
crossroof_install_deps()
{
    if [[ "${CROSSROOF_SKIP_DEPS:-0}" == "1" ]]; then
        echo "deps: CROSSROOF_SKIP_DEPS=1, not checking Debian packages"
        return 0
    fi
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "deps: dpkg-query not found; this is not a Debian system. Install the equivalents of:" >&2
        echo "      ${CROSSROOF_DEB_PACKAGES[*]}" >&2
        return 0
    fi

    local -a missing
    mapfile -t missing < <(crossroof_missing_packages)
    if [[ ${#missing[@]} -eq 0 ]]; then
        echo "deps: all ${#CROSSROOF_DEB_PACKAGES[@]} Debian packages are installed"
        return 0
    fi

    echo "deps: missing Debian packages: ${missing[*]}"
    local -a sudo_cmd=()
    if [[ "$(id -u)" -ne 0 ]]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo_cmd=(sudo)
        else
            echo "deps: not root and sudo is not available; install them by hand:" >&2
            echo "      apt-get install --no-install-recommends ${missing[*]}" >&2
            return 1
        fi
    fi

    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"

    mapfile -t missing < <(crossroof_missing_packages)
    if [[ ${#missing[@]} -ne 0 ]]; then
        echo "deps: still missing after apt-get install: ${missing[*]}" >&2
        return 1
    fi
    echo "deps: installed"
}

# A tree configured with another generator, or (when a compiler is named) another compiler, cannot be
# reused; it is removed and built afresh.
crossroof_fresh_tree()
{
    local dir="$1" compiler="${2:-}" cache="$1/CMakeCache.txt"
    [[ -f "$cache" ]] || return 0
    if ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache" \
        || { [[ -n "$compiler" ]] && ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=\(.*/\)\?$compiler\$" "$cache"; }; then
        echo "$dir/ was configured with another generator or compiler; removing it"
        rm -rf -- "$dir"
    fi
}

# The Release tree of run.sh and test.sh (build/): clang with LLVM's linker, as the sanitizer tree. Clang's
# precompiled headers load quickly where GCC's (over 200 MB) cost seconds per file, and lld links the hundred
# test programs in half the time of GNU ld: a fresh build takes about a third of GCC's CPU time
# (docs/TESTING.md). The packages are still built with the system compiler (scripts/package.sh).
crossroof_configure_release()
{
    local dir="$1"
    shift
    crossroof_fresh_tree "$dir" clang++
    CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld "$@"
}
