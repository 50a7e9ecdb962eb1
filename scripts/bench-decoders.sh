#!/usr/bin/env bash
# Vorbis and FLAC part of `make bench`: abplayer's vorbisfile and flac plugins against the
# reference command-line decoders on the same libraries (oggdec: libvorbisfile; flac -d: libFLAC),
# side by side in one run, and the cost of opening a 60-minute file and seeking near its end.
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

# --- measuring (measure, compare: bench-common.sh) -----------------------------------------------
# The references write 16-bit PCM to /dev/null; abplayer decodes to float into the null sink.
compare "Vorbis 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$vorbis_60" -- sh -c 'oggdec --quiet -o - "$1" > /dev/null' oggdec "$vorbis_60"
compare "FLAC 60 min decode (null sink, unpaced)" "<= 1.05" \
    "$abplayer" decode "$flac_60" -- sh -c 'flac --silent --decode --stdout "$1" > /dev/null' flac "$flac_60"

# Open + exact seek + one second decoded, per whole command (process start and plugin loading
# included), median of $runs.
seek_ms() { # file
    read -r wall _ _ <<<"$(measure "$abplayer" decode "$1" --from "$(scaled 0:59:00 0:00:03)" --to "$(scaled 0:59:01 0:00:04)")"
    echo "$wall * 1000" | bc | cut -d. -f1
}
printf '%-44s Vorbis %s ms, FLAC %s ms (target < 50 ms)\n' "Open 60 min + seek 0:59:00 + decode 1 s" \
    "$(seek_ms "$vorbis_60")" "$(seek_ms "$flac_60")"
