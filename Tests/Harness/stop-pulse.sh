#!/bin/bash
# stop-pulse.sh DIR: stops the PulseAudio started by start-pulse.sh DIR, by its PID (idempotent).
dir=${1:?usage: stop-pulse.sh DIR}
pidfile="$dir/pulse/pid"
[ -s "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
# A daemon is reparented to PID 1; a zombie stays visible to kill -0, so look at its state.
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
if alive "$pid" && grep -q pulseaudio "/proc/$pid/comm" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.02; done
    alive "$pid" && kill -KILL "$pid"
fi
rm -f "$pidfile" "$dir/pulse/native"
exit 0
