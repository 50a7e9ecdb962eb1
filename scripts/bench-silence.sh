#!/usr/bin/env bash
# Skip silence: CPU cost of playing a narrated book with skip silence on against plain playback,
# decoding as fast as possible to a WAV file on /dev/null, in the same run. The book: espeak-ng
# phrases with pauses of 0.3 to 5 s between them (made by sox), about 30 minutes as one MP3.
# Prints figures and the ratio (target: at most 1.3x); asserts nothing.
#
# usage: scripts/bench-silence.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-silence.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
mkdir -p "$work"

book="$work/narration-30min.mp3"
if [ ! -f "$book" ]; then
    log "making $book"
    parts=()
    gaps=(0.3 1.0 2.5 5.0 0.5 0.8)
    for i in 0 1 2 3 4 5; do
        espeak-ng -w "$work/silence-bench-phrase-$i.wav" "Chapter $i. The ship left the harbour at dawn, and nobody on board had slept."
        sox -q -n -r 22050 -c 1 -b 16 "$work/silence-bench-gap-$i.wav" trim 0 "${gaps[$i]}"
        parts+=("$work/silence-bench-phrase-$i.wav" "$work/silence-bench-gap-$i.wav")
    done
    sox -q "${parts[@]}" "$work/silence-bench-minute.wav"
    # Repeated to about 30 minutes (BENCH_SMOKE: 20 s), resampled to 44.1 kHz stereo like most audiobooks.
    seconds=$(soxi -D "$work/silence-bench-minute.wav")
    copies=$(echo "$(scaled 1800 20) / $seconds + 1" | bc)
    sox -q "$work/silence-bench-minute.wav" -r 44100 -c 2 "$work/silence-bench-book.wav" repeat "$((copies - 1))"
    lame --quiet -V 4 "$work/silence-bench-book.wav" "$book.tmp" && mv "$book.tmp" "$book"
fi
# soxi reads no MP3 here: the length is the WAV's it was encoded from.
minutes=$(echo "$(soxi -D "$work/silence-bench-book.wav") / 60" | bc)

read -r pw pc _ <<<"$(measure "$abplayer" play --output wav:/dev/null "$book")"
read -r sw sc _ <<<"$(measure "$abplayer" play --output wav:/dev/null --skip-silence on "$book")"
read -r s15w s15c _ <<<"$(measure "$abplayer" play --output wav:/dev/null --speed 1.5 "$book")"
read -r ss15w ss15c _ <<<"$(measure "$abplayer" play --output wav:/dev/null --speed 1.5 --skip-silence on "$book")"

# Both listening features of issue 16 at once, as a library book plays them with `listen`:
# skip silence and even loudness (its gain and limiter; the measure taken before, not timed)
# against the same book with both off.
library="$work/silence-bench-library.sqlite"
if [ ! -f "$library" ]; then
    mkdir -p "$work/silence-bench-books/Narration"
    cp "$book" "$work/silence-bench-books/Narration/narration.mp3"
    "$abplayer" import --library "$library" "$work/silence-bench-books/Narration" >/dev/null
    "$abplayer" loudness measure --library "$library" Narration >/dev/null
fi
"$abplayer" book settings --library "$library" Narration --loudness off --skip-silence off >/dev/null
read -r lpw lpc _ <<<"$(measure "$abplayer" listen --library "$library" --output wav:/dev/null,paced=false Narration)"
"$abplayer" book settings --library "$library" Narration --loudness on --skip-silence on >/dev/null
read -r lbw lbc _ <<<"$(measure "$abplayer" listen --library "$library" --output wav:/dev/null,paced=false Narration)"

echo "skip silence: ${minutes} min narration MP3, unpaced, $runs runs each, medians"
printf '  plain               %6.2fs wall %6.2fs cpu\n' "$pw" "$pc"
printf '  skip silence        %6.2fs wall %6.2fs cpu   cpu x%s (target <= 1.3)\n' "$sw" "$sc" "$(ratio "$sc" "$pc")"
printf '  speed 1.5           %6.2fs wall %6.2fs cpu\n' "$s15w" "$s15c"
printf '  speed 1.5 + skip    %6.2fs wall %6.2fs cpu   cpu x%s over speed 1.5\n' "$ss15w" "$ss15c" "$(ratio "$ss15c" "$s15c")"
printf '  listen, both off    %6.2fs wall %6.2fs cpu\n' "$lpw" "$lpc"
printf '  listen, skip silence + loudness on  %6.2fs wall %6.2fs cpu   cpu x%s (target <= 1.3)\n' "$lbw" "$lbc" "$(ratio "$lbc" "$lpc")"
