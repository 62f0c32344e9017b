#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A hostile review of the command line (docs/TESTING.md, "Bad input", the third round): writes inputs of the
# eleven kinds of damage of the hostile-input issues that tests/data/bad/ does not hold (numbers at and past
# a double's edges in every numeric field of every reader, user profiles that are huge, deep or duplicated,
# FIFOs and device nodes, Latin-1 paths, --out targets that are links, folders, FIFOs or device nodes, a full
# disk, line breaks and 100,000 characters in values, valid inputs of a million rows) and runs each through
# crossroof-cli or crossroof-render, checking what a user would see:
#
#   - the exit status is 0 or 2 as the case expects, never 1 ("internal error"), a signal or the time limit;
#   - a refusal is one line on standard error, of at most 400 characters besides the paths it names;
#   - no 'inf' or 'nan' outside quotes, and --json output that is valid UTF-8 JSON;
#   - each run under 10 s (LARGE cases: 60 s) and 1 GiB of memory (LARGE: 2 GiB), measured by /usr/bin/time.
#
#   scripts/hostile_review.sh BUILD_DIR WORK_DIR [--skip-large] [--only CLASS]
#
# Prints one line per failure, then a table of cases and failures per class; exits 1 when anything failed.
# Needs python3 and GNU time; the full-disk cases need root (a 64 KiB tmpfs) and are skipped without it.
set -uo pipefail
if [[ $# -lt 2 ]]; then
    sed -n '4,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$src/scripts/hostile_review/review.py" "$src" "$@"
