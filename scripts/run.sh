#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the Debian build dependencies if missing, builds Crossroof (Release, Ninja) in build/
# and starts the GUI. Any arguments are passed to build/app/crossroof.
#
#   scripts/run.sh [crossroof arguments...]
#   xvfb-run -a scripts/run.sh        # without a display
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/lib/deps.sh
source "$script_dir/lib/deps.sh"

section()
{
    printf '\n==== %s ====\n' "$*"
}

section "Dependencies"
crossroof_install_deps

section "Configure (build/, clang, Release, Ninja)"
crossroof_configure_release build

section "Build"
cmake --build build --parallel

app="build/app/crossroof"
if [[ ! -x "$app" ]]; then
    echo "error: $app was not built" >&2
    exit 1
fi

section "Run $app"
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    cat >&2 <<'HINT'
note: neither DISPLAY nor WAYLAND_DISPLAY is set. Crossroof is a GUI program and needs a display.
      Without one, run it under a virtual X server:
          xvfb-run -a scripts/run.sh
      (or set QT_QPA_PLATFORM=offscreen). Trying anyway...
HINT
fi
exec "$app" "$@"
