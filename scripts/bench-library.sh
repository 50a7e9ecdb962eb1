#!/usr/bin/env bash
# The library benchmark (called by scripts/bench.sh; runnable alone):
#  - importing 2,000 small tagged MP3s in nested folders into a fresh library: abplayer vs cmus
#    adding them to a fresh library (run in tmux, driven by cmus-remote) vs ffprobe on each file;
#  - listing the shelf tree of a 10,000-book / 200,000-item library, and that database's size.
# Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-library.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-library.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/library
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
# tagged_mp3_tree, log: without it the whole of `make bench` stopped here, on its third part.
. "$(dirname "$0")/bench-common.sh"
now() { date +%s.%N; }
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }

# --- 2,000 tagged MP3s: 20 authors x 5 books x 2 discs x 10 chapters (BENCH_SMOKE: 2 x 1 x 2) -----
tagged_mp3_tree "$(scaled 20 2)" "$(scaled 5 1)" 2
files=$(find "$tree" -name '*.mp3' | wc -l)

# --- abplayer import into a fresh library -----------------------------------------------------------
abplayer_import() {
    rm -f "$work/import.sqlite"*
    local start end
    start=$(now)
    "$abplayer" import --library "$work/import.sqlite" "$tree" >/dev/null 2>"$work/import.err"
    end=$(now)
    echo "$end - $start" | bc
}

# --- cmus adding the same tree to a fresh library --------------------------------------------------
# cmus needs a terminal (tmux gives it one). It adds in a worker thread; the library is complete
# when `save -l` writes every file. There is no sound card here: JACK must not start a server
# (it hangs on a missing ALSA device), so cmus runs with no working output, which adding does
# not need.
cmus_import() {
    local home="$work/cmus-home" sock="$work/cmus.sock" saved="$work/cmus-lib.pl" start end deadline
    rm -rf "$home" "$sock" "$saved" && mkdir -p "$home/.config/cmus"
    tmux new-session -d -s abplayer-bench-cmus -e HOME="$home" -e XDG_CONFIG_HOME="$home/.config" \
        -e JACK_NO_START_SERVER=1 -e PULSE_SERVER=none "cmus --listen '$sock' 2>/dev/null"
    # Without D-Bus cmus stops at "MPRIS will be disabled. Press <enter>": press it until it answers.
    for _ in $(seq 100); do
        tmux send-keys -t abplayer-bench-cmus Enter 2>/dev/null || true
        timeout 1 cmus-remote --server "$sock" -C 'echo' >/dev/null 2>&1 && break
        sleep 0.1
    done
    start=$(now)
    deadline=$(echo "$start + 120" | bc)
    timeout 10 cmus-remote --server "$sock" -l "$tree"
    while :; do
        # "can't save when tracks are being added" until the worker is done
        timeout 10 cmus-remote --server "$sock" -C "save -l $saved" >/dev/null 2>&1 || true
        [ -f "$saved" ] && [ "$(wc -l <"$saved")" -ge "$files" ] && break
        [ "$(echo "$(now) > $deadline" | bc)" = 1 ] && { log "cmus did not finish in 120 s"; break; }
    done
    end=$(now)
    timeout 5 cmus-remote --server "$sock" -C quit 2>/dev/null || true
    tmux kill-session -t abplayer-bench-cmus 2>/dev/null || true
    echo "$end - $start" | bc
}

# --- ffprobe on each file, two at a time (the machine's cores) ---------------------------------------
ffprobe_all() {
    local start end
    start=$(now)
    find "$tree" -name '*.mp3' -print0 | xargs -0 -P 2 -n 1 ffprobe -v error -show_format -show_streams >/dev/null
    end=$(now)
    echo "$end - $start" | bc
}

ours=$(for _ in $(seq "$runs"); do abplayer_import; done | median)
books=$("$abplayer" books --brief --library "$work/import.sqlite" | wc -l)
theirs=$(for _ in $(seq "$runs"); do cmus_import; done | median)
probe=$(ffprobe_all)
rate() { echo "scale=0; $files / $1" | bc; }
printf 'Import %d tagged MP3s (nested folders) into a fresh library\n' "$files"
printf '  abplayer %6.3fs = %6d files/s (%d books, fingerprints + durations) | cmus %6.3fs = %6d files/s | ffprobe (2 at a time) %6.2fs = %5d files/s\n' \
    "$ours" "$(rate "$ours")" "$books" "$theirs" "$(rate "$theirs")" "$probe" "$(rate "$probe")"
printf '  ratio: abplayer files/s / cmus files/s = %s (target >= 0.5)\n' "$(echo "scale=3; $theirs / $ours" | bc)"

# --- a big library: 10,000 books, 200,000 items --------------------------------------------------------
big="$work/big.sqlite"
if [ ! -f "$big" ]; then
    log "generating a library of 10,000 books / 200,000 items"
    "$abplayer" debug-generate-library --library "$big.tmp" --books "$library_books" --items 20
    mv "$big.tmp" "$big"; rm -f "$big.tmp"-*
fi
listing=$(for _ in $(seq "$runs"); do
    start=$(now); "$abplayer" shelves --library "$big" >/dev/null; end=$(now); echo "$end - $start" | bc
done | median)
size=$(stat -c %s "$big")
printf 'Shelf tree of 10,000 books / 200,000 items: `abplayer shelves` %.1f ms (whole process; target < 50 ms), database %.1f MiB\n' \
    "$(echo "$listing * 1000" | bc)" "$(echo "$size / 1048576" | bc -l)"
