#!/usr/bin/env bash
# Measuring a book's loudness (EBU R128, libebur128 through abplayer's decoders) against ffmpeg's
# ebur128 filter on the same files: a 10-hour book of ten copies of a one-hour MP3. Prints times,
# the ratio and "x realtime" (target: >= 200x); asserts nothing.
#
# usage: scripts/bench-loudness.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-loudness.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
runs=${BENCH_RUNS:-1}
. "$(dirname "$0")/bench-common.sh"
mkdir -p "$work"

# The same 60-minute MP3 as bench.sh (a voice-like glide with noise, VBR), made here if missing;
# the book is ten copies of it, each with an ID3v1 tag of its own (the library knows files by
# content: ten identical files would be one).
mp3="$work/60min.mp3"
# (BENCH_SMOKE: 5 "minutes" of one second.)
if [ ! -f "$mp3" ]; then
    minute=$(scaled 60 1)
    [ -f "$work/seg-44k-2.wav" ] || sox -q -n -r 44100 -c 2 -b 16 "$work/seg-44k-2.wav" synth "$minute" sine 150-900 synth "$minute" pinknoise mix vol 0.5
    [ -f "$work/dsp-one-minute.mp3" ] || lame --quiet -t -V 4 "$work/seg-44k-2.wav" "$work/dsp-one-minute.mp3"
    for _ in $(seq "$(scaled 60 5)"); do cat "$work/dsp-one-minute.mp3"; done > "$mp3.tmp" && mv "$mp3.tmp" "$mp3"
fi
book="$work/loudness-10h"
parts=$(scaled 10 3)
if [ ! -f "$book/.done" ]; then
    log "making $book ($parts x 1 h)"
    rm -rf "$book" && mkdir -p "$book"
    for n in $(seq -w 1 "$parts"); do
        # An ID3v1 tag with the part's number: ten files with ten fingerprints.
        { cat "$mp3"; printf 'TAG%-30s%-30s%-30s%-4s%-30s\377' "Part $n" "Bench" "Loudness" "2024" ""; } > "$book/part$n.mp3"
    done
    touch "$book/.done"
fi
library="$work/loudness-bench.sqlite"
rm -f "$library" "$library"-*
"$abplayer" import --library "$library" "$book" >/dev/null

seconds=$(scaled 36000 15)
files=("$book"/part*.mp3)
# ffmpeg reads the ten files as one programme (concat), as abplayer measures the book.
list="$work/loudness-10h.txt"
printf "file '%s'\n" "${files[@]}" > "$list"

# True peak (libebur128 oversamples 4x) costs about 2.5 times the loudness alone; it is what the
# player measures, since 250x real time (measured here) is under a minute of one core per 4 hours
# of book, in the background. `--sample-peak` is the cheaper figure; the limiter keeps the output
# under -1 dBTP whichever was stored. Sample peak first: the true-peak run's figures stay stored.
read -r sw sc _ <<<"$(measure "$abplayer" loudness measure --sample-peak --library "$library" "#1")"
read -r aw ac _ <<<"$(measure "$abplayer" loudness measure --library "$library" "#1")"
read -r fw fc _ <<<"$(measure ffmpeg -v error -nostats -f concat -safe 0 -i "$list" -af ebur128=peak=true -f null -)"
read -r fiw fic _ <<<"$(measure ffmpeg -v error -nostats -f concat -safe 0 -i "$list" -af ebur128 -f null -)"

realtime() { if [ "$(echo "$1 == 0" | bc)" = 1 ]; then echo "n/a"; else echo "scale=0; $seconds / $1" | bc; fi; }
echo "Loudness: a 10 h book (10 x 1 h MP3, 44.1 kHz stereo), $runs run(s) each, medians"
printf '  abplayer loudness measure (true peak)   %7.2fs wall %7.2fs cpu  %5sx realtime (target >= 200x)\n' "$aw" "$ac" "$(realtime "$aw")"
printf '  abplayer loudness measure --sample-peak %7.2fs wall %7.2fs cpu  %5sx realtime\n' "$sw" "$sc" "$(realtime "$sw")"
printf '  ffmpeg -af ebur128=peak=true            %7.2fs wall %7.2fs cpu  %5sx realtime\n' "$fw" "$fc" "$(realtime "$fw")"
printf '  ffmpeg -af ebur128 (no peak)            %7.2fs wall %7.2fs cpu  %5sx realtime\n' "$fiw" "$fic" "$(realtime "$fiw")"
printf '  ratio abplayer/ffmpeg with true peak: wall %s, cpu %s\n' "$(ratio "$aw" "$fw")" "$(ratio "$ac" "$fc")"
sqlite3 "$library" "SELECT printf('  stored: %.1f LUFS, true peak %.1f dBTP', integratedLUFS, peakDBTP) FROM bookLoudness"
