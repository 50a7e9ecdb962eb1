#!/usr/bin/env bash
# Library-screen part of `make bench` (called by scripts/bench.sh; runnable alone), on a
# generated library of 10,000 books / 200,000 items, 50 of them in progress:
#  - the time from typing `library` at the prompt to the screen drawn (target < 100 ms), at
#    80x24 and 120x40;
#  - the time from a key (j, PgDn, a search letter) to the screen redrawn (target < 16 ms);
#  - next to cmus on 10,000 tagged files: switching to its sorted library view (2) and moving in
#    it (j), measured the same way.
# Everything runs in tmux (a real pseudo-terminal) and is read from outside with capture-pane,
# polled as fast as tmux answers; the "floor" is what that costs on its own (a letter echoed at
# the prompt). Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-library-screen.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-library-screen.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/library-screen
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
keys=${BENCH_KEYS:-$(scaled 15 2)}
# BENCH_SMOKE: 50 books, every 10th in progress; cmus on 40 files; 80x24 only.
in_progress_every=$(scaled 200 10)
cmus_authors=$(scaled 100 2)
cmus_albums=$(scaled 10 2)
cmus_files=$((cmus_authors * cmus_albums * 10))
socket="$work/tmux.sock"
tmux_() { tmux -S "$socket" "$@"; }
export ABPLAYER_PLUGIN_PATH= NO_COLOR= TERM=xterm-256color LANG=C.UTF-8 XDG_STATE_HOME="$work/state"

library="$work/big.sqlite"
if [ ! -f "$library" ]; then
    log "generating a library of 10,000 books / 200,000 items"
    rm -f "$library.tmp"*
    "$abplayer" debug-generate-library --library "$library.tmp" --books "$library_books" --items 20 >/dev/null
    # Every 200th book in progress, in its second item: the screen lists those first.
    sqlite3 "$library.tmp" "INSERT INTO position (bookId, mediaId, frame, updatedAt)
        SELECT bookId, mediaId, 44100 * 60, '2026-01-01 00:00:00.000' FROM bookItem WHERE position = 1 AND bookId % $in_progress_every = 0"
    mv "$library.tmp" "$library"; rm -f "$library.tmp"-*
fi

now_us() { echo $(( $(date +%s%N) / 1000 )); }
# Microseconds from sending keys until the screen shows TEXT; -1 after 10 s.
until_shows() { # text keys...
    local text=$1; shift
    local start; start=$(now_us)
    tmux_ send-keys "$@"
    until tmux_ capture-pane -p | grep -qF -- "$text"; do
        [ $(( $(now_us) - start )) -gt 10000000 ] && { echo -1; return; }
    done
    echo $(( $(now_us) - start ))
}
# Microseconds from sending keys until the screen (colours included) is no longer what it was.
until_changed() { # keys...
    local before; before=$(tmux_ capture-pane -p -e)
    local start; start=$(now_us)
    tmux_ send-keys "$@"
    while [ "$(tmux_ capture-pane -p -e)" = "$before" ]; do
        [ $(( $(now_us) - start )) -gt 10000000 ] && { echo -1; return; }
    done
    echo $(( $(now_us) - start ))
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : -1) }'; }
ms() { echo "scale=1; $1 / 1000" | bc; }
wait_shows() { # text seconds
    local deadline=$(( $(date +%s) + $2 ))
    until tmux_ capture-pane -p | grep -qF -- "$1"; do
        [ "$(date +%s)" -ge "$deadline" ] && { log "never showed: $1"; return 1; }
        sleep 0.05
    done
}

# --- abplayer ---------------------------------------------------------------------------------------
abplayer_screen() { # columns rows
    tmux_ kill-server 2>/dev/null || true
    tmux_ new-session -d -x "$1" -y "$2" "exec '$abplayer' --output null --library '$library'"
    wait_shows 'abplayer />' 20
    local floor=() open=() j=() page=() search=()
    for _ in $(seq "$runs"); do
        floor+=("$(until_changed x)"); tmux_ send-keys BSpace; sleep 0.2
        open+=("$(until_shows "$library_books books" library Enter)")
        for _ in $(seq "$keys"); do j+=("$(until_changed j)"); done
        for _ in $(seq "$keys"); do page+=("$(until_changed PageDown)"); done
        tmux_ send-keys /; sleep 0.2
        # Each letter filters the 10,000 books again (the last ones match nothing; Backspace widens).
        for letter in 7 7 7 BSpace BSpace BSpace 4 2; do search+=("$(until_changed "$letter")"); done
        # (Apart: Esc and q in one burst would read as Alt-q.)
        tmux_ send-keys Escape; sleep 0.2; tmux_ send-keys q; wait_shows 'abplayer />' 10 || true; sleep 0.3
    done
    tmux_ send-keys C-d; sleep 0.5; tmux_ kill-server 2>/dev/null || true
    printf '%s %s %s %s %s\n' "$(printf '%s\n' "${floor[@]}" | median)" "$(printf '%s\n' "${open[@]}" | median)" \
        "$(printf '%s\n' "${j[@]}" | median)" "$(printf '%s\n' "${page[@]}" | median)" "$(printf '%s\n' "${search[@]}" | median)"
}

# --- cmus on 10,000 tagged files (100 authors x 10 albums x 10 tracks) ----------------------------
tagged_mp3_tree "$cmus_authors" "$cmus_albums" 1

# cmus with its library filled (added once, then read from its cache at each start). No sound
# card here: JACK must not start a server, and no output is needed to browse.
cmus_home="$work/cmus-home"
cmus_sock="$work/cmus.sock"
cmus_start() { # columns rows
    tmux_ kill-server 2>/dev/null || true
    rm -f "$cmus_sock"
    mkdir -p "$cmus_home/.config/cmus"
    tmux_ new-session -d -x "$1" -y "$2" -e HOME="$cmus_home" -e XDG_CONFIG_HOME="$cmus_home/.config" \
        -e JACK_NO_START_SERVER=1 -e PULSE_SERVER=none "cmus --listen '$cmus_sock' 2>/dev/null"
    # Without D-Bus cmus stops at "MPRIS will be disabled. Press <enter>": press it until it answers.
    for _ in $(seq 100); do
        tmux_ send-keys Enter 2>/dev/null || true
        timeout 1 cmus-remote --server "$cmus_sock" -C 'echo' >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}
cmus_fill() {
    [ -f "$work/cmus-filled" ] && return
    rm -rf "$cmus_home"
    cmus_start 80 24
    timeout 10 cmus-remote --server "$cmus_sock" -l "$tree"
    local deadline=$(( $(date +%s) + 300 )) saved="$work/cmus-lib.pl"
    rm -f "$saved"
    while :; do
        timeout 10 cmus-remote --server "$cmus_sock" -C "save -l $saved" >/dev/null 2>&1 || true
        [ -f "$saved" ] && [ "$(wc -l <"$saved")" -ge "$cmus_files" ] && break
        [ "$(date +%s)" -ge "$deadline" ] && { log "cmus did not add the files in 300 s"; return 1; }
        sleep 0.5
    done
    timeout 5 cmus-remote --server "$cmus_sock" -C quit >/dev/null 2>&1 || true
    sleep 1; tmux_ kill-server 2>/dev/null || true
    touch "$work/cmus-filled"
}
cmus_screen() { # columns rows
    cmus_start "$1" "$2"
    timeout 5 cmus-remote --server "$cmus_sock" -C 'view 1' >/dev/null 2>&1 || true
    sleep 0.5
    local view=() j=() page=()
    for _ in $(seq "$runs"); do
        view+=("$(until_changed 2)")
        for _ in $(seq "$keys"); do j+=("$(until_changed j)"); done
        for _ in $(seq "$keys"); do page+=("$(until_changed PageDown)"); done
        tmux_ send-keys 1; sleep 0.3
    done
    timeout 5 cmus-remote --server "$cmus_sock" -C quit >/dev/null 2>&1 || true
    sleep 0.5; tmux_ kill-server 2>/dev/null || true
    printf '%s %s %s\n' "$(printf '%s\n' "${view[@]}" | median)" "$(printf '%s\n' "${j[@]}" | median)" \
        "$(printf '%s\n' "${page[@]}" | median)"
}

have_cmus=0
if command -v cmus >/dev/null && command -v cmus-remote >/dev/null && cmus_fill; then have_cmus=1; fi
ratio_() { if [ "$2" -le 0 ]; then echo "n/a"; else echo "scale=2; $1 / $2" | bc; fi; }
echo "Library screen, 10,000 books / 200,000 items (medians of $runs opens, $keys keys each; read through tmux)"
sizes=("80 24")
[ "$smoke" = 1 ] || sizes+=("120 40")
for size in "${sizes[@]}"; do
    read -r columns rows <<<"$size"
    read -r floor open j page search <<<"$(abplayer_screen "$columns" "$rows")"
    printf '  %sx%s abplayer: library typed -> drawn %6s ms (target < 100) | j %5s ms | PgDn %5s ms | search letter %5s ms (target < 16) | floor (echo at the prompt) %5s ms\n' \
        "$columns" "$rows" "$(ms "$open")" "$(ms "$j")" "$(ms "$page")" "$(ms "$search")" "$(ms "$floor")"
    if [ "$have_cmus" = 1 ]; then
        read -r cview cj cpage <<<"$(cmus_screen "$columns" "$rows")"
        printf '  %sx%s cmus:     view 2 (sorted library)  %6s ms              | j %5s ms | PgDn %5s ms\n' \
            "$columns" "$rows" "$(ms "$cview")" "$(ms "$cj")" "$(ms "$cpage")"
        printf '  ratios abplayer / cmus: open %s, j %s, PgDn %s (informational)\n' \
            "$(ratio_ "$open" "$cview")" "$(ratio_ "$j" "$cj")" "$(ratio_ "$page" "$cpage")"
    else
        log "cmus is not installed or did not fill its library: no reference figures"
    fi
done
