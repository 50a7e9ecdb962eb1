#!/usr/bin/env bash
# Event hooks part of `make bench` (issue 33): CPU while playing a book of six files to the null
# output (paced: real time), paused, resumed and bookmarked along the way, with a hook for every
# event and plain mode on (its announcements said) against neither, same build, same run. The player's own CPU and its hooks' (reaped children)
# are read from /proc/PID/stat before it quits. Prints figures; asserts nothing.
#
# usage: scripts/bench-hooks.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-hooks.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
export ABPLAYER_PLUGIN_PATH=
# BENCH_SMOKE: six 1 s files, played 4 s a run.
file_seconds=$(scaled 30 1)
window=$(scaled 60 4)
step=$(scaled 10 1)

# Six files in one book (a chapter each), loudness off so that no run measures it.
book="$work/hooks-book"
lib="$work/hooks-library.sqlite"
if [ ! -f "$lib" ]; then
    rm -rf "$book" "$lib"*
    mkdir -p "$book"
    for part in 1 2 3 4 5 6; do
        sox -q -n -r 48000 -c 2 -b 16 "$work/hooks-part.wav" synth "$file_seconds" sine $((200 * part)) vol 0.3
        opusenc --quiet "$work/hooks-part.wav" "$book/part $part.opus"
    done
    "$abplayer" import --library "$lib" "$book" >/dev/null
    "$abplayer" -c 'set loudness off' --library "$lib" --output null >/dev/null
fi

# Two config folders: no hooks, and one for every event (each appends a line to a log).
none="$work/hooks-none"
every="$work/hooks-every"
mkdir -p "$none/abplayer/hooks" "$every/abplayer/hooks"
chmod 755 "$none/abplayer/hooks" "$every/abplayer/hooks"
for event in started paused resumed chapter bookmark sleep finished output-lost synced; do
    printf '#!/bin/sh\necho "$ABPLAYER_EVENT $ABPLAYER_POSITION" >> "%s/hooks.log"\n' "$work" >"$every/abplayer/hooks/$event"
    chmod 755 "$every/abplayer/hooks/$event"
done

ticks=$(getconf CLK_TCK)
fifo="$work/hooks-input"
cleanup() { [ -n "${player:-}" ] && kill "$player" 2>/dev/null; rm -f "$fifo"; }
trap cleanup EXIT

# The REPL playing the book from its start for $window seconds, pausing, resuming and bookmarking
# every $step seconds; prints the player's own CPU seconds and its reaped children's (the hooks).
play_with() { # XDG_CONFIG_HOME [--plain]
    rm -f "$fifo" && mkfifo "$fifo"
    XDG_CONFIG_HOME=$1 "$abplayer" ${2:-} --library "$lib" --output null <"$fifo" >/dev/null 2>&1 &
    player=$!
    exec 9>"$fifo"
    echo 'play hooks-book' >&9
    echo 'seek 0' >&9
    local elapsed=0
    while [ "$elapsed" -lt "$window" ]; do
        sleep "$step"
        elapsed=$((elapsed + step))
        { echo pause; echo bookmark; echo play; } >&9
    done
    # utime stime cutime cstime: fields 14-17, counted after the ")" that ends the command's name.
    read -r own children < <(sed 's/.*) //' "/proc/$player/stat" | awk '{ print $12 + $13, $14 + $15 }')
    echo quit >&9
    exec 9>&-
    wait "$player" || true
    player=
    echo "$(echo "scale=2; $own / $ticks" | bc) $(echo "scale=2; $children / $ticks" | bc)"
}

median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
own_none=() own_every=() hooks_cpu=()
rm -f "$work/hooks.log"
for _ in $(seq "$runs"); do
    read -r own _ <<<"$(play_with "$none")"; own_none+=("$own")
    read -r own kids <<<"$(play_with "$every" --plain)"; own_every+=("$own"); hooks_cpu+=("$kids")
done
n=$(printf '%s\n' "${own_none[@]}" | median)
e=$(printf '%s\n' "${own_every[@]}" | median)
k=$(printf '%s\n' "${hooks_cpu[@]}" | median)
hook_runs=$(($(wc -l <"$work/hooks.log" 2>/dev/null || echo 0) / runs))
echo "Event hooks"
printf '%s\n  neither %6.2fs cpu | a hook for every event and plain mode %6.2fs cpu (%d hook runs a play; the hooks themselves %6.2fs cpu)\n  ratio: player with hooks and plain mode / with neither %s (target <= 1.05); with the hooks'"'"' own CPU %s\n' \
    "$window s real-time play of 6 files (null output), pausing, bookmarking and resuming every $step s; the player's CPU" \
    "$n" "$e" "$hook_runs" "$k" "$(ratio "$e" "$n")" "$(ratio "$(echo "$e + $k" | bc)" "$n")"
