#!/usr/bin/env bash
# Vorbis, FLAC and catch-all part of `make bench`: abplayer's vorbisfile and flac plugins against
# the reference command-line decoders on the same libraries (oggdec: libvorbisfile; flac -d:
# libFLAC), the ffmpeg plugin against `ffmpeg -f null` (same libavcodec) on a WAV, an ALAC M4A
# and a WebM Opus file, side by side in one run, and the cost of opening a 60-minute file and
# seeking near its end.
# Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-decoders.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-decoders.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}

. "$(dirname "$0")/bench-common.sh"

# --- fixtures: a minute of the voice-like signal, 60 times as raw PCM, encoded once ------------
# (BENCH_SMOKE: a "minute" of one second, 5 of them, the seek to the fourth.)
minute=$(scaled 60 1)
seg="$work/seg-44k-2.wav"
[ -f "$seg" ] || sox -q -n -r 44100 -c 2 -b 16 "$seg" synth "$minute" sine 150-900 synth "$minute" pinknoise mix vol 0.5
sixty_minutes() { for _ in $(seq "$(scaled 60 5)"); do sox -q "$seg" -t raw -; done; }
vorbis_60="$work/60min.ogg"
flac_60="$work/60min.flac"
if [ ! -f "$vorbis_60" ]; then
    log "making $vorbis_60"
    sixty_minutes | oggenc --quiet -r -R 44100 -C 2 -B 16 -q 2 -o "$vorbis_60.tmp" - && mv "$vorbis_60.tmp" "$vorbis_60"
fi
if [ ! -f "$flac_60" ]; then
    log "making $flac_60"
    sixty_minutes | flac --silent --force-raw-format --endian=little --sign=signed --channels=2 --bps=16 \
        --sample-rate=44100 -o "$flac_60.tmp" - && mv "$flac_60.tmp" "$flac_60"
fi

# The catch-all's formats, made by ffmpeg from the same hour of PCM.
wav_60="$work/60min.wav"
alac_60="$work/60min-alac.m4a"
opus_60="$work/60min-opus.webm"
if [ ! -f "$wav_60" ]; then
    log "making $wav_60"
    sixty_minutes | sox -q -t raw -r 44100 -c 2 -b 16 -e signed-integer - "$wav_60.tmp.wav" && mv "$wav_60.tmp.wav" "$wav_60"
fi
for made in "$alac_60:alac" "$opus_60:libopus"; do
    file=${made%%:*} codec=${made##*:}
    if [ ! -f "$file" ]; then
        log "making $file"
        ffmpeg -v error -y -i "$wav_60" -c:a "$codec" "${file%.*}.tmp.${file##*.}" && mv "${file%.*}.tmp.${file##*.}" "$file"
    fi
done

# --- measuring (measure, compare: bench-common.sh) -----------------------------------------------
# The references write 16-bit PCM to /dev/null; abplayer decodes to float into the null sink.
compare "Vorbis 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$vorbis_60" -- sh -c 'oggdec --quiet -o - "$1" > /dev/null' oggdec "$vorbis_60"
compare "FLAC 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$flac_60" -- sh -c 'flac --silent --decode --stdout "$1" > /dev/null' flac "$flac_60"

# The catch-all against ffmpeg itself (decoding to its null muxer, no output written).
for entry in "WAV:$wav_60" "ALAC:$alac_60" "WebM Opus:$opus_60"; do
    compare "${entry%%:*} 60 min decode, ffmpeg plugin (null sink, unpaced)" "<= 1.10" \
        "$abplayer" decode "${entry#*:}" -- ffmpeg -v error -i "${entry#*:}" -f null -
done

# Open + exact seek + one second decoded, per whole command (process start and plugin loading
# included), median of $runs.
seek_ms() { # file
    read -r wall _ _ <<<"$(measure "$abplayer" decode "$1" --from "$(scaled 0:59:00 0:00:03)" --to "$(scaled 0:59:01 0:00:04)")"
    echo "$wall * 1000" | bc | cut -d. -f1
}
printf '%-44s Vorbis %s ms, FLAC %s ms (target < 50 ms)\n' "Open 60 min + seek 0:59:00 + decode 1 s" \
    "$(seek_ms "$vorbis_60")" "$(seek_ms "$flac_60")"
printf '%-44s WAV %s ms, ALAC %s ms, WebM Opus %s ms (ffmpeg plugin)\n' "Open 60 min + seek 0:59:00 + decode 1 s" \
    "$(seek_ms "$wav_60")" "$(seek_ms "$alac_60")" "$(seek_ms "$opus_60")"
