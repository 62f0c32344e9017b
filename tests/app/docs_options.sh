#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every option "crossroof-cli help COMMAND" names is documented for that command in the manual page
# (installer/man/crossroof-cli.1, the command's .SS section) and in docs/CLI.md (the section whose "## "
# heading names the command), and so are the choices an option lists and every parameter key --set takes.
# Usage: docs_options.sh CROSSROOF_CLI SOURCE_DIR
set -u
cli="$1"
src="$2"
man="$src/installer/man/crossroof-cli.1"
doc="$src/docs/CLI.md"
status=0
commands=$("$cli" --help | awk '/^Commands:/ { f = 1; next } f && /^  / { print $1 }')
[[ -n "$commands" ]] || { echo "no commands in crossroof-cli --help"; exit 1; }
# Options the help texts name that are not the command's own: ncu's (kernels), another command's (profiles).
declare -A foreign=([kernels]="--csv --page --metrics" [profiles]="--profile")
# The manual page's text about COMMAND: its .SS headings and what follows them, up to the next heading of
# another command, with roff's escaped hyphens as hyphens.
man_section()
{
    sed 's/\\-/-/g' "$man" | awk -v c="$1" '
        /^\.S[SH] / { f = ($0 ~ "^\\.SS \"?" c " ") || ($0 ~ "^\\.SS \"?" c "\"?$") }
        f'
}
# docs/CLI.md's text about COMMAND: every "## " section whose heading names it.
doc_section()
{
    awk -v c="$1" '
        /^## / { f = 0; n = split(substr($0, 4), w, /[ ,`]+/); for (i = 1; i <= n; ++i) if (w[i] == c) f = 1 }
        f' "$doc"
}
for command in $commands; do
    expected=$("$cli" help "$command" | grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u)
    for option in ${foreign[$command]:-}; do
        expected=$(echo "$expected" | grep -vx -- "$option")
    done
    in_man=$(man_section "$command")
    in_doc=$(doc_section "$command")
    [[ -n "$in_man" ]] || { echo "$command: no section in $man"; status=1; }
    [[ -n "$in_doc" ]] || { echo "$command: no section in $doc"; status=1; }
    for option in $expected; do
        if ! grep -q -- "$option\\b" <<< "$in_man"; then
            echo "$command: $option is not in the manual page"
            status=1
        fi
        if ! grep -q -- "$option\\b" <<< "$in_doc"; then
            echo "$command: $option is not in docs/CLI.md"
            status=1
        fi
    done
    # The choices an option offers ("--model roofline|fixed|locality|two-level", render's views): each named.
    help=$("$cli" help "$command")
    choices=$(grep -o -- '--[a-z][a-z0-9-]* [a-z0-9-]*\(|[a-z0-9-]*\)\+' <<< "$help" | cut -d' ' -f2 | tr '|' '\n')
    if [[ "$command" == render ]]; then
        views=$(tr '\n' ' ' <<< "$help" | sed -n 's/.*the view to draw: \([^;]*\);.*/\1/p' | tr -s ' ,' '\n\n' | grep -vx 'or')
        [[ $(wc -w <<< "$views") -ge 10 ]] || { echo "render: no list of views in its help"; status=1; }
        choices+=$'\n'"$views"
    fi
    for choice in $(sort -u <<< "$choices"); do
        grep -qw -- "$choice" <<< "$in_man" || { echo "$command: choice '$choice' is not in the manual page"; status=1; }
        grep -qw -- "$choice" <<< "$in_doc" || { echo "$command: choice '$choice' is not in docs/CLI.md"; status=1; }
    done
done
# The parameter keys --set takes: those of "crossroof-cli xgraph --json"'s "parameters" object, each named in
# the xgraph sections.
keys=$("$cli" xgraph --json | tr -d '\n' | sed 's/.*"parameters": *{\([^}]*\)}.*/\1/' | grep -o '"[A-Za-z][A-Za-z0-9_]*":' | tr -d '":')
[[ $(wc -w <<< "$keys") -ge 20 ]] || { echo "no parameter keys in crossroof-cli xgraph --json"; exit 1; }
in_man=$(man_section xgraph)
in_doc=$(doc_section xgraph)
for key in $keys; do
    grep -qw -- "$key" <<< "$in_man" || { echo "--set key $key is not in the manual page's xgraph"; status=1; }
    grep -qw -- "$key" <<< "$in_doc" || { echo "--set key $key is not in docs/CLI.md's xgraph"; status=1; }
done
exit $status
