#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# crossroof-cli's output on a full device: exit status 2 and a message, never 0. The full device is a node made
# here in a temporary folder (character device 1,7, as /dev/full), never the system's own; where no node can be
# made (not root), the test is skipped (77).
#   write_to_full_device.sh CROSSROOF_CLI
cli="$1"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
if ! mknod "$dir/full" c 1 7 2>/dev/null; then
    echo "no device node can be made here (mknod needs root): skipped"
    exit 77
fi
"$cli" xgraph --json > "$dir/full" 2> "$dir/err"
status=$?
cat "$dir/err"
[ "$status" -eq 2 ] && grep -q . "$dir/err"
