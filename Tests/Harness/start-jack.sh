#!/bin/bash
# start-jack.sh DIR NAME: a private jackd named NAME on the dummy backend (no hardware, no
# realtime), 48 kHz, period $JACK_PERIOD (default 1024). Log in DIR/jackd.log (xruns appear as
# "was not finished" lines). Its client timeout is 5 s, not 0.5: on a loaded machine a client not
# scheduled for half a second would be thrown out, and the player would (rightly) say the server went
# away. Prints the exports clients need. Stop with stop-jack.sh DIR.
set -euo pipefail
. "$(dirname "$0")/close-inherited-fds.sh"
dir=${1:?usage: start-jack.sh DIR NAME}
name=${2:?usage: start-jack.sh DIR NAME}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
up() { JACK_NO_START_SERVER=1 jack_lsp -s "$name" >/dev/null 2>&1; }
# Files a killed server of this name left behind make jackd refuse to start.
rm -f /dev/shm/jack_"$name"_* /dev/shm/jack_sem.*_"$name"_*
# A SIGKILLed server also keeps its slot in JACK's server registry, which has 8, and jackd
# reclaims a dead slot only for a server of the same name: after 8 killed servers of other names
# (killed test runs accumulate them in /dev/shm across runs), every start fails with "Too many
# servers already active". Slots whose process is gone are cleared here. jack2's layout, checked
# before writing: a header of 24 bytes (magic "JACK", hdr_len 2136 at 16), then 8 slots of 264
# bytes, each starting with the server's pid. A slot a jackd takes meanwhile has a live pid.
reclaim_dead_slots() {
    local registry=/dev/shm/jack-shm-registry slot offset pid
    [ -w "$registry" ] || return 0
    [ "$(od -An -t x4 -N4 "$registry" | tr -d ' ')" = 4a41434b ] || return 0
    [ "$(od -An -t d4 -j 16 -N4 "$registry" | tr -d ' ')" = 2136 ] || return 0
    for slot in 0 1 2 3 4 5 6 7; do
        offset=$((24 + 264 * slot))
        pid=$(od -An -t d4 -j "$offset" -N4 "$registry" | tr -d ' ')
        if [ "${pid:-0}" -gt 0 ] && [ ! -d "/proc/$pid" ]; then
            dd if=/dev/zero of="$registry" bs=1 seek="$offset" count=264 conv=notrunc 2>/dev/null
        fi
    done
}
reclaim_dead_slots
# jackd must not keep any descriptor of ours: a caller waiting for this script to end may watch
# one, so all but 0-2 are closed. It runs under a small subshell that waits for it: JACK's
# registry takes a zombie for a live server ("server already active" on a restart under the same
# name), and the init of a container may reap orphans late, so its parent reaps it at once.
rm -f "$dir/jackd.pid"
(
    close_inherited_fds
    JACK_NO_AUDIO_RESERVATION=1 jackd -r -t 5000 -n "$name" -d dummy -r "${JACK_RATE:-48000}" -p "${JACK_PERIOD:-1024}" \
        </dev/null >"$dir/jackd.log" 2>&1 &
    echo $! > "$dir/jackd.pid"
    wait $!
) </dev/null >/dev/null 2>&1 &
for _ in $(seq 100); do [ -s "$dir/jackd.pid" ] && break; sleep 0.01; done
for _ in $(seq 250); do
    if up; then
        echo "export JACK_DEFAULT_SERVER=$name"
        echo "export JACK_NO_START_SERVER=1"
        echo "export JACK_NO_AUDIO_RESERVATION=1"
        exit 0
    fi
    kill -0 "$(cat "$dir/jackd.pid")" 2>/dev/null || break
    sleep 0.04
done
echo "jackd failed to start:" >&2; cat "$dir/jackd.log" >&2
kill -TERM "$(cat "$dir/jackd.pid")" 2>/dev/null || true
exit 1
