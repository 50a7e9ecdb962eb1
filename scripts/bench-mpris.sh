#!/usr/bin/env bash
# MPRIS part of `make bench`: what MPRIS costs while playing (on a private session bus vs no bus,
# and with a status-bar-like client polling it), and a property read's round trip against the
# bus daemon answering its own property, side by side in one run. Prints figures; asserts nothing.
#
# usage: scripts/bench-mpris.sh BIN_DIR
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-mpris.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
harness="$(cd "$(dirname "$0")/../Tests/Harness" && pwd)"
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
runs=${BENCH_RUNS:-3}
. "$(dirname "$0")/bench-common.sh"
export ABPLAYER_PLUGIN_PATH=
# BENCH_SMOKE: a 10 s book played 1 s a run, 10 property reads.
window=$(scaled 10 1)
round_trips=$(scaled 200 10)

# A 30 s book in its own library.
book="$work/mpris-book"
lib="$work/mpris-library.sqlite"
if [ ! -f "$lib" ]; then
    rm -rf "$book" "$lib"*
    mkdir -p "$book"
    sox -q -n -r 48000 -c 2 -b 16 "$work/mpris-30s.wav" synth "$(scaled 30 10)" sine 150-900 synth "$(scaled 30 10)" pinknoise mix vol 0.5
    opusenc --quiet "$work/mpris-30s.wav" "$book/book.opus"
    "$abplayer" import --library "$lib" "$book" >/dev/null
fi

busdir=$(mktemp -d /tmp/abp-bench-bus-XXXXXX)
cleanup() { # the status-bar client and the player, if still there, then the bus
    for pid in ${client:-} ${player:-}; do kill "$pid" 2>/dev/null || true; done
    "$harness/stop-dbus.sh" "$busdir"
    rm -rf "$busdir"
}
trap cleanup EXIT
eval "$("$harness/start-dbus.sh" "$busdir")"
bus=$DBUS_SESSION_BUS_ADDRESS

# The REPL playing for WAIT seconds to the null output, then quitting.
repl() { # wait
    { echo 'play book'; echo 'seek 0'; sleep "$1"; echo quit; } | "$abplayer" --library "$lib" --output null >/dev/null 2>&1
}
# A status bar: Position, Metadata and PlaybackStatus ten times a second for SECONDS, whether a
# player is there or not (between measured runs it is not).
poll_for() { # seconds
    local end=$((SECONDS + $1))
    while [ "$SECONDS" -lt "$end" ]; do
        busctl --user get-property org.mpris.MediaPlayer2.abplayer /org/mpris/MediaPlayer2 \
            org.mpris.MediaPlayer2.Player Position Metadata PlaybackStatus >/dev/null 2>&1 || true
        sleep 0.1
    done
}
export -f repl
export abplayer lib

echo "MPRIS"
read -r nw nc _ <<<"$(DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent measure bash -c "repl $window")"
read -r mw mc _ <<<"$(DBUS_SESSION_BUS_ADDRESS=$bus measure bash -c "repl $window")"
# Only the player's CPU is measured: the client runs beside it, outside the measured command.
DBUS_SESSION_BUS_ADDRESS=$bus poll_for $((runs * (window + 2) + 5)) &
client=$!
read -r pw pc _ <<<"$(DBUS_SESSION_BUS_ADDRESS=$bus measure bash -c "repl $window")"
kill "$client" 2>/dev/null || true
wait "$client" 2>/dev/null || true
printf '%s\n  no bus %6.2fs cpu | MPRIS %6.2fs cpu | MPRIS + a client reading 3 properties at 10 Hz %6.2fs cpu\n  ratio: MPRIS/no bus %s, with the client %s\n' \
    "10 s real-time play (null output), CPU of the player" "$nc" "$mc" "$pc" "$(ratio "$mc" "$nc")" "$(ratio "$pc" "$nc")"

# Round trips: 200 property reads of abplayer vs of dbus-daemon itself (its Features property).
mkfifo "$busdir/in"
DBUS_SESSION_BUS_ADDRESS=$bus "$abplayer" --library "$lib" --output null <"$busdir/in" >/dev/null 2>&1 &
player=$!
exec 9>"$busdir/in"
echo 'play book' >&9
for _ in $(seq 100); do DBUS_SESSION_BUS_ADDRESS=$bus busctl --user status org.mpris.MediaPlayer2.abplayer >/dev/null 2>&1 && break; sleep 0.05; done
reads() { # destination path interface property
    for _ in $(seq "$round_trips"); do busctl --user get-property "$@" >/dev/null; done
}
export -f reads
export round_trips
read -r aw _ _ <<<"$(DBUS_SESSION_BUS_ADDRESS=$bus measure bash -c 'reads org.mpris.MediaPlayer2.abplayer /org/mpris/MediaPlayer2 org.mpris.MediaPlayer2.Player Metadata')"
read -r dw _ _ <<<"$(DBUS_SESSION_BUS_ADDRESS=$bus measure bash -c 'reads org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus Features')"
echo quit >&9
exec 9>&-
wait "$player" || true
printf '%s\n  abplayer Metadata %6.2fs wall (%.2f ms each) | dbus-daemon Features %6.2fs wall (%.2f ms each)\n  ratio: wall %s (busctl start-up dominates both)\n' \
    "$round_trips busctl get-property round trips" "$aw" "$(echo "$aw * 1000 / $round_trips" | bc -l)" "$dw" "$(echo "$dw * 1000 / $round_trips" | bc -l)" "$(ratio "$aw" "$dw")"
