#!/usr/bin/env bash
# Player-screen part of `make bench`: what the full screen costs while it shows a playing book
# (CPU over 10 s of wall time, redrawn from the engine's position events), against mpv playing
# the same file in the same kind of terminal with its status line; and the time from the 'a' key
# to a 1000x1000 cover drawn by libchafa, against the chafa tool drawing the same picture.
# Both run in tmux (a real pseudo-terminal), side by side in one run. Prints figures and ratios;
# asserts nothing.
#
# usage: scripts/bench-screen.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-screen.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/screen
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
ratio() { if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "n/a"; else echo "scale=2; $1 / $2" | bc; fi; }
# BENCH_SMOKE: a 10 s clip (the book 100 s), CPU read over 1 s after 0.5 s.
clip=$(scaled 60 10)
window=$(scaled 10 1)
settle=$(scaled 2 0.5)

cover="$work/cover.jpg"
book="$work/book/01.mp3"
[ -f "$cover" ] || ffmpeg -v error -y -f lavfi -i testsrc=s=1000x1000 -frames:v 1 "$cover"
if [ ! -f "$book" ]; then
    mkdir -p "$work/book"
    sox -q -n -r 44100 -c 2 -b 16 "$work/min.wav" synth "$clip" sine 150-900
    lame --quiet -V 4 --ti "$cover" "$work/min.wav" "$work/one.mp3"
    for _ in $(seq 10); do cat "$work/one.mp3"; done > "$book"   # 10 minutes; the tag comes first
fi
library="$work/library.sqlite"
if [ ! -f "$library" ]; then
    "$abplayer" import --library "$library" "$work/book" >/dev/null
    ABPLAYER_PLUGIN_PATH= "$abplayer" -c 'play 01; seek 0:10' --output null --library "$library" >/dev/null # in progress: 'now' resumes it
fi
socket="$work/tmux.sock"
tmux_() { tmux -S "$socket" "$@"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
export ABPLAYER_PLUGIN_PATH= NO_COLOR= TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8

# CPU seconds a command running in an 80x30 tmux window uses per 10 s of wall time, read over 10 s
# (after 2 s), keys typed into it first.
cpu_over_10s() { # command [keys...]
    tmux_ kill-server 2>/dev/null || true
    tmux_ new-session -d -x 80 -y 30 "exec $1"; shift
    sleep 1
    [ $# -gt 0 ] && tmux_ send-keys "$@"
    sleep "$settle"
    local pid; pid=$(tmux_ display -p '#{pane_pid}')
    local before; before=$(cpu_ticks "$pid")
    local start; start=$(date +%s.%N)
    sleep "$window"
    local after; after=$(cpu_ticks "$pid")
    local wall; wall=$(echo "$(date +%s.%N) - $start" | bc)
    tmux_ kill-server 2>/dev/null || true
    echo "scale=3; ($after - $before) / $hz * 10 / $wall" | bc
}

ours=$(cpu_over_10s "'$abplayer' now --output null --library '$library'")
# A library of its own: the player just measured may still hold its library's lock while it
# saves and exits, and a second player on a locked library becomes its client.
prompt_library="$work/prompt-library.sqlite"
rm -f "$prompt_library"*
cp "$library" "$prompt_library"
prompt=$(cpu_over_10s "'$abplayer' --output null --library '$prompt_library'" "play 01" Enter)
mpv=$(cpu_over_10s "mpv --no-video --ao=null --no-config '$book'")
printf 'player screen showing a playing book, CPU seconds per 10 s\n  abplayer now %6.3fs | mpv (status line) %6.3fs\n  ratio: %s (informational)\n' \
    "$ours" "$mpv" "$(ratio "$ours" "$mpv")"

# Milliseconds from sending 'a' until the screen shows the cover (drawn in one go with its title
# line "— a/q back"), polled every 10 ms; -1 when it never shows within 10 s.
wait_for() { # text seconds
    local deadline=$(( $(date +%s) + $2 ))
    until tmux_ capture-pane -p | grep -qF "$1"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.01
    done
}
cover_ms() {
    tmux_ kill-server 2>/dev/null || true
    tmux_ new-session -d -x 80 -y 30 "exec '$abplayer' now --output null --library '$library'"
    wait_for PLAYING 10 || { echo -1; tmux_ kill-server; return; }
    local start; start=$(date +%s%N)
    tmux_ send-keys a
    if wait_for 'a/q back' 10; then echo $(( ($(date +%s%N) - start) / 1000000 )); else echo -1; fi
    tmux_ kill-server 2>/dev/null || true
}
chafa_ms() {
    local start; start=$(date +%s%N)
    chafa --size 80x29 --symbols block+space --colors full "$cover" >/dev/null
    echo $(( ($(date +%s%N) - start) / 1000000 ))
}
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
ours=$(for _ in $(seq "$runs"); do cover_ms; done | median)
if command -v chafa >/dev/null; then
    ref=$(for _ in $(seq "$runs"); do chafa_ms; done | median)
else
    ref=0; log "chafa (the tool) is not installed: no reference figure"
fi
printf "1000x1000 JPEG cover to the terminal, 80x29 cells\n  abplayer 'a' key %5d ms (decode the tag, libchafa, tmux shows it) | chafa tool %5d ms (process start to exit)\n  ratio: %s (informational)\n" \
    "$ours" "$ref" "$(ratio "$ours" "$ref")"
log "(the REPL at its prompt while playing, for comparison: $prompt CPU s per 10 s)"
