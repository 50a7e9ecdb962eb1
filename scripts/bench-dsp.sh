#!/usr/bin/env bash
# The DSP chain: CPU cost of playing at speed 1.5 (libsonic, pitch kept) against speed 1 (sonic
# bypassed), decoding a 60-minute MP3 as fast as possible to a WAV file on /dev/null, side by side
# with ffmpeg's atempo filter doing the same stretch. Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-dsp.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-dsp.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
mkdir -p "$work"

# The same 60-minute MP3 as bench.sh (a voice-like glide with noise, VBR), made here if missing.
mp3="$work/60min.mp3"
# (BENCH_SMOKE: 5 "minutes" of one second.)
if [ ! -f "$mp3" ]; then
    minute=$(scaled 60 1)
    [ -f "$work/seg-44k-2.wav" ] || sox -q -n -r 44100 -c 2 -b 16 "$work/seg-44k-2.wav" synth "$minute" sine 150-900 synth "$minute" pinknoise mix vol 0.5
    [ -f "$work/dsp-one-minute.mp3" ] || lame --quiet -t -V 4 "$work/seg-44k-2.wav" "$work/dsp-one-minute.mp3"
    for _ in $(seq "$(scaled 60 5)"); do cat "$work/dsp-one-minute.mp3"; done > "$mp3.tmp" && mv "$mp3.tmp" "$mp3"
fi

ratio() { echo "scale=2; $1 / $2" | bc; }

read -r w10 c10 _ <<<"$(measure "$abplayer" play --output wav:/dev/null --speed 1 "$mp3")"
read -r w15 c15 _ <<<"$(measure "$abplayer" play --output wav:/dev/null --speed 1.5 "$mp3")"
read -r fw10 fc10 _ <<<"$(measure ffmpeg -v error -i "$mp3" -f null -)"
read -r fw15 fc15 _ <<<"$(measure ffmpeg -v error -i "$mp3" -af atempo=1.5 -f null -)"

echo "DSP: 60 min MP3, unpaced, $runs runs each, medians"
printf '  abplayer speed 1   %6.2fs wall %6.2fs cpu | ffmpeg          %6.2fs wall %6.2fs cpu\n' "$w10" "$c10" "$fw10" "$fc10"
printf '  abplayer speed 1.5 %6.2fs wall %6.2fs cpu | ffmpeg atempo   %6.2fs wall %6.2fs cpu\n' "$w15" "$c15" "$fw15" "$fc15"
printf '  cost of speed 1.5 over 1: abplayer +%ss cpu (x%s), ffmpeg +%ss cpu (x%s); abplayer/ffmpeg at 1.5: cpu %s\n' \
    "$(echo "$c15 - $c10" | bc)" "$(ratio "$c15" "$c10")" "$(echo "$fc15 - $fc10" | bc)" "$(ratio "$fc15" "$fc10")" "$(ratio "$c15" "$fc15")"
