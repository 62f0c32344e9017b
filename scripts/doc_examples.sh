#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes the examples in README.md and docs/*.md again by running them. An example is a fenced block right
# after a line "<!-- example -->": each of its lines that starts with "$ " is a command (a line ending in "\"
# goes on on the next), run with bash in the repository root, "crossroof-cli" being the build's; the lines
# after it, up to the next command or the end of the block, are what it printed (standard output and error).
# Everything else in the files stays as it is.
#
#   scripts/doc_examples.sh CROSSROOF_CLI            rewrite the examples in place
#   scripts/doc_examples.sh CROSSROOF_CLI --check    only compare: exit 1 with a diff where one differs
#                                                    (the ctest docs_examples_are_real_runs)
set -uo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 CROSSROOF_CLI [--check]" >&2; exit 2; }
cli=$(realpath "$1")
check=0
[[ "${2:-}" == "--check" ]] && check=1
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
[[ -x "$cli" ]] || { echo "$0: $cli is not an executable" >&2; exit 2; }

# Runs one command as the documentation shows it; its output with the trailing blank lines dropped.
run_example()
{
    local output
    output=$(LC_ALL=C QT_QPA_PLATFORM=offscreen cli="$cli" \
        bash -c "crossroof-cli() { \"\$cli\" \"\$@\"; }; $1" 2>&1)
    [[ -z "$output" ]] || printf '%s\n' "$output"
}

# FILE with its examples made again, on standard output.
regenerate()
{
    local file="$1" line state=text command=""
    while IFS= read -r line || [[ -n "$line" ]]; do
        case "$state" in
        text)
            printf '%s\n' "$line"
            [[ "$line" == "<!-- example -->" ]] && state=fence
            if [[ "$line" == '$ crossroof-cli '* ]]; then
                echo "$file: '$line' is shown outside an example block (put '<!-- example -->' before it)" >&2
                return 1
            fi
            ;;
        fence)
            printf '%s\n' "$line"
            if [[ "$line" == '```'* ]]; then
                state=block
            else
                echo "$file: '<!-- example -->' is not followed by a fenced block" >&2
                return 1
            fi
            ;;
        block | output | continued)
            if [[ "$state" == continued ]]; then
                printf '%s\n' "$line"
                command+=$'\n'"$line"
                [[ "$line" == *'\' ]] || { run_example "$command"; state=output; }
            elif [[ "$line" == '```' ]]; then
                printf '%s\n' "$line"
                state=text
            elif [[ "$line" == '$ '* ]]; then
                printf '%s\n' "$line"
                command="${line#\$ }"
                if [[ "$line" == *'\' ]]; then
                    state=continued
                else
                    run_example "$command"
                    state=output
                fi
            elif [[ "$state" == block ]]; then
                echo "$file: an example block must start with a '\$ ' command line" >&2
                return 1
            fi
            # Other lines in an example are the output made again above.
            ;;
        esac
    done < "$file"
    [[ "$state" == text ]] || { echo "$file: an example block is not closed" >&2; return 1; }
}

status=0
for file in README.md docs/*.md; do
    grep -qx -e '<!-- example -->' -e '\$ crossroof-cli .*' "$file" || continue
    new=$(mktemp)
    if ! regenerate "$file" > "$new"; then
        rm -f "$new"
        exit 2
    fi
    if cmp -s "$file" "$new"; then
        rm -f "$new"
    elif [[ $check -eq 1 ]]; then
        echo "$file: an example no longer prints what the documentation shows (run scripts/doc_examples.sh):"
        diff -u "$file" "$new" | head -60
        rm -f "$new"
        status=1
    else
        cat "$new" > "$file"
        rm -f "$new"
        echo "made again: $file"
    fi
done
exit $status
