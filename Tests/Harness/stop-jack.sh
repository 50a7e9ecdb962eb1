#!/bin/bash
# stop-jack.sh DIR: stops the jackd started by start-jack.sh DIR, by its PID (idempotent).
dir=${1:?usage: stop-jack.sh DIR}
[ -s "$dir/jackd.pid" ] || exit 0
pid=$(cat "$dir/jackd.pid")
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
if alive "$pid" && grep -qx jackd "/proc/$pid/comm" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 150); do alive "$pid" || break; sleep 0.02; done
    if alive "$pid"; then
        kill -KILL "$pid"
        # Gone before this returns: a server restarted under the same name at once would find
        # this one still registered ("server already active") and the test would lose both.
        for _ in $(seq 250); do alive "$pid" || break; sleep 0.02; done
    fi
fi
rm -f "$dir/jackd.pid"
exit 0
