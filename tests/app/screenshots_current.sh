#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every picture README.md and docs/*.md show is made by scripts/screenshots.sh and no older than the code and
# inputs it shows: it is in docs/screenshots/MANIFEST (which that script writes), and the content hash of its
# sources there is still theirs. So is every picture in docs/screenshots/. Needs a git checkout (the hash
# covers the files git knows of); exits 77 (skipped) without one.
# Usage: screenshots_current.sh SOURCE_DIR
set -u
cd "$1" || exit 1
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
source scripts/lib/screenshot_manifest.sh
manifest=docs/screenshots/MANIFEST
[[ -s "$manifest" ]] || { echo "$manifest is missing: run scripts/screenshots.sh"; exit 1; }
status=0
declare -A listed hashes
while IFS=$'\t' read -r hash picture sources; do
    listed[$picture]=1
    [[ -f "$picture" ]] || { echo "$picture: in $manifest but not there"; status=1; continue; }
    [[ -n "${hashes[$sources]:-}" ]] || hashes[$sources]=$(screenshot_hash $sources)
    if [[ "${hashes[$sources]}" != "$hash" ]]; then
        echo "$picture is older than what it shows ($sources changed since it was made): run scripts/screenshots.sh"
        status=1
    fi
done < "$manifest"
# The pictures the documentation shows: ![...](path) and <img src="path">, relative to the file that shows them.
for doc in README.md docs/*.md; do
    dir=$(dirname "$doc")
    while IFS= read -r path; do
        picture=$(realpath -m --relative-to=. "$dir/$path")
        if [[ ! -f "$picture" ]]; then
            echo "$doc shows $path, which is not there"
            status=1
        elif [[ -z "${listed[$picture]:-}" ]]; then
            echo "$doc shows $path, which scripts/screenshots.sh does not make"
            status=1
        fi
    done < <(grep -o -e '!\[[^]]*\]([^)]*)' -e '<img [^>]*src="[^"]*"' "$doc" \
                 | sed -e 's/^!\[[^]]*\](\([^)]*\))$/\1/' -e 's/^<img .*src="\([^"]*\)"$/\1/')
done
# Nothing in docs/screenshots/ that the script does not make (an old picture nobody updates).
while IFS= read -r picture; do
    [[ -n "${listed[$picture]:-}" ]] || { echo "$picture is not made by scripts/screenshots.sh"; status=1; }
done < <(git ls-files --cached --others --exclude-standard -- 'docs/screenshots/*.png' 'docs/samples/*.png' \
             'docs/samples/*.pdf' 'docs/samples/*.svg')
exit $status
