#!/bin/bash
# start-pulse.sh DIR [SINK]: a private PulseAudio (user mode, no hardware) with one null sink,
# listening on DIR/pulse/native. Prints the exports clients need. Stop with stop-pulse.sh DIR.
set -euo pipefail
. "$(dirname "$0")/close-inherited-fds.sh"
dir=${1:?usage: start-pulse.sh DIR [SINK]}
sink=${2:-testsink}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
chmod 700 "$dir"                 # PulseAudio refuses a runtime dir others can read
mkdir -p "$dir/home" "$dir/pulse"
socket="$dir/pulse/native"
[ ${#socket} -lt 108 ] || { echo "socket path too long (${#socket} bytes): $socket" >&2; exit 1; }
printf 'autospawn = no\n' > "$dir/client.conf"

# -n: no default.pa (no udev/alsa/dbus modules); --daemonize returns once it is initialised.
(
    close_inherited_fds
    exec env -u DBUS_SESSION_BUS_ADDRESS -u PULSE_SERVER \
        HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" XDG_RUNTIME_DIR="$dir" \
        PULSE_RUNTIME_PATH="$dir/pulse" PULSE_STATE_PATH="$dir/home/state" \
        pulseaudio -n --daemonize=yes --fail=yes --use-pid-file=yes \
            --exit-idle-time=-1 --disallow-exit=yes --realtime=no --high-priority=no --no-cpu-limit=yes \
            --log-target="file:$dir/pulse.log" --log-level=warn \
            --load="module-native-protocol-unix socket=$socket auth-anonymous=1" \
            --load="module-null-sink sink_name=$sink rate=48000 channels=2 format=s16le norewinds=1 sink_properties=device.description=$sink"
) </dev/null >>"$dir/pulse.log" 2>&1 \
    || { echo "pulseaudio failed to start:" >&2; cat "$dir/pulse.log" >&2; exit 1; }

# A module that fails to load leaves the daemon running without it: check the sink is there.
for _ in $(seq 100); do
    if PULSE_SERVER="unix:$socket" PULSE_CLIENTCONFIG="$dir/client.conf" pactl list short sinks 2>/dev/null \
        | awk -v s="$sink" '$2 == s { found = 1 } END { exit !found }'; then
        PULSE_SERVER="unix:$socket" PULSE_CLIENTCONFIG="$dir/client.conf" pactl set-default-sink "$sink" >/dev/null 2>&1 || true
        echo "export PULSE_SERVER=unix:$socket"
        echo "export PULSE_CLIENTCONFIG=$dir/client.conf"
        echo "export PULSE_RUNTIME_PATH=$dir/pulse"
        exit 0
    fi
    sleep 0.05
done
echo "pulseaudio does not answer on $socket:" >&2; cat "$dir/pulse.log" >&2
[ -s "$dir/pulse/pid" ] && kill -TERM "$(cat "$dir/pulse/pid")" 2>/dev/null
exit 1
