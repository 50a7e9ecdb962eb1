#!/usr/bin/env bash
# Sync part of `make bench` (issue 17; called by scripts/bench.sh, runnable alone):
#  - merging 100 devices' journals of 10,000 books each (target < 1 s): a `sync now` with nothing
#    new (read, merge, apply), and `sync status` (the same merge, each book's place on the five
#    devices that listened last; `--all`, a million lines, is timed too),
#    on a 10,000-book library, against awk picking each device's newest place per book from the
#    same files (2 at a time, the machine's cores), and `cat` as the floor of reading them;
#  - CPU while playing with sync on (a sync folder holding those journals, nothing changing) and
#    off (target: the same; the folder is watched with inotify, not polled).
# Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-sync.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-sync.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
export ABPLAYER_PLUGIN_PATH=
big=$(synthetic_library "$abplayer")
work=$work/sync
mkdir -p "$work"
devices=$(scaled 100 3)

# --- the library and the journals, made once ----------------------------------------------------
# The synthetic library with its media given fingerprints shaped like real ones ("size:16 hex
# digits", 25 characters: the synthetic ones are shorter and would flatter the reader).
lib="$work/library.sqlite"
if [ ! -f "$lib" ]; then
    log "making $lib"
    rm -f "$lib.tmp"
    sqlite3 "$big" ".backup '$lib.tmp'"
    sqlite3 "$lib.tmp" "UPDATE media SET fingerprint = printf('%d:%016x', size, id * 2654435761)"
    mv "$lib.tmp" "$lib"
fi

# 100 devices' journals in the real format, each naming all 10,000 books (their B lines carry the
# library's fingerprints, so every book matches by content): one place per book, a finished mark
# for one book in ten, a bookmark for one in fifty (and one in four hundred removed). Most are
# compacted (one place a book); one device in ten has a long journal, not compacted yet: ten
# more places for each book, written over a week.
journals="$work/journals"
if [ ! -f "$journals/.done" ]; then
    log "making $devices journals of 10,000 books in $journals"
    rm -rf "$journals" && mkdir -p "$journals"
    python3 - "$lib" "$journals" "$devices" <<'PY'
import os, random, sqlite3, sys, uuid
db, folder, devices = sqlite3.connect(sys.argv[1]), sys.argv[2], int(sys.argv[3])
items, books = {}, []
for book, fingerprint, frames, rate in db.execute(
        "SELECT bookItem.bookId, media.fingerprint, media.durationFrames, media.sampleRate FROM bookItem"
        " JOIN media ON media.id = bookItem.mediaId ORDER BY bookItem.bookId, bookItem.position"):
    items.setdefault(book, []).append((fingerprint, frames, rate))
for book, title, author in db.execute("SELECT id, title, ifnull(author, '') FROM book ORDER BY id"):
    books.append((title, author, items[book]))
def reference(fingerprints, title):   # SyncJournalFormat.reference: FNV-1a 64 in base 36
    h = 0xcbf29ce484222325
    for byte in (",".join(fingerprints) + "\t" + title).encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    digits = ""
    while True:
        h, r = divmod(h, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
        if h == 0: return digits
lines = []
for title, author, its in books:
    fingerprints = [f for f, _, _ in its]
    ref = reference(fingerprints, title)
    seconds = "%.3f" % sum(frames / rate for _, frames, rate in its)
    lines.append((ref, "\t".join(["B", ref, title, author, seconds, ",".join(fingerprints)]) + "\n", len(its)))
now = 1_764_000_000_000
for d in range(devices):
    rng = random.Random(d)
    device = f"BNCH-{d:04d}"
    out = [f"abplayer-journal\t1\t{device}\tbench-host-{d}\n"]
    for ref, bline, count in lines:
        at = now - rng.randrange(90 * 86_400_000)
        out.append(bline)
        out.append(f"P\t{ref}\t{at}\t{rng.randrange(count)}\t{rng.randrange(44100 * 600)}\n")
        if rng.random() < 0.1:
            out.append(f"F\t{ref}\t{at + 1000}\t{rng.randrange(2)}\n")
        if rng.random() < 0.02:
            mark = str(uuid.UUID(int=rng.getrandbits(128)))
            out.append(f"M\t{ref}\t{at}\t{mark}\t{rng.randrange(count)}\t{rng.randrange(44100 * 600)}\tuser\t{at}\tnote {d}\n")
            if rng.random() < 0.125:
                out.append(f"R\t{ref}\t{at + 5000}\t{mark}\n")
    if d % 10 == 0:
        for _ in range(10):
            for ref, _, count in lines:
                at = now - rng.randrange(7 * 86_400_000)
                out.append(f"P\t{ref}\t{at}\t{rng.randrange(count)}\t{rng.randrange(44100 * 600)}\n")
    with open(os.path.join(folder, device + ".abplayer-journal"), "w") as f:
        f.write("".join(out))
PY
    touch "$journals/.done"
fi
size=$(du -sm "$journals" | cut -f1)
lines=$(cat "$journals"/*.abplayer-journal | wc -l)

# A library syncing through FOLDER: a copy of the 10,000-book one. Its own journal goes to FOLDER
# too, so FOLDER is a copy of the journals (hard links: no device writes another's file).
# BINARY (default: this build) sets it up, after SQL: the library was made by this build, in its
# schema, which an older build refuses to open until the newer migrations are undone.
syncing_library() { # name folder [binary sql]
    rm -rf "$work/$1.sqlite"* "$2"
    mkdir -p "$2" && ln "$journals"/*.abplayer-journal "$2"/
    cp "$lib" "$work/$1.sqlite"
    [ -z "${4:-}" ] || sqlite3 "$work/$1.sqlite" "$4"
    "${3:-$abplayer}" sync dir --library "$work/$1.sqlite" "$2" >/dev/null
    echo "$work/$1.sqlite"
}

# --- merging: sync status and sync now against awk and cat ------------------------------------------
echo "sync: $devices journals of 10,000 books ($size MiB, $lines lines; 10 long ones), a 10,000-book library"
status_lib=$(syncing_library status "$work/status-folder")
now_lib=$(syncing_library now "$work/now-folder")
# The first exchange takes 10,000 places from the other devices, the second writes them to this
# library's journal; from then on an exchange has nothing new (as when the player is told a
# journal changed that says nothing new to it).
read -r first_wall _ _ <<<"$(runs=1 measure "$abplayer" sync now --library "$now_lib")"
"$abplayer" sync now --library "$now_lib" >/dev/null

# The same reading done the most direct way: each device's newest place per book (awk, two files
# at a time: the machine's cores).
newest_places() {
    printf '%s\0' "$1"/*.abplayer-journal | LC_ALL=C xargs -0 -P 2 -n $(( (devices + 1) / 2 )) awk -F '\t' '
        $1 == "P" { key = FILENAME SUBSEP $2; if (!(key in at) || $3 >= at[key]) { at[key] = $3; place[key] = $4 " " $5 } }
        END { print length(at) }' >/dev/null
}
export -f newest_places
export devices
# sync status is the same merge, then each book's place here and on the 5 devices that listened
# last (70,001 lines here; --all prints all 1,010,001, timed below).
compare "sync status: $devices journals merged, each book's place here and on the 5 devices that listened last (target < 1 s)" "< 1 s" \
    "$abplayer" sync status --library "$status_lib" -- bash -c "newest_places '$work/status-folder'"
compare "sync now, nothing new: $devices journals merged and applied (target < 1 s)" "< 1 s" \
    "$abplayer" sync now --library "$now_lib" -- bash -c "newest_places '$work/now-folder'"
# The same exchange by the previous landing's binary, in this run (the journal reader's checks
# against hostile folders must not cost the merge its figure).
if baseline=$(baseline_abplayer); then
    # v13, how this library left its journal, came after 93c3d8d: undone for a baseline without it.
    undo=
    baseline_has v13-sync-journal-mark ||
        undo="ALTER TABLE syncState DROP COLUMN journalMark; DELETE FROM grdb_migrations WHERE identifier = 'v13-sync-journal-mark'"
    base_lib=$(syncing_library baseline-now "$work/baseline-now-folder" "$baseline" "$undo")
    "$baseline" sync now --library "$base_lib" >/dev/null 2>&1 || true
    "$baseline" sync now --library "$base_lib" >/dev/null 2>&1 || true
    compare "sync now, nothing new: this build against $baseline_commit (the previous landing)" "<= 1.05" \
        "$abplayer" sync now --library "$now_lib" -- "$baseline" sync now --library "$base_lib"
fi
read -r cat_wall cat_cpu _ <<<"$(measure bash -c "cat '$work/status-folder'/*.abplayer-journal >/dev/null")"
read -r all_wall _ _ <<<"$(measure "$abplayer" sync status --all --library "$status_lib")"
printf '  (the first sync now, taking 10,000 places: %.2fs wall; sync status --all, every device in every book: %.2fs wall;\n   cat of the journals, the floor of reading them: %.2fs wall %.2fs cpu)\n' \
    "$first_wall" "$all_wall" "$cat_wall" "$cat_cpu"

# --- CPU while playing, sync on and off -----------------------------------------------------------
# A 60 s book in a small library of its own; with sync on, its folder holds the 100 journals and
# nothing changes there. The player's CPU is read from /proc over 20 s of playing, from 10 s after
# 'play' (so the exchange a player makes when it starts is over); that exchange is shown apart.
# (BENCH_SMOKE: over 1 s, from 1 s after.)
settle=$(scaled 10 1)
window=$(scaled 20 1)
book="$work/play-book"
play_lib="$work/play-library.sqlite"
if [ ! -f "$play_lib" ]; then
    rm -rf "$book" "$play_lib"* && mkdir -p "$book"
    sox -q -n -r 44100 -c 2 -b 16 "$work/play-60s.wav" synth 60 sine 150-900 synth 60 pinknoise mix vol 0.5
    lame --quiet -V 4 "$work/play-60s.wav" "$book/book.mp3"
    "$abplayer" import --library "$play_lib" "$book" >/dev/null
fi
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }   # utime + stime, after the name (no spaces in it)
playing_cpu() { # library; prints the player's CPU seconds over 20 s of playing, and over its first 10 s
    local pid start before after
    { echo 'play book'; echo 'seek 0'; sleep $((settle + window + 2)); echo quit; } | "$abplayer" --library "$1" --output null >/dev/null 2>&1 &
    pid=$!
    sleep "$settle"; before=$(cpu_ticks "$pid")
    sleep "$window"; after=$(cpu_ticks "$pid")
    wait "$pid" || true
    echo "scale=2; ($after - $before) / $ticks" | bc
    echo "scale=2; $before / $ticks" | bc >>"$work/play-start.out"
}
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
cp "$play_lib" "$work/play-off.sqlite"
rm -rf "$work/play-folder" && mkdir -p "$work/play-folder" && ln "$journals"/*.abplayer-journal "$work/play-folder"/
cp "$play_lib" "$work/play-on.sqlite"
"$abplayer" sync dir --library "$work/play-on.sqlite" "$work/play-folder" >/dev/null
rm -f "$work/play-start.out"
off=$(for _ in $(seq "$runs"); do playing_cpu "$work/play-off.sqlite"; done | median)
off_start=$(median <"$work/play-start.out"); rm -f "$work/play-start.out"
on=$(for _ in $(seq "$runs"); do playing_cpu "$work/play-on.sqlite"; done | median)
on_start=$(median <"$work/play-start.out")
printf '%s\n  sync off %6.2fs cpu | sync on %6.2fs cpu\n  ratio: cpu %s (target ~1.00); the first 10 s, start-up and the exchange at start: off %.2fs, on %.2fs cpu\n' \
    "20 s real-time play (null output), CPU of the player, nothing changing in the sync folder" "$off" "$on" "$(ratio "$on" "$off")" \
    "$off_start" "$on_start"
