#!/usr/bin/env bash
# AAC/M4B part of `make bench`: abplayer's faad plugin against the faad CLI (the same libfaad2),
# side by side in one run, and the cost of opening a 20-hour M4B and seeking deep into it.
# Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-aac.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-aac.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}

. "$(dirname "$0")/bench-common.sh"

# --- fixtures: one minute encoded once, its ADTS frames repeated, remuxed into an M4B ---------
# (cat of ADTS streams is a valid ADTS stream; ffmpeg -c copy writes the MP4 tables)
# BENCH_SMOKE: a "minute" of one second, a 5 s "60 min" file, a 20 s "20 h" one, seeks within it.
minute=$(scaled 60 1)
long_m4b() { # minutes rate channels bitrate out
    local minutes=$1 rate=$2 channels=$3 bitrate=$4 out=$5
    [ -f "$out" ] && return
    local seg="$work/seg-aac-$rate-$channels.wav" one="$work/one-$rate-$channels-$bitrate.aac"
    [ -f "$seg" ] || sox -q -n -r "$rate" -c "$channels" -b 16 "$seg" synth "$minute" sine 150-900 synth "$minute" pinknoise mix vol 0.5
    [ -f "$one" ] || ffmpeg -v error -y -i "$seg" -c:a aac -b:a "$bitrate" -f adts "$one"
    log "making $out ($minutes min)"
    for _ in $(seq "$minutes"); do cat "$one"; done > "$out.aac"
    ffmpeg -v error -y -i "$out.aac" -c copy "$out.tmp.m4b" && mv "$out.tmp.m4b" "$out"
    rm -f "$out.aac"
}
m4b_60="$work/60min.m4b"
m4b_20h="$work/20h.m4b"
long_m4b "$(scaled 60 5)" 44100 2 96k "$m4b_60"
long_m4b "$(scaled 1200 20)" 32000 1 24k "$m4b_20h"

ratio() { echo "scale=3; $1 / $2" | bc; }

read -r ow oc orss <<<"$(measure "$abplayer" decode "$m4b_60")"
read -r rw rc rrss <<<"$(measure sh -c 'faad -q -w "$1" > /dev/null' faad "$m4b_60")"
printf '%s\n  abplayer %6.2fs wall %6.2fs cpu %6d KiB | %-8s %6.2fs wall %6.2fs cpu %6d KiB\n  ratio: wall %s, cpu %s (target %s)\n' \
    "M4B (AAC-LC) 60 min decode (null sink, unpaced)" "$ow" "$oc" "$orss" "faad -w" "$rw" "$rc" "$rrss" \
    "$(ratio "$ow" "$rw")" "$(ratio "$oc" "$rc")" "<= 1.05"

# Open + seek: milliseconds per whole command (process start, plugin loading, moov parse, seek,
# one second decoded), median of $runs, at three positions to show it does not grow with the target.
seek_ms() { # position
    read -r wall _ _ <<<"$(measure "$abplayer" decode "$m4b_20h" --from "$1" --to "$(echo "$1" | awk -F: '{printf "%d:%02d:%02d", $1, $2, $3 + 1}')")"
    echo "$wall * 1000" | bc | cut -d. -f1
}
printf '%-44s 0:00:10 %s ms, 10:00:00 %s ms, 19:00:00 %s ms (target < 50 ms, flat)\n' \
    "Open 20 h M4B + seek + decode 1 s" "$(seek_ms 0:00:10)" "$(seek_ms "$(scaled 10:00:00 0:00:10)")" "$(seek_ms "$(scaled 19:00:00 0:00:18)")"
read -r probe_wall _ _ <<<"$(measure "$abplayer" probe "$m4b_20h")"
printf '%-44s %s ms (the open alone, for comparison)\n' "Probe 20 h M4B" "$(echo "$probe_wall * 1000" | bc | cut -d. -f1)"
