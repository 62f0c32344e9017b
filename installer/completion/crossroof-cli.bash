# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for crossroof-cli; installed as /usr/share/bash-completion/completions/crossroof-cli.
# The option lists follow "crossroof-cli help COMMAND"; scripts/package.sh checks that they do.

_crossroof_cli_options()
{
    case "$1" in
        xgraph)          echo "--profile --set --curves --supply --supply-x --supply-y --supply-where --supply-series --demand --demand-x --demand-y --demand-where --demand-series --json" ;;
        profiles)        echo "--json" ;;
        occupancy)       echo "--cc --threads --regs --smem --smem-config --mode --sweep --json" ;;
        zigzag)          echo "--sms --ba --br --format --json" ;;
        tmm)             echo "--work --span --transactions --apsp --latency --threads --cores --sms --ba --br --fit --br-column --threads-column --time-column --format --json" ;;
        markov)          echo "--groups --threads-per-group --profile --strategy --p --q --steps --solver --json" ;;
        markov-surface)  echo "--groups --threads-per-group --profile --strategy --grid --steps --format --json" ;;
        mappings)        echo "--profile --p --q --point --steps --format --json" ;;
        counters)        echo "--file --perf --perf-single --use --instructions --suspend --stall --measured-cpi --groups --threads-per-group --p-difference --q-weighting --format --json" ;;
        fit-trace)       echo "--trace --x --y --where --format --series --model --profile --set --hold --group --json" ;;
        bandwidth-curve) echo "--trace --column --window --limit --input-format --format --json" ;;
        stability-map)   echo "--profile --set --x --y --threads --supply --supply-x --supply-y --supply-where --supply-series --demand --demand-x --demand-y --demand-where --demand-series --format --json" ;;
        hysteresis)      echo "--profile --set --n --param --range --supply --supply-x --supply-y --supply-where --supply-series --demand --demand-x --demand-y --demand-where --demand-series --format --json" ;;
        advise)          echo "--profile --set --cache-size --supply --supply-x --supply-y --supply-where --supply-series --demand --demand-x --demand-y --demand-where --demand-series --json" ;;
        kernels)         echo "--trace --profile --set --format --json" ;;
        roofline)        echo "--trace --profile --set --format --json" ;;
        calibrate)       echo "--family --profile --probe --stream --latency --parallel --kernels --cache --l2-stream --set --fit --weight --out --json" ;;
        skeleton)        echo "--file --sample --profile --unroll --measured --json" ;;
        extrapolate)     echo "--train --target-size --iteration --min-leaf --smoothing --folds --column --measured --json" ;;
        render)          echo "--session --view --out --preset --width-mm --height-mm --dpi --font --font-pt --min-font-pt --line-pt --greyscale" ;;
    esac
}

_crossroof_cli()
{
    local cur prev command i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="xgraph profiles occupancy zigzag tmm markov markov-surface mappings counters fit-trace
                    bandwidth-curve stability-map hysteresis advise kernels roofline calibrate skeleton extrapolate render help"

    command=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ "${COMP_WORDS[i]}" != -* ]]; then
            command="${COMP_WORDS[i]}"
            break
        fi
    done

    if [[ -z "$command" ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    if [[ "$command" == help ]]; then
        COMPREPLY=($(compgen -W "${commands% help}" -- "$cur"))
        return
    fi

    case "$prev" in
        --profile)
            COMPREPLY=($(compgen -W "$(crossroof-cli profiles 2>/dev/null | awk 'NF { print $1 }')" -- "$cur"))
            COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur"))
            return ;;
        --format)
            case "$command" in
                fit-trace) COMPREPLY=($(compgen -W "csv gpu-stream gpu-stream-csv ncu-csv" -- "$cur")) ;;
                *)         COMPREPLY=($(compgen -W "text json csv" -- "$cur")) ;;
            esac
            return ;;
        --input-format) COMPREPLY=($(compgen -W "csv perf-stat" -- "$cur")); return ;;
        --mode)         COMPREPLY=($(compgen -W "cuda paper" -- "$cur")); return ;;
        --smoothing)    COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
        --solver)       COMPREPLY=($(compgen -W "exact literal" -- "$cur")); return ;;
        --p-difference) COMPREPLY=($(compgen -W "multi-single single-multi" -- "$cur")); return ;;
        --q-weighting)  COMPREPLY=($(compgen -W "cycles occurrences" -- "$cur")); return ;;
        --fit) # tmm's is a file of runtimes; calibrate's a list of keys
            if [[ "$command" == tmm ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi ;;
        --model)        COMPREPLY=($(compgen -W "roofline fixed locality" -- "$cur")); return ;;
        --sweep)        COMPREPLY=($(compgen -W "threads registers shared_memory" -- "$cur")); return ;;
        --sample)       COMPREPLY=($(compgen -W "haccmk nekbone-mxf12 nekbone-glsc3i" -- "$cur")); return ;;
        --view)
            COMPREPLY=($(compgen -W "xgraph stability occupancy zigzag markov mapping extrapolate bandwidth roofline prediction levels skeleton" -- "$cur"))
            return ;;
        --grid)         COMPREPLY=($(compgen -W "thesis uniform: logit:" -- "$cur")); return ;;
        --session)      COMPREPLY=($(compgen -f -X '!*.crossroof' -- "$cur")); return ;;
        --trace|--family|--train|--measured|--file|--out|--supply|--demand|--stream|--latency|--parallel|--kernels|--cache|--l2-stream)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --probe)        COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W "$(_crossroof_cli_options "$command") --help" -- "$cur"))
}

complete -o filenames -F _crossroof_cli crossroof-cli
