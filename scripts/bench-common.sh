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

# Ratio of two times; the reference (sqlite3) often finishes within /usr/bin/time's 10 ms.
ratio() {
    if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "n/a (reference < 0.01 s)"; else echo "scale=3; $1 / $2" | bc; fi
}
compare() { # title target ours... -- reference...
    local title=$1 target=$2; shift 2
    local ours=() ref=()
    while [ "$1" != "--" ]; do ours+=("$1"); shift; done; shift; ref=("$@")
    read -r ow oc orss <<<"$(measure "${ours[@]}")"
    read -r rw rc rrss <<<"$(measure "${ref[@]}")"
    printf '%s\n  abplayer %6.2fs wall %6.2fs cpu %6d KiB | %-8s %6.2fs wall %6.2fs cpu %6d KiB\n  ratio: wall %s, cpu %s (target %s)\n' \
        "$title" "$ow" "$oc" "$orss" "$(basename "${ref[0]}")" "$rw" "$rc" "$rrss" "$(ratio "$ow" "$rw")" "$(ratio "$oc" "$rc")" "$target"
}

# A library of 10,000 synthetic books of 20 items each, made once and kept in $work; prints its path.
synthetic_library() { # abplayer
    local big="$work/console-10000-books.sqlite"
    if [ ! -f "$big" ]; then
        rm -f "$big.tmp"
        "$1" debug-generate-library --library "$big.tmp" --books 10000 --items 20 >&2
        mv "$big.tmp" "$big"; rm -f "$big.tmp"-*
    fi
    echo "$big"
}
