# SPDX-License-Identifier: GPL-3.0-or-later
# docs/screenshots/MANIFEST: one line per picture README.md and docs/ show, written by scripts/screenshots.sh
# and checked by the ctest screenshots_are_current:
#     HASH<TAB>PICTURE<TAB>SOURCES
# SOURCES are the folders and files (relative to the repository root, separated by spaces) the picture shows:
# the code that draws it and the inputs it was made from; HASH is screenshot_hash of them when it was made.

# The content hash of the files git knows of (tracked, or new and not ignored) under the PATHS, 16 hex digits.
# File contents and names only, so that a fresh clone, whose files' times all equal, gives the same hash.
screenshot_hash()
{
    git ls-files -z --cached --others --exclude-standard -- "$@" | LC_ALL=C sort -zu \
        | xargs -0 -r sha256sum | sha256sum | cut -c1-16
}

# Appends PICTURE, made from SOURCES..., to the manifest file MANIFEST.
screenshot_record()
{
    local manifest="$1" picture="$2"
    shift 2
    printf '%s\t%s\t%s\n' "$(screenshot_hash "$@")" "$picture" "$*" >> "$manifest"
}
