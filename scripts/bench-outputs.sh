#!/usr/bin/env bash
# Outputs: CPU and memory playing in real time to PulseAudio, and JACK xruns under load, side by
# side in one run with the reference players. Prints figures and ratios; asserts nothing.
#
# usage: scripts/bench-outputs.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-outputs.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
harness=$(cd "$(dirname "$0")/../Tests/Harness" && pwd)
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}
mkdir -p "$work"
. "$(dirname "$0")/bench-common.sh"
seconds=${BENCH_OUTPUT_SECONDS:-$(scaled 60 1)}
servers=$(mktemp -d /tmp/abp-bench.XXXXXX)
cleanup() {
    "$harness/stop-pulse.sh" "$servers/pa" || true
    "$harness/stop-jack.sh" "$servers/jack" || true
    [ -n "${load_pid:-}" ] && kill "$load_pid" 2>/dev/null || true
    rm -rf "$servers"
}
trap cleanup EXIT

# The same MP3 for every player: a voice-like glide with noise, 44.1 kHz stereo, VBR.
mp3="$work/outputs-${seconds}s.mp3"
if [ ! -f "$mp3" ]; then
    sox -q -n -r 44100 -c 2 -b 16 "$work/outputs.wav" synth "$seconds" sine 150-900 synth "$seconds" pinknoise mix vol 0.5
    lame --quiet -V 4 "$work/outputs.wav" "$mp3"
fi

# --- PulseAudio: CPU per hour of audio and peak RSS ---------------------------------------------
eval "$("$harness/start-pulse.sh" "$servers/pa")"
export PULSE_SERVER PULSE_CLIENTCONFIG

play_measured() { # name command... -> "cpu-seconds rss-KiB"
    /usr/bin/time -o "$work/time.out" -f '%U %S %M' "$@" </dev/null >/dev/null 2>&1
    read -r user sys kib <"$work/time.out"
    echo "$(echo "$user + $sys" | bc) $kib"
}
per_hour() { echo "scale=2; $1 * 3600 / $seconds" | bc; }
percent() { echo "scale=3; $1 * 100 / $seconds" | bc; }
ratio() { echo "scale=2; $1 / $2" | bc; }

echo "Outputs — playing ${seconds} s of MP3 in real time to a PulseAudio null sink"
read -r our_cpu our_rss <<<"$(play_measured "$abplayer" play --output pulse "$mp3")"
read -r mpg_cpu mpg_rss <<<"$(play_measured mpg123 -q -o pulse "$mp3")"
read -r mpv_cpu mpv_rss <<<"$(play_measured mpv --no-config --ao=pulse --no-video --really-quiet "$mp3")"
row() { printf '  %-9s %6s cpu-s/hour of audio (%5s%% of a core)  peak RSS %6d KiB = %5.1f MiB\n' \
    "$1" "$(per_hour "$2")" "$(percent "$2")" "$3" "$(echo "$3 / 1024" | bc -l)"; }
row abplayer "$our_cpu" "$our_rss"
row mpg123 "$mpg_cpu" "$mpg_rss"
row mpv "$mpv_cpu" "$mpv_rss"
safe() { [ "$(echo "$1 > 0" | bc)" = 1 ] && echo "$1" || echo 0.01; }
echo "  ratio: cpu vs mpg123 $(ratio "$our_cpu" "$(safe "$mpg_cpu")") (target <= 1.5), vs mpv $(ratio "$our_cpu" "$(safe "$mpv_cpu")") (about 0.3);" \
     "RSS $(echo "$our_rss / 1024" | bc) MiB (target < 30 MiB)"

# --- JACK: xruns attributable to each client, period 1024, second core loaded ---------------------
eval "$(JACK_PERIOD=1024 "$harness/start-jack.sh" "$servers/jack" "abp_bench_$$")"
export JACK_DEFAULT_SERVER JACK_NO_START_SERVER JACK_NO_AUDIO_RESERVATION
# A busy second core (one process spinning), as on a desktop doing something else.
( while :; do :; done ) &
load_pid=$!
# Both clients on the same server at the same time, so both face the same load and driver.
jack_simple_client >/dev/null 2>&1 &
simple_pid=$!
"$abplayer" play --output jack "$mp3" </dev/null >/dev/null 2>&1 || true
kill "$simple_pid" 2>/dev/null || true
wait "$simple_pid" 2>/dev/null || true
kill "$load_pid" 2>/dev/null || true
load_pid=
jack_log="$servers/jack/jackd.log"
ours=$(grep -c 'client = abplayer was not finished' "$jack_log" || true)
simple=$(grep -c 'client = jack_simple_client was not finished' "$jack_log" || true)
all=$(grep -c 'was not finished' "$jack_log" || true)
echo "JACK — ${seconds} s at period 1024 with the second core busy"
echo "  xruns: abplayer $ours, idle jack_simple_client $simple (all clients and the driver: $all) (target: abplayer <= jack_simple_client)"
