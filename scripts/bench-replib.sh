#!/usr/bin/env bash
# The REPL's library commands in `make bench`: what `abplayer -c COMMAND` costs on a 10,000-book
# library (process start, plugin loading, opening the library, the command), against sqlite3
# answering the same question from the same database, side by side in one run. Prints figures
# and ratios; asserts nothing.
#
# usage: scripts/bench-replib.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-replib.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"

big=$(synthetic_library "$abplayer")
export ABPLAYER_PLUGIN_PATH=
# Commands that write go to a copy, so the shared library stays as made.
copy="$work/replib-10000-books.sqlite"
cp "$big" "$copy"

compare "REPL -c 'book items \"$last_book\"' on 10,000 books (start to exit)" "informational" \
    "$abplayer" --library "$big" -c "book items \"$last_book\"" -- \
    sqlite3 "$big" "SELECT media.title, media.durationFrames FROM bookItem JOIN media ON media.id = bookItem.mediaId
                    WHERE bookItem.bookId = (SELECT id FROM book WHERE title = '$last_book') ORDER BY bookItem.position"
compare "REPL -c 'browse author' (200,000 files; start to exit)" "informational" \
    "$abplayer" --library "$big" -c 'browse author' -- \
    sqlite3 "$big" "SELECT artist, count(*) FROM media WHERE artist IS NOT NULL GROUP BY artist"
compare "REPL -c 'export FILE' (start to exit) vs sqlite3 .dump" "informational" \
    "$abplayer" --library "$big" -c "export $work/replib-state.json" -- \
    sqlite3 "$big" .dump
compare "REPL -c 'book reorder \"$last_book\" 20 1' (start to exit, a write)" "informational" \
    "$abplayer" --library "$copy" -c "book reorder \"$last_book\" 20 1" -- \
    sqlite3 "$copy" "UPDATE bookItem SET position = position WHERE bookId = (SELECT id FROM book WHERE title = '$last_book')"
rm -f "$copy" "$copy"-* "$work/replib-state.json"
