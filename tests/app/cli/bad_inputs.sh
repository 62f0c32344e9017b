#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs crossroof-cli on every file of the bad-input corpus (tests/data/bad/, see docs/TESTING.md) with the
# command that reads its format, each run under a time limit, and checks what a user would see:
#
#   tests/data/bad/<format>/*           exit status 2; standard error is exactly one line, names the file
#                                       (and a line or a field where the format has them), echoes at most
#                                       about 80 characters of the bad value; no 'nan' or 'inf' in the output
#                                       outside quotes (a message may quote the file's own token)
#   tests/data/bad/accepted/<format>/*  exit status 0 and no 'nan' or 'inf' in the output
#
# The big files (over 64 KiB: a million rows, a line of megabytes, files over a reader's size limit, nesting
# 100,000 deep) are written here, under WORK_DIR, rather than committed.
#
#   bad_inputs.sh CROSSROOF_CLI SOURCE_DIR WORK_DIR [--format FORMAT] [--every N] [--timeout SECONDS]
#
#   --format F    only the files of format F (a folder name: profile, session, table, ...); ctest runs one
#                 test per format, so that they run in parallel
#   --every N     run only every Nth file of each folder (the generated ones always run); for slow builds
#   --timeout S   the time limit of one run (default 10 s)
#
# Prints one line per failure and a summary; exits 1 when anything failed.
set -uo pipefail

if [[ $# -lt 3 ]]; then
    sed -n '4,24s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
cli="$1"
src="$2"
work="$3"
shift 3
every=1
limit=10
only=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --every) every="$2"; shift ;;
        --format) only="$2"; shift ;;
        --timeout) limit="$2"; shift ;;
        *) echo "bad_inputs.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

corpus="$src/tests/data/bad"
rm -rf -- "$work"
mkdir -p -- "$work/out" "$work/generated"
gen="$work/generated"

# ---------------------------------------------------------------- the big files, written at test time
# Whether the files of format $1 are wanted in this run.
want()
{
    [[ -z "$only" || "$only" == "$1" ]]
}

generate()
{
    local d
    for d in profile session table gpu_benches ncu perf_stat skeleton training family; do
        want "$d" && mkdir -p "$gen/$d" "$gen/accepted/$d"
    done
    local open100k close100k
    open100k="$(printf '%100000s' '' | tr ' ' '[')"
    close100k="$(printf '%100000s' '' | tr ' ' ']')"
    # Over each reader's size limit (sparse files: no disk is used), refused from the size before reading;
    # nesting 100,000 deep; a value of megabytes; a million rows.
    if want profile; then
        truncate -s $((2 << 20)) "$gen/profile/over-1mib-limit.json"
        printf '%s%s\n' "$open100k" "$close100k" > "$gen/profile/deep-array-100000.json"
        { printf '{"format_version": 1, "id": "'; head -c $((900 << 10)) /dev/zero | tr '\0' 'i'; printf '"}\n'; } \
            > "$gen/profile/id-900kib-long.json"
    fi
    if want session; then
        truncate -s $((65 << 20)) "$gen/session/over-64mib-limit.crossroof"
        printf '%s\n' "$open100k" > "$gen/session/deep-unclosed-100000.crossroof"
        { printf '{"format": "crossroof-session", "format_version": 1, "parameters": '
          printf '%s\n' "$open100k"; } > "$gen/session/deep-in-parameters-100000.crossroof"
        # FIFOs that no program writes to (git cannot hold one): the session itself, and a table a session
        # links to. Each is given up after the readers' wait (5 s) with a message, never waited for.
        mkdir -p "$work/links"
        mkfifo "$gen/session/fifo-no-writer.crossroof" "$work/links/fifo.csv"
        { sed -e '0,/"format_version": 1/s//"format_version": 2/' -e '$d' "$corpus/accepted/session/good.crossroof"
          printf '  ,"traces": [{"id": "t1", "name": "fifo", "kind": "bandwidth-vs-warps", "link": "%s",' "$work/links/fifo.csv"
          printf ' "origin": {"format": "table", "index": 0, "mapping": {"kind": "bandwidth-vs-warps", "x": "warps",'
          printf ' "y": "gbs"}}}]\n}\n'; } > "$gen/session/link-to-fifo.crossroof"
    fi
    if want table; then
        truncate -s $((65 << 20)) "$gen/table/over-64mib-limit.csv"
        head -c $((4 << 20)) /dev/zero | tr '\0' 'x' > "$gen/table/one-line-4mib.csv"
        { printf 'warps_per_sm,read_gbs\n1,'; head -c $((4 << 20)) /dev/zero | tr '\0' '9'; printf '\n'; } \
            > "$gen/table/number-4mib-long.csv"
        { printf 'warps_per_sm,read_gbs\n'; seq 1 1000000 | sed 's/$/,fast/'; } > "$gen/table/million-rows-text.csv"
        { printf 'warps_per_sm,read_gbs\n'; seq 1 1000000 | sed 's/$/,100/'; } \
            > "$gen/accepted/table/million-rows.csv"
        mkfifo "$gen/table/fifo-no-writer.csv"
    fi
    if want gpu_benches; then
        truncate -s $((65 << 20)) "$gen/gpu_benches/over-limit.txt"
        { head -n 1 "$src/tests/data/gpu_stream_v100.txt"
          seq 1 200000 | awk '{ printf "%9d %11d %6.1f %%  |  GB/s: %11d %10d %11d %9d %10d %10d\n", 32, 2560, 3, 153, 72, 128, 180, 122, 117 }'
          printf '       32        2560      3 %%  |  GB/s:         153         72        128        180        122\n'
        } > "$gen/gpu_benches/200k-rows-short-last.txt"
    fi
    if want ncu; then
        truncate -s $((65 << 20)) "$gen/ncu/over-64mib-limit.csv"
        # 20,000 kernels, the last one with a value that is not a number: listed as skipped, with the reason.
        { head -n 2 "$corpus/accepted/ncu/rawsmall-good.csv"
          seq 1 20000 | awk '{ printf "\"%d\",\"copy(float *)\",\"1.25\",\"12.5\",\"2,000\"\n", $1 }'
          printf '"20001","copy(float *)","1.25","many","2,000"\n'; } > "$gen/accepted/ncu/20k-kernels-bad-last.csv"
    fi
    if want perf_stat; then
        truncate -s $((65 << 20)) "$gen/perf_stat/over-limit.tsv"
        { seq 1 100000 | sed 's/.*/     &.000000000\tCPU0\t1338376\t\timc\/event=0x04,umask=0x0f\/\t1\t100.00\t\t/'
          printf '     100001.000000000\tCPU0\tlots\t\timc/event=0x04,umask=0x0f/\t1\t100.00\t\t\n'; } \
            > "$gen/perf_stat/100k-intervals-bad-last.tsv"
    fi
    if want skeleton; then
        truncate -s $((2 << 20)) "$gen/skeleton/over-1mib-limit.skel"
        { head -c $((1 << 20)) /dev/zero | tr '\0' 'a'; printf '\n'; } > "$gen/skeleton/name-1mib-long.skel"
        { printf 'def m () {\n'; printf 'for i = 0:2 {\n%.0s' $(seq 1 5000); } > "$gen/skeleton/deep-unclosed-5000.skel"
        { printf 'def m () { for i = 0:4 {\n'; printf 'fp a: a, a\n%.0s' $(seq 1 20000); printf '} }\n'; } \
            > "$gen/skeleton/statements-20000.skel"
    fi
    if want training; then
        truncate -s $((65 << 20)) "$gen/training/over-64mib-limit.csv"
        { head -n 2 "$corpus/accepted/training/good.csv"
          awk 'NR > 2 { rows[n++] = $0 } END { for (i = 0; i < 2000; ++i) for (j = 0; j < n; ++j) print rows[j] }' \
              "$corpus/accepted/training/good.csv"
          printf '32,1,1,2,x,3,0.5,0.5,9\n'; } > "$gen/training/many-rows-ragged-last.csv"
    fi
    if want family; then
        truncate -s $((65 << 20)) "$gen/family/over-64mib-limit.csv"
        { printf 'n,Z,E,gbs\n'; seq 1 300000 | sed 's/$/,8,1,100/'; printf '1,8,1,nan\n'; } > "$gen/family/300k-rows-nan-last.csv"
    fi
}
generate

# ---------------------------------------------------------------- the command of each format
# Sets cmd to the arguments that make crossroof-cli read FILE as FORMAT. (Everything per file below uses
# shell builtins only: a fork costs more than most runs of crossroof-cli.)
command_for()
{
    local format="$1" file="$2"
    case "$format" in
        profile) cmd=(xgraph --profile "$file") ;;
        session) cmd=(render --session "$file" --view xgraph --out "$work/out/figure.png") ;;
        table) cmd=(fit-trace --trace "$file" --format csv --x warps_per_sm --y read_gbs) ;;
        gpu_benches)
            if [[ "$file" == *.csv ]]; then
                cmd=(fit-trace --trace "$file" --format gpu-stream-csv)
            else
                cmd=(fit-trace --trace "$file" --format gpu-stream)
            fi ;;
        ncu) cmd=(kernels --trace "$file" --profile h100-sxm) ;;
        perf_stat) cmd=(bandwidth-curve --trace "$file" --format perf-stat --column imc-bytes --limit 1e8) ;;
        skeleton) cmd=(skeleton --file "$file") ;;
        training) cmd=(extrapolate --train "$file" --target-size 160) ;;
        family) cmd=(calibrate --family "$file" --profile h100-sxm) ;;
        *) return 1 ;;
    esac
}

# Formats whose messages must say where: a line (text formats) or a field (JSON). Whole-file problems (an
# empty file, one over the size limit, one that is not the format at all) have no place to name.
wants_place()
{
    case "${1##*/}" in
        empty.* | whitespace-only.* | newlines-only.* | over-*limit.* | comment*-only.* | only-prof-lines.* \
            | prof-error.* | top-*.* | format-version-99.* | truncated-3-bytes.* \
            | no-imc-events.* | event-*-missing-imc.* | aggregate-no-interval.* | fifo-no-writer.*) return 1 ;;
        # Problems of the data as a whole, found by the fit rather than the reader.
        all-x-same.* | all-y-zero.* | one-row.*) return 1 ;;
    esac
    return 0
}

failures=0
checked=0
fail()
{
    failures=$((failures + 1))
    printf 'FAIL %s: %s\n' "$1" "$2"
    [[ -n "${3:-}" ]] && printf '     %s\n' "${3:0:300}"
}

shopt -s extglob
# Whether TEXT has 'nan' or 'inf' as a word outside single or double quotes and outside the path FILE (a
# message may quote the file's own token, and the corpus names files after what is wrong in them).
non_finite()
{
    local text="${1//"$2"/}"
    text="${text//\'*([^\'])\'/}"
    text="${text//\"*([^\"])\"/}"
    text="${text,,}"
    [[ "$text" =~ (^|[^a-z0-9_.])-?(nan|inf|infinity)([^a-z0-9_]|$) ]]
}

check()
{
    local format="$1" file="$2" accepted="$3"
    local -a cmd
    command_for "$format" "$file"
    local out="$work/out/stdout" err="$work/out/stderr" status
    timeout --kill-after=5 "$limit" "$cli" "${cmd[@]}" > "$out" 2> "$err" < /dev/null
    status=$?
    checked=$((checked + 1))
    local name="${file#"$corpus"/}"
    name="${name#"$gen"/}"
    local stderr_text="" stdout_head=""
    IFS= read -r -d '' stderr_text < "$err"
    IFS= read -r -d '' -N 4000 stdout_head < "$out"
    if [[ $status -eq 124 || $status -eq 137 ]]; then
        fail "$name" "no answer within $limit s"
        return
    fi
    if [[ "$accepted" == 1 ]]; then
        if [[ $status -ne 0 ]]; then
            fail "$name" "exit status $status, expected 0 (a file that is fine)" "$stderr_text"
        elif non_finite "$stdout_head$stderr_text" "$file"; then
            fail "$name" "nan or inf in the output" "$stdout_head"
        fi
        return
    fi
    if [[ $status -ne 2 ]]; then
        fail "$name" "exit status $status, expected 2" "$stderr_text"
        return
    fi
    local newlines="${stderr_text//[!$'\n']/}"
    if [[ ${#newlines} -ne 1 || "$stderr_text" != *$'\n' ]]; then
        fail "$name" "standard error has ${#newlines} lines, expected one" "${stderr_text//$'\n'/|}"
        return
    fi
    if [[ "$stderr_text" != *"$file"* ]]; then
        fail "$name" "the message does not name the file" "$stderr_text"
        return
    fi
    local rest="${stderr_text/"$file"/}"
    if [[ ${#rest} -gt 300 ]]; then
        fail "$name" "message of ${#rest} characters besides the path (a bad value echoed whole?)" "$rest"
    fi
    # A place: "FILE:LINE:" or "FILE:LINE:COLUMN:" (text formats), "line N" or "field 'F'" (JSON).
    local after="${stderr_text#*"$file"}"
    if wants_place "$file" && ! [[ "$after" =~ ^:\ ?(line\ )?[0-9]+|line\ [0-9]+|field\ \'|[0-9]+\ bytes ]]; then
        fail "$name" "the message names no line or field" "$stderr_text"
    fi
    if non_finite "$stderr_text$stdout_head" "$file"; then
        fail "$name" "nan or inf in the output" "$stderr_text"
    fi
    if [[ -n "$stdout_head" ]]; then
        fail "$name" "refused, but wrote to standard output" "$stdout_head"
    fi
}

start=$SECONDS
for root in "$corpus" "$gen"; do
    for accepted in 0 1; do
        base="$root"
        [[ $accepted -eq 1 ]] && base="$root/accepted"
        for dir in "$base"/*/; do
            format="$(basename "$dir")"
            [[ "$format" == accepted ]] && continue
            want "$format" || continue
            i=0
            for file in "$dir"*; do
                [[ -f "$file" || -p "$file" ]] || continue
                i=$((i + 1))
                if [[ "$root" == "$corpus" && $(((i - 1) % every)) -ne 0 ]]; then
                    continue
                fi
                check "$format" "$file" "$accepted"
            done
        done
    done
done

printf 'bad_inputs: %d files, %d failures, %d s\n' "$checked" "$failures" "$((SECONDS - start))"
[[ $failures -eq 0 ]]
