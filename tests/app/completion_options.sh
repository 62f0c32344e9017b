#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The bash completion's option list of every command (installer/completion/crossroof-cli.bash) is the
# set of options "crossroof-cli help COMMAND" names, and every command is completed.
# Usage: completion_options.sh CROSSROOF_CLI COMPLETION_FILE
set -u
cli="$1"
# shellcheck source=/dev/null
source "$2" || exit 1
status=0
commands=$("$cli" --help | awk '/^Commands:/ { f = 1; next } f && /^  / { print $1 }')
[[ -n "$commands" ]] || { echo "no commands in crossroof-cli --help"; exit 1; }
# Options the help texts name that are not the command's own: ncu's (kernels), another command's (profiles).
declare -A foreign=([kernels]="--csv --page --metrics" [profiles]="--profile")
for command in $commands; do
    expected=$("$cli" help "$command" | grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u)
    for option in ${foreign[$command]:-}; do
        expected=$(echo "$expected" | grep -vx -- "$option")
    done
    completed=$(_crossroof_cli_options "$command" | tr ' ' '\n' | grep . | sort -u)
    if [[ "$expected" != "$completed" ]]; then
        echo "$command: the completion differs from the help (< help, > completion):"
        diff <(echo "$expected") <(echo "$completed")
        status=1
    fi
done
# The completion function itself: commands, a command's options, an option's values.
complete_line()
{
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _crossroof_cli
    echo "${COMPREPLY[*]}"
}
expect()
{
    local got
    got="$(complete_line "${@:2}")"
    if [[ "$got" != "$1" ]]; then
        echo "completing '${*:2}': got '$got', expected '$1'"
        status=1
    fi
}
expect "zigzag" crossroof-cli zig
expect "markov markov-surface" crossroof-cli help mark
expect "--format" crossroof-cli zigzag --fo
expect "text json csv" crossroof-cli zigzag --format ""
expect "csv perf-stat" crossroof-cli bandwidth-curve --input-format ""
expect "cuda paper" crossroof-cli occupancy --mode ""
exit $status
