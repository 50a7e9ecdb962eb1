#!/usr/bin/env bash
# The library watch (called by scripts/bench.sh; runnable alone): 1,000 tagged MP3s copied at once
# into the folder of a book while a player runs. Figure: how long after the last write the
# library holds all of them (target: within 2 s), against MPD's inotify `auto_update` on the same
# burst (its database holds them all). Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-watch.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-watch.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/watch
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
now() { date +%s.%N; }
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
burst=$(scaled 1000 20)

# The daemons below start in subshells ($(abplayer_burst)): their PIDs are kept in a file, and
# whichever is still running when this script ends, normally or not, is stopped.
started="$work/started.pids"
: >"$started"
stop_started() {
    local pid
    while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$started"
    rm -f "$started"
}
trap stop_started EXIT

# --- 1,000 tagged MP3s: one clip behind 1,000 ID3v2.3 tags (as in bench-library.sh) ----------------
source_dir="$work/burst"
if [ ! -f "$source_dir/.done" ]; then
    log "making $burst tagged MP3s in $source_dir"
    rm -rf "$source_dir" && mkdir -p "$source_dir"
    sox -q -n -r 22050 -c 1 "$work/clip.wav" synth 1 sine 440 vol 0.3
    lame --quiet -V 9 "$work/clip.wav" "$work/clip.mp3"
    python3 - "$work/clip.mp3" "$source_dir" "$burst" <<'PY'
import os, struct, sys
clip = open(sys.argv[1], "rb").read()
root, count = sys.argv[2], int(sys.argv[3])
def frame(fid, text):
    body = b"\x03" + text.encode("utf-8")
    return fid.encode() + struct.pack(">I", len(body)) + b"\x00\x00" + body
def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
for c in range(1, count + 1):
    frames = b"".join([frame("TIT2", f"Chapter {c}"), frame("TPE1", "Bench Author"),
                       frame("TALB", "Bench Book"), frame("TRCK", f"{c}/{count}")])
    with open(os.path.join(root, f"Chapter {c:04d}.mp3"), "wb") as f:
        f.write(b"ID3\x03\x00\x00" + syncsafe(len(frames)) + frames + clip)
PY
    touch "$source_dir/.done"
fi

# Copies the burst into $1 (one cp, as a file manager would) and prints when the last write ended.
copy_burst() {
    cp "$source_dir"/*.mp3 "$1"/
    now
}

# Polls `$@` (a command printing a count) every 20 ms until it prints at least $want; prints when.
wait_for_count() { # want timeout-seconds command...
    local want=$1 deadline count
    deadline=$(echo "$(now) + $2" | bc); shift 2
    while [ "$(echo "$(now) < $deadline" | bc)" = 1 ]; do
        count=$("$@" 2>/dev/null || echo 0)
        if [ "${count:-0}" -ge "$want" ]; then now; return; fi
        sleep 0.02
    done
    echo "timeout"
}

# --- abplayer: a daemon on a library holding the book (one file) ----------------------------------
abplayer_burst() {
    local dir="$work/abp" book home last seen pid
    rm -rf "$dir" && mkdir -p "$dir/Book" "$dir/home"
    cp "$source_dir/Chapter 0001.mp3" "$dir/Book/Chapter 0000.mp3"
    "$abplayer" import --library "$dir/lib.sqlite" "$dir/Book" >/dev/null 2>&1
    HOME="$dir/home" XDG_RUNTIME_DIR="$dir/home" "$abplayer" repl --daemon --library "$dir/lib.sqlite" --output null \
        </dev/null >"$dir/daemon.log" 2>&1 &
    pid=$!
    echo "$pid" >>"$started"
    # The watch is in place before the control socket is (the daemon's order). (`help`: `status`
    # fails while nothing plays, and this waited its 500 rounds every time.)
    for _ in $(seq 500); do
        HOME="$dir/home" XDG_RUNTIME_DIR="$dir/home" timeout 2 "$abplayer" remote --library "$dir/lib.sqlite" help \
            >/dev/null 2>&1 && break
        sleep 0.02
    done
    # (and a daemon that never answered fails the script here)
    HOME="$dir/home" XDG_RUNTIME_DIR="$dir/home" "$abplayer" remote --library "$dir/lib.sqlite" help >/dev/null
    last=$(copy_burst "$dir/Book")
    seen=$(wait_for_count $((burst + 1)) 60 sqlite3 "$dir/lib.sqlite" "SELECT count(*) FROM bookItem")
    kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    [ "$seen" = timeout ] && { echo timeout; return; }
    echo "$seen - $last" | bc
}

# --- MPD: auto_update (inotify) on a music directory holding the folder -------------------------
mpd_burst() {
    local dir="$work/mpd" last seen pid
    rm -rf "$dir" && mkdir -p "$dir/music/Book"
    cp "$source_dir/Chapter 0001.mp3" "$dir/music/Book/Chapter 0000.mp3"
    cat >"$dir/mpd.conf" <<EOF
music_directory "$dir/music"
db_file "$dir/mpd.db"
bind_to_address "$dir/mpd.sock"
auto_update "yes"
audio_output {
    type "null"
    name "null"
}
EOF
    mpd --no-daemon --stderr "$dir/mpd.conf" >"$dir/mpd.log" 2>&1 &
    pid=$!
    echo "$pid" >>"$started"
    for _ in $(seq 500); do [ -S "$dir/mpd.sock" ] && mpc -q -h "$dir/mpd.sock" status >/dev/null 2>&1 && break; sleep 0.02; done
    mpc -q -h "$dir/mpd.sock" update --wait >/dev/null 2>&1
    last=$(copy_burst "$dir/music/Book")
    seen=$(wait_for_count $((burst + 1)) 60 sh -c "mpc -h '$dir/mpd.sock' listall | wc -l")
    kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    [ "$seen" = timeout ] && { echo timeout; return; }
    echo "$seen - $last" | bc
}

ours=(); theirs=()
for _ in $(seq "$runs"); do ours+=("$(abplayer_burst)"); done
if command -v mpd >/dev/null && command -v mpc >/dev/null; then
    for _ in $(seq "$runs"); do theirs+=("$(mpd_burst)"); done
fi
o=$(printf '%s\n' "${ours[@]}" | median)
seconds() { [ "$1" = timeout ] && echo "over 60" || printf '%.2f' "$1"; }
echo "Library watch: $burst MP3s copied into a book's folder while a player runs"
if [ ${#theirs[@]} -gt 0 ]; then
    t=$(printf '%s\n' "${theirs[@]}" | median)
    printf '  all in the library %s s after the last write | MPD auto_update: %s s (target <= 2 s)\n' "$(seconds "$o")" "$(seconds "$t")"
else
    printf '  all in the library %s s after the last write (target <= 2 s; mpd/mpc not installed)\n' "$(seconds "$o")"
fi
