#!/usr/bin/env bash
# MP3 and Opus part of `make bench` (called by scripts/bench.sh; runnable alone): abplayer against
# mpg123 and opusdec decoding 60 minutes, side by side in one run; the peak memory decoding a
# 20-hour MP3, and opening it and seeking deep into it, first by scanning, then from the cached
# index. Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-mp3-opus.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-mp3-opus.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}

. "$(dirname "$0")/bench-common.sh"

# --- fixtures, made once and kept in $work (cheap: short encodes, concatenated) ---------------
# (BENCH_SMOKE: a "minute" of one second, a 5 s "60 min" file, a 20 s "20 h" one.)
minute=$(scaled 60 1)
sixty=$(scaled 60 5)
twenty_hours=$(scaled 1200 20)
deep=$(scaled 19:00:00 0:00:18)
deep_end=$(scaled 19:00:01 0:00:19)

# A minute of a "voice-like" signal: a tone gliding through the speech band with noise.
segment_wav() { # rate channels out
    [ -f "$3" ] || sox -q -n -r "$1" -c "$2" -b 16 "$3" synth "$minute" sine 150-900 synth "$minute" pinknoise mix vol 0.5
}

# N minutes of MP3 made by concatenating the frames of a one-minute encode without a Xing tag
# (so the result is a VBR file with no seek table, like many real audiobooks).
concat_mp3() { # minutes lame-args out
    local minutes=$1 out=$3 one="$work/one-$(echo "$2" | tr -c 'a-z0-9' _).mp3"
    [ -f "$out" ] && return
    segment_wav 44100 2 "$work/seg-44k-2.wav"
    segment_wav 8000 1 "$work/seg-8k-1.wav"
    case "$2" in *"--resample 8"*) src="$work/seg-8k-1.wav" ;; *) src="$work/seg-44k-2.wav" ;; esac
    [ -f "$one" ] || lame --quiet -t $2 "$src" "$one"
    log "making $out ($minutes min)"
    for _ in $(seq "$minutes"); do cat "$one"; done > "$out.tmp" && mv "$out.tmp" "$out"
}

mp3_60="$work/60min.mp3"
opus_60="$work/60min.opus"
mp3_20h="$work/20h-vbr-noxing.mp3"
concat_mp3 "$sixty" "-V 4" "$mp3_60"
concat_mp3 "$twenty_hours" "-V 9 -m m --resample 8" "$mp3_20h"
if [ ! -f "$opus_60" ]; then
    log "making $opus_60"
    segment_wav 48000 2 "$work/seg-48k-2.wav"
    for _ in $(seq "$sixty"); do sox -q "$work/seg-48k-2.wav" -t raw -; done \
        | opusenc --quiet --raw --raw-rate 48000 --raw-chan 2 --bitrate 64 - "$opus_60.tmp" && mv "$opus_60.tmp" "$opus_60"
fi

# --- measuring (measure, compare: bench-common.sh) -----------------------------------------------

compare "MP3 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$mp3_60" -- mpg123 -q -t "$mp3_60"
compare "Opus 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$opus_60" -- opusdec --quiet "$opus_60" /dev/null

read -r _ _ rss <<<"$(runs=1 measure "$abplayer" decode "$mp3_20h")"
printf '%-44s %d KiB = %.1f MiB (target < 40 MiB)\n' "Peak RSS decoding a 20 h MP3" "$rss" "$(echo "$rss / 1024" | bc -l)"

cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
seek_19h() {
    XDG_CACHE_HOME=$cache /usr/bin/time -o "$work/time.out" -f '%e' \
        "$abplayer" decode "$mp3_20h" --from "$deep" --to "$deep_end" >/dev/null 2>&1
    cat "$work/time.out"
}
first=$(seek_19h)
second=$(seek_19h)
printf '%-44s first %ss (scan), second %ss (cached index)\n' "Open 20 h VBR MP3 (no Xing) + seek 19:00:00" "$first" "$second"
