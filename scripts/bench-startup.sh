#!/usr/bin/env bash
# Start-up and memory against the previous landing's binary, built from git in the same run:
# `--help` time, and peak RSS for `--help` and for playing an MP3. libdbus (MPRIS) and libchafa
# with glib, libturbojpeg and libpng (covers) are loaded when first needed since 9821e67; the
# landing before that (e9998f8) linked them: BENCH_BASELINE=e9998f8 shows what that saved.
# BIN_DIR is `make release`'s build (static Foundation, the traced symbol order); the baseline is
# built as that commit's own `make bench` built it (baseline_abplayer in bench-common.sh).
#
# usage: scripts/bench-startup.sh BIN_DIR      BENCH_BASELINE=commit (default: the previous landing)
# Figures: --help time; peak RSS of --help, of `play` and of `listen` (both to the null sink); the
# CPU `listen` takes while it plays.
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-startup.sh BIN_DIR}" && pwd)
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
. "$(dirname "$0")/bench-common.sh"
baseline=$(baseline_abplayer) || { echo "Start-up: baseline $baseline_commit is not in this checkout's history; skipped"; exit 0; }
ours="$bin_dir/abplayer"
# BENCH_SMOKE: a 1 s MP3, --help timed 3 times, listen for 1 s.
starts=$(scaled 50 3)
listen_seconds=$(scaled 6 1)

mp3="$work/startup-20s.mp3"
if [ ! -f "$mp3" ]; then
    sox -q -n -r 44100 -c 2 -b 16 "$work/startup.wav" synth "$(scaled 20 1)" sine 150-900
    lame --quiet -V 4 "$work/startup.wav" "$mp3"
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT

echo "Start-up and memory — this build against $baseline_commit (the previous landing), medians"
# /usr/bin/time counts in 10 ms steps: the start-up time is the mean of 50 runs by the ns clock.
mean_ms() { # command...
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$starts"); do HOME=$home "$@" </dev/null >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    echo "scale=2; ($end - $start) / $starts / 1000000" | bc
}
ow=$(mean_ms "$ours" --help)
bw=$(mean_ms "$baseline" --help)
runs=${BENCH_RUNS:-3}
read -r _ _ orss <<<"$(HOME=$home measure "$ours" --help)"
read -r _ _ brss <<<"$(HOME=$home measure "$baseline" --help)"
printf '  --help            %6.2f ms vs %6.2f ms (ratio %s)   peak RSS %6d KiB vs %6d KiB\n' \
    "$ow" "$bw" "$(ratio "$ow" "$bw")" "$orss" "$brss"
read -r _ _ orss <<<"$(HOME=$home measure "$ours" play --output null "$mp3")"
read -r _ _ brss <<<"$(HOME=$home measure "$baseline" play --output null "$mp3")"
printf '  play (null sink)  peak RSS %6d KiB = %4.1f MiB vs %6d KiB = %4.1f MiB (target < 28 MiB)\n' \
    "$orss" "$(echo "$orss / 1024" | bc -l)" "$brss" "$(echo "$brss / 1024" | bc -l)"
# `listen` keeps the library (SQLite) and saves the place every second: the player people leave
# running (for 6 s here). Each binary gets a library of its own (a newer schema would not open in the older).
for who in ours baseline; do
    binary=${!who}
    library="$home/$who.sqlite"
    HOME=$home "$binary" import --library "$library" "$mp3" >/dev/null 2>&1
    read -r wall cpu rss <<<"$(HOME=$home measure sh -c 'timeout -s INT "$@"; true' sh "$listen_seconds" "$binary" listen --library "$library" --output null startup)"
    printf -v "${who}_listen" '%s' "$rss"
    # CPU while playing: the player's user and system time over the wall time it ran.
    printf -v "${who}_cpu" '%s' "$(echo "scale=1; 100 * $cpu / $wall" | bc)"
done
printf '  listen (null sink, %s s)  peak RSS %6d KiB = %4.1f MiB vs %6d KiB = %4.1f MiB\n' \
    "$listen_seconds" "$ours_listen" "$(echo "$ours_listen / 1024" | bc -l)" "$baseline_listen" "$(echo "$baseline_listen / 1024" | bc -l)"
printf '  listen (null sink, %s s)  CPU %5.1f %% vs %5.1f %% of a core (ratio %s)\n' \
    "$listen_seconds" "$ours_cpu" "$baseline_cpu" "$(ratio "$ours_cpu" "$baseline_cpu")"
