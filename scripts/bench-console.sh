#!/usr/bin/env bash
# REPL part of `make bench`: what a scripted REPL command costs on a 10,000-book library
# (process start, plugin loading, opening the library, the command), against sqlite3 answering
# the same question from the same database, side by side in one run. Prints figures and ratios;
# asserts nothing.
#
# usage: scripts/bench-console.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-console.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"

ratio() { # sqlite3 often finishes within /usr/bin/time's 10 ms resolution
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

big="$work/console-10000-books.sqlite"
if [ ! -f "$big" ]; then
    rm -f "$big.tmp"
    "$abplayer" debug-generate-library --library "$big.tmp" --books 10000 --items 20
    mv "$big.tmp" "$big"; rm -f "$big.tmp"-*
fi
export ABPLAYER_PLUGIN_PATH=

compare "REPL -c 'find Book 9999' on 10,000 books (start to exit)" "informational" \
    "$abplayer" --library "$big" -c 'find Book 9999' -- \
    sqlite3 "$big" "SELECT id, title FROM book WHERE lower(title) LIKE '%book 9999%'"
compare "REPL -c 'cd \"Synthetic 3\"; ls' (start to exit)" "informational" \
    "$abplayer" --library "$big" -c 'cd "Synthetic 3"; ls' -- \
    sqlite3 "$big" "SELECT name FROM shelf WHERE parentId = (SELECT id FROM shelf WHERE name = 'Synthetic 3' AND parentId IS NULL)"
