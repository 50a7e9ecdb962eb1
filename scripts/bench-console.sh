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

big=$(synthetic_library "$abplayer")
export ABPLAYER_PLUGIN_PATH=

compare "REPL -c 'find $last_book' on 10,000 books (start to exit)" "informational" \
    "$abplayer" --library "$big" -c "find $last_book" -- \
    sqlite3 "$big" "SELECT id, title FROM book WHERE lower(title) LIKE '%${last_book,,}%'"
compare "REPL -c 'cd \"Synthetic 3\"; ls' (start to exit)" "informational" \
    "$abplayer" --library "$big" -c 'cd "Synthetic 3"; ls' -- \
    sqlite3 "$big" "SELECT name FROM shelf WHERE parentId = (SELECT id FROM shelf WHERE name = 'Synthetic 3' AND parentId IS NULL)"
