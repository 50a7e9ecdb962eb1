#!/bin/bash
# stop-dbus.sh DIR: stops the bus started by start-dbus.sh DIR, by its PID (idempotent).
dir=${1:?usage: stop-dbus.sh DIR}
[ -s "$dir/dbus.pid" ] || exit 0
pid=$(tr -dc 0-9 < "$dir/dbus.pid")
# A daemon is reparented to PID 1; a zombie stays visible to kill -0, so look at its state.
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
if [ -n "$pid" ] && alive "$pid" && grep -qx dbus-daemon "/proc/$pid/comm" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.02; done
    alive "$pid" && kill -KILL "$pid"
fi
rm -f "$dir/dbus.pid" "$dir/bus"
exit 0
