#!/usr/bin/env bash
# Playback-modes part of `make bench`: what the sleep timer costs and how exactly it stops,
# against mpv doing the nearest thing (--end), side by side in one run; and the queue commands on
# a 10,000-book library against sqlite3. Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-playback.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-playback.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
export ABPLAYER_PLUGIN_PATH=

ratio() {
    if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "n/a (reference < 0.01 s)"; else echo "scale=3; $1 / $2" | bc; fi
}

# A 60 s book (a gliding tone with noise) with chapters at 0 and 20 s, in its own library.
book="$work/playback-book"
lib="$work/playback-library.sqlite"
if [ ! -f "$lib" ]; then
    rm -rf "$book" "$lib"*
    mkdir -p "$book"
    sox -q -n -r 44100 -c 2 -b 16 "$work/playback-60s.wav" synth 60 sine 150-900 synth 60 pinknoise mix vol 0.5
    printf ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=20000\ntitle=One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=20000\nEND=60000\ntitle=Two\n' >"$work/playback-chapters.txt"
    lame --quiet -b 128 "$work/playback-60s.wav" "$work/playback-plain.mp3"
    ffmpeg -v error -y -i "$work/playback-plain.mp3" -i "$work/playback-chapters.txt" -map 0 -map_chapters 1 -c copy -id3v2_version 3 "$book/book.mp3"
    "$abplayer" import --library "$lib" "$book" >/dev/null
fi
mp3="$book/book.mp3"
seconds() { soxi -D "$1" 2>/dev/null; }

# The REPL fed commands on a pipe with real time after them: `repl WAIT OUTPUT CMD...` types the
# commands, waits WAIT seconds, then quits.
repl() {
    local wait=$1 output=$2; shift 2
    { printf '%s\n' "$@"; sleep "$wait"; echo quit; } | "$abplayer" --library "$lib" --output "$output" >/dev/null 2>&1
}
export -f repl
export abplayer lib

# BENCH_SMOKE: a 1 s timer, 'sleep chapter' 1 s before the boundary.
timer=$(scaled 0:12 0:01)
play_for=$(scaled 13 2)
wav_for=$(scaled 14 2)
chapter_from=$(scaled 15 19)
chapter_for=$(scaled 7 2)

echo "playback modes"

# CPU while playing 13 s in real time with a 12 s sleep timer (10 s fade) vs mpv playing 13 s.
read -r ow oc orss <<<"$(runs=1 measure bash -c "repl $play_for null 'play book' 'seek 0' 'sleep $timer'")"
read -r rw rc rrss <<<"$(runs=1 measure mpv --no-config --really-quiet --ao=null --end="$play_for" "$mp3")"
printf '%s\n  abplayer %6.2fs wall %6.2fs cpu %6d KiB | %-8s %6.2fs wall %6.2fs cpu %6d KiB\n  ratio: cpu %s (informational)\n' \
    "13 s real-time play with 'sleep 0:12' (fade) vs mpv --end=13 (null output)" "$ow" "$oc" "$orss" mpv "$rw" "$rc" "$rrss" "$(ratio "$oc" "$rc")"

# How exactly playback stops: the length of what was written to a wav file.
out="$work/playback-out.wav"
rm -f "$out"
repl "$wav_for" "wav:$out" 'play book' 'seek 0' "sleep $timer"
timed=$(seconds "$out")
rm -f "$out"
repl "$chapter_for" "wav:$out" 'play book' "seek 0:$chapter_from" 'sleep chapter'
chapter=$(seconds "$out")
mpv --no-config --really-quiet --start="$chapter_from" --end=20 --ao=pcm --ao-pcm-file="$work/playback-mpv.wav" "$mp3" >/dev/null 2>&1 || true
mpv_chapter=$(seconds "$work/playback-mpv.wav")
printf '%-60s %s s heard (asked 12.000: 2 s full, then a 10 s fade)\n' "'sleep 0:12' to a wav file" "$timed"
printf '%-60s abplayer %s s | mpv --start=15 --end=20 %s s (exact: 5.000)\n' "'sleep chapter' from 0:15, chapter boundary at 20 s" "$chapter" "$mpv_chapter"

# The queue on a 10,000-book library: a REPL run that queues a book and lists the queue.
big=$(synthetic_library "$abplayer")
cp "$big" "$work/playback-queue.sqlite"
read -r ow oc orss <<<"$(measure "$abplayer" --library "$work/playback-queue.sqlite" -c "queue add \"$last_book\"; queue; queue rm 1")"
read -r rw rc rrss <<<"$(measure sqlite3 "$work/playback-queue.sqlite" "INSERT INTO queueEntry VALUES ((SELECT id FROM book WHERE title = '$last_book'), 0); SELECT book.title FROM queueEntry JOIN book ON book.id = bookId ORDER BY position; DELETE FROM queueEntry;")"
printf '%s\n  abplayer %6.2fs wall %6.2fs cpu %6d KiB | %-8s %6.2fs wall %6.2fs cpu %6d KiB\n  ratio: wall %s, cpu %s (informational)\n' \
    "REPL -c 'queue add; queue; queue rm 1' on 10,000 books (start to exit)" "$ow" "$oc" "$orss" sqlite3 "$rw" "$rc" "$rrss" "$(ratio "$ow" "$rw")" "$(ratio "$oc" "$rc")"
rm -f "$work/playback-queue.sqlite"*
