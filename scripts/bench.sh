#!/usr/bin/env bash
# make bench: abplayer against the reference tools, side by side in one run, on the same files.
# Prints figures and ratios; asserts nothing (these machines are shared and noisy).
#
# usage: scripts/bench.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}

. "$(dirname "$0")/bench-common.sh"

# --- fixtures, made once and kept in $work (cheap: short encodes, concatenated) ---------------

# A minute of a "voice-like" signal: a tone gliding through the speech band with noise.
segment_wav() { # rate channels out
    [ -f "$3" ] || sox -q -n -r "$1" -c "$2" -b 16 "$3" synth 60 sine 150-900 synth 60 pinknoise mix vol 0.5
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
concat_mp3 60 "-V 4" "$mp3_60"
concat_mp3 1200 "-V 9 -m m --resample 8" "$mp3_20h"
if [ ! -f "$opus_60" ]; then
    log "making $opus_60"
    segment_wav 48000 2 "$work/seg-48k-2.wav"
    for _ in $(seq 60); do sox -q "$work/seg-48k-2.wav" -t raw -; done \
        | opusenc --quiet --raw --raw-rate 48000 --raw-chan 2 --bitrate 64 - "$opus_60.tmp" && mv "$opus_60.tmp" "$opus_60"
fi

# --- measuring (measure, compare: bench-common.sh) -----------------------------------------------

echo "abplayer bench — $(date -u +%Y-%m-%dT%H:%MZ), $runs runs each, medians"
compare "MP3 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$mp3_60" -- mpg123 -q -t "$mp3_60"
compare "Opus 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$opus_60" -- opusdec --quiet "$opus_60" /dev/null

read -r _ _ rss <<<"$(runs=1 measure "$abplayer" decode "$mp3_20h")"
printf '%-44s %d KiB = %.1f MiB (target < 40 MiB)\n' "Peak RSS decoding a 20 h MP3" "$rss" "$(echo "$rss / 1024" | bc -l)"

cache=$(mktemp -d)
seek_19h() {
    XDG_CACHE_HOME=$cache /usr/bin/time -o "$work/time.out" -f '%e' \
        "$abplayer" decode "$mp3_20h" --from 19:00:00 --to 19:00:01 >/dev/null 2>&1
    cat "$work/time.out"
}
first=$(seek_19h)
second=$(seek_19h)
rm -rf "$cache"
printf '%-44s first %ss (scan), second %ss (cached index)\n' "Open 20 h VBR MP3 (no Xing) + seek 19:00:00" "$first" "$second"

"$(dirname "$0")/bench-aac.sh" "$bin_dir"
# Ogg Vorbis and FLAC against oggdec and flac -d.
"$(dirname "$0")/bench-decoders.sh" "$bin_dir"
# The library: import vs cmus and ffprobe; listing a 10,000-book library.
"$(dirname "$0")/bench-library.sh" "$bin_dir"
"$(dirname "$0")/bench-outputs.sh" "$bin_dir"
# Time to first sound: 'play BOOK' at the prompt to the first sound from a PulseAudio null sink, against mpv.
"$(dirname "$0")/bench-first-sound.sh" "$bin_dir"
"$(dirname "$0")/bench-console.sh" "$bin_dir"
# The REPL's library commands (book items, browse, export, reorder) against sqlite3.
"$(dirname "$0")/bench-replib.sh" "$bin_dir"
"$(dirname "$0")/bench-screen.sh" "$bin_dir"
# The library screen on 10,000 books: open and keys, against cmus's library view.
"$(dirname "$0")/bench-library-screen.sh" "$bin_dir"
# Speed (libsonic) against speed 1 and ffmpeg's atempo.
"$(dirname "$0")/bench-dsp.sh" "$bin_dir"
# Skip silence on a narrated book against plain playback (and at speed 1.5).
"$(dirname "$0")/bench-silence.sh" "$bin_dir"
# Measuring a 10-hour book's loudness (libebur128) against ffmpeg's ebur128 filter.
"$(dirname "$0")/bench-loudness.sh" "$bin_dir"
# Sleep timer cost and precision against mpv; the queue on 10,000 books against sqlite3.
"$(dirname "$0")/bench-playback.sh" "$bin_dir"
# MPRIS: CPU while playing with and without it, property round trips against dbus-daemon.
"$(dirname "$0")/bench-mpris.sh" "$bin_dir"
# The library watch: a 1,000-file burst into a book folder, against MPD's auto_update.
"$(dirname "$0")/bench-watch.sh" "$bin_dir"
# Sync (issue 17): 100 devices' journals of 10,000 books merged, against awk and cat; CPU while playing, sync on and off.
"$(dirname "$0")/bench-sync.sh" "$bin_dir"
# The control socket: status round trips against cmus-remote.
"$(dirname "$0")/bench-control.sh" "$bin_dir"
# Start-up time and memory against the previous landing's binary (built from git once).
"$(dirname "$0")/bench-startup.sh" "$bin_dir"
