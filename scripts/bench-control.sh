#!/usr/bin/env bash
# The control socket: round-trip latency of `status` against cmus's socket (cmus-remote -Q), side
# by side in one run. Both as a script would call them (one process per command) and on one kept
# connection (python3, the same line exchange for both servers); and the same two against the
# previous landing's daemon (bench-common.sh's baseline). Prints figures; asserts nothing.
#
# usage: scripts/bench-control.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-control.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
. "$(dirname "$0")/bench-common.sh"
calls=${BENCH_CONTROL_CALLS:-$(scaled 200 5)}
round_trips=${BENCH_CONTROL_ROUND_TRIPS:-$(scaled 2000 20)}
scratch=$(mktemp -d /tmp/abp-ctl.XXXXXX)
cleanup() {
    [ -n "${daemon_pid:-}" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null || true
    [ -n "${baseline_pid:-}" ] && kill "$baseline_pid" 2>/dev/null && wait "$baseline_pid" 2>/dev/null || true
    timeout 5 cmus-remote --server "$scratch/cmus.sock" -C quit >/dev/null 2>&1 || true
    tmux kill-session -t abplayer-bench-control 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
now() { date +%s.%N; }

# A 60 s book playing in a daemon (null output, in real time), and cmus playing nothing: both
# answer the status of a loaded player.
mkdir -p "$scratch/Tone"
sox -q -n -r 44100 -c 2 "$scratch/tone.wav" synth 60 sine 440 vol 0.5
lame --quiet -b 128 "$scratch/tone.wav" "$scratch/Tone/01.mp3"
export XDG_RUNTIME_DIR=$scratch/run XDG_DATA_HOME=$scratch/data XDG_CACHE_HOME=$scratch/cache
mkdir -p "$XDG_RUNTIME_DIR"
library=$scratch/library.sqlite
"$abplayer" import --library "$library" "$scratch/Tone" >/dev/null
"$abplayer" --daemon --library "$library" --output null >/dev/null 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do "$abplayer" remote --library "$library" help >/dev/null 2>&1 && break; sleep 0.05; done
"$abplayer" remote --library "$library" play Tone >/dev/null
socket=$(ls -d "$XDG_RUNTIME_DIR"/abplayer/control*)

# The same daemon of the previous landing's binary (bench-common.sh's baseline), on a library and
# a runtime folder of its own (a newer schema would not open in the older), playing the same book.
baseline=$(baseline_abplayer) || baseline=
if [ -n "$baseline" ]; then
    baseline_runtime=$scratch/run-baseline
    mkdir -p "$baseline_runtime"
    baseline_library=$scratch/baseline.sqlite
    "$baseline" import --library "$baseline_library" "$scratch/Tone" >/dev/null
    XDG_RUNTIME_DIR=$baseline_runtime "$baseline" --daemon --library "$baseline_library" --output null >/dev/null 2>&1 &
    baseline_pid=$!
    for _ in $(seq 100); do XDG_RUNTIME_DIR=$baseline_runtime "$baseline" remote --library "$baseline_library" help >/dev/null 2>&1 && break; sleep 0.05; done
    XDG_RUNTIME_DIR=$baseline_runtime "$baseline" remote --library "$baseline_library" play Tone >/dev/null
    baseline_socket=$(ls -d "$baseline_runtime"/abplayer/control*)
fi

mkdir -p "$scratch/cmus-home/.config/cmus"
tmux new-session -d -s abplayer-bench-control -e HOME="$scratch/cmus-home" -e XDG_CONFIG_HOME="$scratch/cmus-home/.config" \
    -e JACK_NO_START_SERVER=1 -e PULSE_SERVER=none "cmus --listen '$scratch/cmus.sock' 2>/dev/null"
# Without D-Bus cmus stops at "MPRIS will be disabled. Press <enter>": press it until it answers.
for _ in $(seq 100); do
    tmux send-keys -t abplayer-bench-control Enter 2>/dev/null || true
    timeout 1 cmus-remote --server "$scratch/cmus.sock" -Q >/dev/null 2>&1 && break
    sleep 0.1
done

per_call_ms() { # seconds calls
    echo "scale=3; $1 * 1000 / $2" | bc
}
loop() { # calls command...
    local n=$1 start; shift
    start=$(now)
    for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 || true; done
    echo "$(now) - $start" | bc
}
ours=$(loop "$calls" "$abplayer" remote --library "$library" status)
theirs=$(loop "$calls" cmus-remote --server "$scratch/cmus.sock" -Q)
echo "Control socket — 'status' round trips ($calls calls, one process each)"
printf '  abplayer remote status %7.2f ms/call | cmus-remote -Q %7.2f ms/call | ratio %s\n' \
    "$(per_call_ms "$ours" "$calls")" "$(per_call_ms "$theirs" "$calls")" "$(echo "scale=2; $ours / $theirs" | bc)"
if [ -n "$baseline" ]; then
    before=$(XDG_RUNTIME_DIR=$baseline_runtime loop "$calls" "$baseline" remote --library "$baseline_library" status)
    printf '  this build %7.2f ms/call | %s (the previous landing) %7.2f ms/call | ratio %s\n' \
        "$(per_call_ms "$ours" "$calls")" "$baseline_commit" "$(per_call_ms "$before" "$calls")" "$(echo "scale=2; $ours / $before" | bc)"
fi

if command -v python3 >/dev/null; then
    # One connection, request then reply, $round_trips times: what the server itself costs.
    kept() { # socket line end-of-reply-marker
        python3 - "$1" "$2" "$3" "$round_trips" <<'PY'
import socket, sys, time
path, line, end, count = sys.argv[1], sys.argv[2].encode() + b"\n", sys.argv[3].encode().decode("unicode_escape").encode(), int(sys.argv[4])
s = socket.socket(socket.AF_UNIX)
s.connect(path)
start = time.monotonic()
for _ in range(count):
    s.sendall(line)
    data = b""
    while not data.endswith(end):
        data += s.recv(65536)
print(f"{(time.monotonic() - start) * 1e6 / count:.0f}")
PY
    }
    ours_us=$(kept "$socket" "status --json" '\n')
    theirs_us=$(kept "$scratch/cmus.sock" "status" '\n\n')
    echo "Control socket — 'status' on one kept connection ($round_trips round trips)"
    printf '  abplayer %6d µs/round trip | cmus %6d µs/round trip | ratio %s\n' \
        "$ours_us" "$theirs_us" "$(echo "scale=2; $ours_us / $theirs_us" | bc)"
    if [ -n "$baseline" ]; then
        before_us=$(kept "$baseline_socket" "status --json" '\n')
        printf '  this build %6d µs/round trip | %s %6d µs/round trip | ratio %s\n' \
            "$ours_us" "$baseline_commit" "$before_us" "$(echo "scale=2; $ours_us / $before_us" | bc)"
    fi
fi
