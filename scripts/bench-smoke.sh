#!/usr/bin/env bash
# make bench-smoke (and the end of `make test`): every script `make bench` runs, run once on tiny
# inputs, so that a bench script that no longer runs fails here and not half-way through a long
# `make bench`. The knobs (bench-common.sh): BENCH_SMOKE=1 (seconds of audio instead of hours, a
# handful of books instead of thousands, seconds of real-time play), BENCH_RUNS=1, and
# BENCH_BASELINE=self (this build stands in for the previous landing's: nothing built from git).
#
# One line per script: its name, seconds, ok or FAILED; for a failure, what it reported
# ("bench-failure: SCRIPT line N: ...") and its last 20 lines. A script fails when it exits
# non-zero, reports a bench-failure, outlives its time limit, or leaves a process running (found
# by a variable only this run's processes carry, and stopped). The seconds measure nothing.
# Each script gets a fresh scratch folder (it must make its own fixtures), a private HOME, XDG
# folders and tmux server; no network. Scripts that are not in scripts/bench.sh fail too.
#
# usage: scripts/bench-smoke.sh BIN_DIR      (BIN_DIR: .build/debug or .build/release)
#        BENCH_SMOKE_TIMEOUT=seconds per script (default 120); BENCH_SMOKE_KEEP=1 keeps the folders
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-smoke.sh BIN_DIR}" && pwd)
scripts=$(cd "$(dirname "$0")" && pwd)
limit=${BENCH_SMOKE_TIMEOUT:-120}

echo "bench smoke — each bench script once on tiny inputs: the seconds below only show that they run; they measure nothing"
[ -x "$bin_dir/abplayer" ] || { echo "bench-smoke: no abplayer in $bin_dir (make build, or make release)" >&2; exit 1; }

# The tools the bench scripts call (make bench-smoke installs their packages, BENCH_PACKAGES).
missing=()
for tool in /usr/bin/time bc sox soxi lame ffmpeg ffprobe opusenc opusdec oggenc oggdec flac faad mpg123 mpv \
    cmus cmus-remote mpd mpc chafa tmux sqlite3 python3 espeak-ng pulseaudio pactl jackd jack_simple_client \
    dbus-daemon busctl cc pkg-config; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || { echo "bench-smoke: not installed: ${missing[*]} (make bench-smoke installs them)" >&2; exit 1; }

# Not abp-*: `make test` runs this beside the tests, whose run-tests.sh removes the abp-* folders
# made during its run when it ends.
root=$(mktemp -d "${TMPDIR:-/tmp}/abplayer-bench-smoke.XXXXXX")
mkdir -m 700 -p "$root/home" "$root/run"
marker="BENCH_SMOKE_RUN=$root"

# PIDs of the processes carrying this run's marker, but this script: read by a process without it.
marked() {
    env -u BENCH_SMOKE_RUN bash -c '
        for f in $(grep -lzxF -- "$1" /proc/[0-9]*/environ 2>/dev/null); do
            pid=${f#/proc/}; pid=${pid%/environ}
            [ "$pid" = "$2" ] || echo "$pid"
        done' _ "$marker" "$$" >"$root/marked"
    cat "$root/marked"
}
stop_marked() {
    local pids
    pids=$(marked)
    [ -n "$pids" ] || return 0
    kill -TERM $pids 2>/dev/null || true
    sleep 1
    pids=$(marked)
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}
finish() {
    stop_marked
    if [ "${BENCH_SMOKE_KEEP:-0}" = 1 ]; then echo "(kept: $root)"; else rm -rf "$root"; fi
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The scripts in scripts/bench.sh's order; every other bench script is a failure of its own.
mapfile -t listed < <(sed -n 's|^"$(dirname "$0")/\(bench-[a-z0-9-]*\.sh\)".*|\1|p' "$scripts/bench.sh")
failed=()
for path in "$scripts"/bench-*.sh; do
    name=$(basename "$path")
    case "$name" in bench-common.sh | bench-smoke.sh) continue ;; esac
    if [[ " ${listed[*]} " != *" $name "* ]]; then
        printf '%-24s   -     FAILED (scripts/bench.sh does not run it)\n' "$name"
        failed+=("$name")
    fi
done

scripts_run=$(( ${#listed[@]} + ${#failed[@]} ))
total_start=$EPOCHREALTIME
for name in "${listed[@]}"; do
    work="$root/$name"
    mkdir -p "$work/bench"
    start=$EPOCHREALTIME
    status=0
    timeout -k 10 "$limit" env "$marker" BENCH_SMOKE=1 BENCH_RUNS=1 BENCH_BASELINE=self BENCH_DIR="$work/bench" \
        HOME="$root/home" XDG_CONFIG_HOME="$root/home/.config" XDG_DATA_HOME="$root/home/.local/share" \
        XDG_CACHE_HOME="$root/home/.cache" XDG_STATE_HOME="$root/home/.local/state" XDG_RUNTIME_DIR="$root/run" \
        TMUX_TMPDIR="$root" DBUS_SESSION_BUS_ADDRESS="unix:path=$root/no-bus" TMPDIR="$work" \
        "$scripts/$name" "$bin_dir" </dev/null >"$work/output" 2>&1 || status=$?
    seconds=$(echo "$EPOCHREALTIME - $start" | bc)
    reasons=()
    case $status in
        0) ;;
        124 | 137) reasons+=("timed out after $limit s") ;;
        *) reasons+=("exit $status") ;;
    esac
    grep -q '^bench-failure:' "$work/output" && reasons+=("it reported failures")
    # What the script started and left behind (servers are given a moment to finish stopping).
    for _ in 1 2 3; do [ -z "$(marked)" ] && break; sleep 1; done
    left=$(marked)
    if [ -n "$left" ]; then
        reasons+=("left running: $(for pid in $left; do printf '%s(%s) ' "$(cat "/proc/$pid/comm" 2>/dev/null)" "$pid"; done)")
        stop_marked
    fi
    if [ ${#reasons[@]} -eq 0 ]; then
        printf '%-24s %5.1fs  ok\n' "$name" "$seconds"
    else
        printf '%-24s %5.1fs  FAILED (%s)\n' "$name" "$seconds" "$(printf '%s; ' "${reasons[@]}" | sed 's/; $//')"
        failed+=("$name")
        # What it reported, when that is further up than its last 20 lines.
        first=$(grep -n -m 1 '^bench-failure:' "$work/output" | cut -d: -f1 || true)
        if [ -n "$first" ] && [ "$first" -le $(( $(wc -l <"$work/output") - 20 )) ]; then
            grep -A 5 '^bench-failure:' "$work/output" | head -n 20 | sed 's/^/    | /'
            echo "    --- its last 20 lines:"
        fi
        tail -n 20 "$work/output" | sed 's/^/    | /'
    fi
done

seconds=$(echo "$EPOCHREALTIME - $total_start" | bc)
if [ ${#failed[@]} -gt 0 ]; then
    printf 'bench smoke: %d of %d scripts FAILED in %.0f s: %s\n' "${#failed[@]}" "$scripts_run" "$seconds" "${failed[*]}"
    exit 1
fi
printf 'bench smoke: all %d scripts ran, %.0f s\n' "${#listed[@]}" "$seconds"
