#!/bin/bash
# stop-syncthing.sh DIR: stops the instance start-syncthing.sh DIR started (by its PID, never by name).
dir=${1:?usage: stop-syncthing.sh DIR}
pid=$(cat "$dir/syncthing.pid" 2>/dev/null) || exit 0
kill "$pid" 2>/dev/null || exit 0
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.05; done
kill -9 "$pid" 2>/dev/null || true
