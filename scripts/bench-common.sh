# Shared by scripts/bench*.sh (sourced, not run). Needs $work (a scratch directory) and $runs.
#
# BENCH_SMOKE=1 (scripts/bench-smoke.sh, part of `make test`): every script on tiny inputs (seconds
# of audio, a handful of books), to show it still runs to its end; its figures mean nothing. A
# script picks its sizes with `scaled FULL SMOKE`; under BENCH_SMOKE a measured command that fails
# is reported (in the full run its cost is shown all the same).

# set -e inside $(...) too (bash runs command substitutions without it otherwise), and a failure
# says where: "bench-failure: SCRIPT line N: exit S: COMMAND", the innermost frame first.
shopt -s inherit_errexit
set -E
bench_failure() { # status line command
    printf 'bench-failure: %s line %s: exit %s: %s\n' "$(basename "${BASH_SOURCE[1]}")" "$2" "$1" "$3" >&2
}
trap 'bench_failure $? "$LINENO" "$BASH_COMMAND"' ERR

smoke=${BENCH_SMOKE:-0}
scaled() { # full smoke: prints FULL, or SMOKE under BENCH_SMOKE=1
    if [ "$smoke" = 1 ]; then echo "$2"; else echo "$1"; fi
}

log() { printf '%s\n' "$*" >&2; }

# Runs a command $runs times (standard input /dev/null); prints "median-wall median-cpu
# max-rss-KiB". A failing run is still measured: the figures say what it cost.
measure() {
    local walls=() cpus=() rss=0 report="$work/time.out" errors=/dev/null status
    [ "$smoke" = 1 ] && errors="$work/measure.err"
    for _ in $(seq "$runs"); do
        status=0
        /usr/bin/time -o "$report" -f '%e %U %S %M' "$@" </dev/null >/dev/null 2>"$errors" || status=$?
        if [ "$smoke" = 1 ] && [ "$status" != 0 ]; then
            measured_failure "$status" "$*"
        fi
        # The figures are the report's last line: a failing command's report starts with "Command
        # exited with non-zero status N".
        read -r wall user sys kib < <(tail -n 1 "$report")
        walls+=("$wall"); cpus+=("$(echo "$user + $sys" | bc)")
        [ "$kib" -gt "$rss" ] && rss=$kib
    done
    printf '%s %s %s\n' "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" \
        "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "$rss"
}

# Where a measured command failed: the first frame outside this file (measure may be called by
# compare), and the end of what the command said.
measured_failure() { # status command
    local frame=1
    while [ "$(basename "${BASH_SOURCE[$frame]}")" = bench-common.sh ]; do frame=$((frame + 1)); done
    printf 'bench-failure: %s line %s: measured command exited %s: %s\n' \
        "$(basename "${BASH_SOURCE[$frame]}")" "${BASH_LINENO[$((frame - 1))]}" "$1" "$2" >&2
    tail -n 5 "$work/measure.err" | sed 's/^/    /' >&2
}

# Ratio of two times; the reference (sqlite3) often finishes within /usr/bin/time's 10 ms.
ratio() {
    if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "n/a (reference < 0.01 s)"; else echo "scale=3; $1 / $2" | bc; fi
}
compare() { # title target ours... -- reference...
    local title=$1 target=$2; shift 2
    local ours=() ref=()
    while [ "$1" != "--" ]; do ours+=("$1"); shift; done; shift; ref=("$@")
    read -r ow oc orss <<<"$(measure "${ours[@]}")"
    read -r rw rc rrss <<<"$(measure "${ref[@]}")"
    printf '%s\n  abplayer %6.2fs wall %6.2fs cpu %6d KiB | %-8s %6.2fs wall %6.2fs cpu %6d KiB\n  ratio: wall %s, cpu %s (target %s)\n' \
        "$title" "$ow" "$oc" "$orss" "$(basename "${ref[0]}")" "$rw" "$rc" "$rrss" "$(ratio "$ow" "$rw")" "$(ratio "$oc" "$rc")" "$target"
}

# A library of 10,000 synthetic books ("Book 0" to $last_book) of 20 items each, made once and kept
# in $work; prints its path.
library_books=$(scaled 10000 50)
last_book="Book $((library_books - 1))"
synthetic_library() { # abplayer
    local big="$work/console-10000-books.sqlite"
    if [ ! -f "$big" ]; then
        rm -f "$big.tmp"
        "$1" debug-generate-library --library "$big.tmp" --books "$library_books" --items 20 >&2
        mv "$big.tmp" "$big"; rm -f "$big.tmp"-*
    fi
    echo "$big"
}

# A tree of tagged MP3s made once in $work/tree: AUTHORS x BOOKS x DISCS x 10 chapters, each file the
# same one-second clip (encoded once) behind its own ID3v2.3 tag (title, artist, album, track, and
# disc when DISCS > 1), written by a few lines of Python rather than re-encoding every file. With
# one disc a book's files sit in the book's folder, else in CD1, CD2...
tagged_mp3_tree() { # authors books discs
    tree="$work/tree"
    [ -f "$tree/.done" ] && return
    log "making $(($1 * $2 * $3 * 10)) tagged MP3s in $tree"
    rm -rf "$tree" && mkdir -p "$tree"
    sox -q -n -r 22050 -c 1 "$work/clip.wav" synth 1 sine 440 vol 0.3
    lame --quiet -V 9 "$work/clip.wav" "$work/clip.mp3"
    python3 - "$work/clip.mp3" "$tree" "$1" "$2" "$3" <<'PY'
import os, struct, sys
clip = open(sys.argv[1], "rb").read()
root = sys.argv[2]
authors, books, discs = (int(n) for n in sys.argv[3:6])
def frame(fid, text):
    body = b"\x01" + "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")   # UTF-16 with BOM
    return fid.encode() + struct.pack(">I", len(body)) + b"\x00\x00" + body
def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
for a in range(authors):
    for b in range(books):
        for d in range(1, discs + 1):
            folder = os.path.join(root, f"Author {a:02d}", f"Book {b} — «Title»", *([f"CD{d}"] if discs > 1 else []))
            os.makedirs(folder, exist_ok=True)
            for c in range(1, 11):
                frames = [frame("TIT2", f"Chapter {c}"), frame("TPE1", f"Author {a:02d}"),
                          frame("TALB", f"Book {a}-{b}"), frame("TRCK", f"{c}/10")]
                if discs > 1:
                    frames.append(frame("TPOS", f"{d}/{discs}"))
                body = b"".join(frames)
                tag = b"ID3\x03\x00\x00" + syncsafe(len(body)) + body
                with open(os.path.join(folder, f"Chapter {c}.mp3"), "wb") as f:
                    f.write(tag + clip)
PY
    touch "$tree/.done"
}

# The previous landing's abplayer, for figures compared in the same run (BENCH_BASELINE=commit
# names another): built once into the bench folder's baseline-COMMIT as that commit's own `make bench` built
# it (its scripts/build-release.sh when it has one, else `swift build -c release`). Prints its
# path; fails when the commit is not in this checkout's history. BENCH_BASELINE=self: this build
# itself ($bin_dir's), nothing built (the smoke run's).
# 7550a15: the landing before the player service (issue 30), whose faces must not be slower.
baseline_commit=${BENCH_BASELINE:-7550a15}
# Whether the baseline's sources contain TEXT (a migration's name, say); this build's do.
baseline_has() { # text
    [ "$baseline_commit" = self ] && return 0
    git -C "$(dirname "${BASH_SOURCE[0]}")/.." grep -q -F "$1" "$baseline_commit" -- Sources
}
baseline_abplayer() {
    local repo dir
    if [ "$baseline_commit" = self ]; then echo "$bin_dir/abplayer"; return; fi
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    dir="${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/baseline-$baseline_commit"
    if [ ! -x "$dir/.build/release/abplayer" ]; then
        git -C "$repo" cat-file -e "$baseline_commit^{commit}" 2>/dev/null || return 1
        log "building the baseline $baseline_commit (release, once; kept in $dir)"
        rm -rf "$dir" && mkdir -p "$dir"
        git -C "$repo" archive "$baseline_commit" | tar -x -C "$dir"
        if [ -x "$dir/scripts/build-release.sh" ]; then
            (cd "$dir" && scripts/build-release.sh >&2)
        else
            (cd "$dir" && swift build -c release >&2)
        fi
    fi
    echo "$dir/.build/release/abplayer"
}
