# Shared by scripts/bench*.sh (sourced, not run). Needs $work (a scratch directory) and $runs.

log() { printf '%s\n' "$*" >&2; }

# Runs a command $runs times (standard input /dev/null); prints "median-wall median-cpu
# max-rss-KiB". A failing run is still measured: the figures say what it cost.
measure() {
    local walls=() cpus=() rss=0 report="$work/time.out"
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$report" -f '%e %U %S %M' "$@" </dev/null >/dev/null 2>&1 || true
        read -r wall user sys kib <"$report"
        walls+=("$wall"); cpus+=("$(echo "$user + $sys" | bc)")
        [ "$kib" -gt "$rss" ] && rss=$kib
    done
    printf '%s %s %s\n' "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" \
        "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "$rss"
}
