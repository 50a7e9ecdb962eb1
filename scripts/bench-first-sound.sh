#!/usr/bin/env bash
# Time to first sound: from `play BOOK` typed at the REPL's prompt (in tmux, a real terminal) to
# the first sound a PulseAudio null sink with default settings (rewinds allowed) plays, resuming
# a book in progress mid-book; against `mpv --ao=pulse` started at the same place of the same
# file, from its process start; and against the previous landing's abplayer, the same way (bench-common.sh's
# baseline). On a 25-file MP3 book (espeak-ng speech, 22.05 kHz mono, ID3 tags
# and a cover) and on an M4B (AAC, chapters, a cover). Alternating runs, medians and the ratio.
# Prints figures; asserts nothing (target: abplayer < 150 ms).
#
# The clock is the sound's own: scripts/first-sound.c records the sink's monitor in 5 ms
# fragments and counts the frames from the command's start to the first sample above the
# threshold (see there). A recorder asking for 5 ms also makes the null sink render in 5 ms
# blocks, as a sound card at low latency plays: the same device for both players. The speech carries a faint room tone (about -50 dBFS), so that any place
# it resumes at sounds at once: a pause between sentences would add its length to both players.
#
# usage: scripts/bench-first-sound.sh BIN_DIR     BENCH_FIRST_SOUND_RUNS (default 7)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench-first-sound.sh BIN_DIR}" && pwd)
abplayer="$bin_dir/abplayer"
scripts=$(cd "$(dirname "$0")" && pwd)
harness=$(cd "$scripts/../Tests/Harness" && pwd)
work=${BENCH_DIR:-${TMPDIR:-/tmp}/abplayer-bench}/first-sound
mkdir -p "$work"
. "$scripts/bench-common.sh"
runs=${BENCH_FIRST_SOUND_RUNS:-$(scaled 7 1)}
# BENCH_SMOKE: 2 chapters, resumed at 1:30.
chapters=$(scaled 25 2)
resume_minute=$(scaled 10 1)

# --- fixtures (made once, kept in $work) ----------------------------------------------------------
mp3_dir="$work/Speech Book MP3"
m4b_dir="$work/Speech Book M4B"
m4b="$m4b_dir/Speech Book M4B.m4b"
cover="$work/cover.jpg"
paragraph="It was a bright cold day in April, and the clocks were striking thirteen. The hallway smelt
of boiled cabbage and old rag mats. At one end of it a coloured poster, too large for indoor display,
had been tacked to the wall. It depicted simply an enormous face, more than a metre wide: the face of
a man of about forty-five, with a heavy black moustache and ruggedly handsome features. Outside, even
through the shut window-pane, the world looked cold. Down in the street little eddies of wind were
whirling dust and torn paper into spirals, and though the sun was shining and the sky a harsh blue,
there seemed to be no colour in anything."
if [ ! -f "$mp3_dir/$chapters.mp3" ] || [ ! -f "$m4b" ]; then
    log "making the first-sound fixtures in $work"
    rm -rf "$mp3_dir" "$m4b_dir" "$work/wav" && mkdir -p "$mp3_dir" "$m4b_dir" "$work/wav"
    ffmpeg -v error -y -f lavfi -i testsrc=s=600x600 -frames:v 1 "$cover"
    sox -q -n -r 22050 -c 1 -b 16 "$work/wav/tone.wav" synth 60 pinknoise vol 0.004
    : > "$work/wav/chapters.txt"
    printf ';FFMETADATA1\ntitle=Speech Book M4B\nartist=The Bench\n' > "$work/wav/meta.txt"
    for i in $(seq "$chapters"); do
        n=$(printf %02d "$i")
        # One minute exactly: the speech (about 70 s) cut there, over the room tone.
        espeak-ng -w "$work/wav/speech-$n.wav" "Chapter $i. $paragraph $paragraph"
        sox -q -m "$work/wav/speech-$n.wav" "$work/wav/tone.wav" "$work/wav/$n.wav" trim 0 60
        lame --quiet -b 64 -m m --tt "Chapter $i" --ta "The Bench" --tl "Speech Book MP3" --tn "$i/$chapters" \
            --ty 2024 --tg Speech --ti "$cover" "$work/wav/$n.wav" "$mp3_dir/$n.mp3"
        printf '[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=Chapter %d\n' \
            $(( (i - 1) * 60000 )) $(( i * 60000 )) "$i" >> "$work/wav/meta.txt"
    done
    sox -q "$work"/wav/[0-9][0-9].wav "$work/wav/all.wav"
    ffmpeg -v error -y -i "$work/wav/all.wav" -i "$cover" -i "$work/wav/meta.txt" -map 0:a -map 1:v \
        -map_metadata 2 -map_chapters 2 -c:a aac -b:a 64k -c:v copy -disposition:v attached_pic \
        -f mp4 "$m4b.tmp" && mv "$m4b.tmp" "$m4b"
    rm -rf "$work/wav"
fi

# --- a PulseAudio server of our own, its null sink with default settings --------------------------
servers=$(mktemp -d /tmp/abp-fs.XXXXXX)
socket="$servers/tmux.sock"
cleanup() {
    tmux -S "$socket" kill-server 2>/dev/null || true
    "$harness/stop-pulse.sh" "$servers/pa" || true
    rm -rf "$servers"
}
trap cleanup EXIT
eval "$("$harness/start-pulse.sh" "$servers/pa")"
export PULSE_SERVER PULSE_CLIENTCONFIG
pactl load-module module-null-sink sink_name=plain >/dev/null
pactl set-default-sink plain
export PULSE_SINK=plain
read -r sink_format sink_channels sink_rate <<<"$(pactl list short sinks | awk '$2 == "plain" { print $4, $5, $6 }')"
sink_channels=${sink_channels%ch}
sink_rate=${sink_rate%Hz}
[ "$sink_format" = s16le ] || { echo "first sound: the null sink runs at $sink_format, not s16le: skipped"; exit 0; }

helper="$servers/first-sound"
cc -O2 -o "$helper" "$scripts/first-sound.c" $(pkg-config --cflags --libs libpulse-simple)
# About -74 dBFS: above the sink's silence, well below the room tone.
threshold=6
first_sound() { "$helper" plain.monitor "$sink_rate" "$sink_channels" "$threshold" 5000 -- "$@" || true; }

# --- the library: both books imported, in progress at 10:30 (BENCH_SMOKE: 1:30) ---------------------
export HOME="$servers/home" XDG_DATA_HOME="$servers/data" XDG_CACHE_HOME="$servers/cache" XDG_CONFIG_HOME="$servers/config"
export ABPLAYER_PLUGIN_PATH= TERM=xterm-256color LANG=C.UTF-8
library="$servers/library.sqlite"
"$abplayer" import --library "$library" "$mp3_dir" "$m4b_dir" >/dev/null
# The previous landing's binary (bench-common.sh's baseline) is timed the same way, on a library
# of its own (a newer schema would not open in the older).
baseline=$(baseline_abplayer) || baseline=
baseline_library="$servers/baseline.sqlite"
[ -z "$baseline" ] || "$baseline" import --library "$baseline_library" "$mp3_dir" "$m4b_dir" >/dev/null
place() { # book [binary library]: back in progress at 10:30 (each run moves it on)
    "${2:-$abplayer}" --library "${3:-$library}" --output null -c "play $1; seek $resume_minute:30" >/dev/null
}

tmux_() { tmux -S "$socket" "$@"; }
wait_for() { # text seconds
    local deadline=$(( $(date +%s) + $2 ))
    until tmux_ capture-pane -p 2>/dev/null | grep -qF "$1"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.02
    done
}
# Milliseconds from Enter after `play BOOK` at a fresh REPL's prompt to the first sound.
abplayer_ms() { # book [binary library]
    local binary=${2:-$abplayer} books=${3:-$library}
    place "$1" "$binary" "$books"
    tmux_ kill-server 2>/dev/null || true
    tmux_ new-session -d -x 120 -y 30 "exec '$binary' --library '$books'"
    if ! wait_for "abplayer" 10; then echo -1; return; fi
    sleep 0.3
    tmux_ send-keys -l "play $1"
    sleep 0.2
    first_sound tmux -S "$socket" send-keys Enter
    tmux_ send-keys -l quit
    tmux_ send-keys Enter
    for _ in $(seq 100); do tmux_ has-session 2>/dev/null || break; sleep 0.05; done
    tmux_ kill-server 2>/dev/null || true
}
# Milliseconds from `abplayer listen BOOK`'s process start to its first sound: the same start as
# mpv's (the process, its plugins and its library opened), for comparison.
listen_ms() { # book
    place "$1"
    # (its "stopped before anything played" on SIGTERM is about its position reports, not sound)
    first_sound "$abplayer" listen --library "$library" "$1" 2>/dev/null
    sleep 0.3   # SIGTERM saves the place on its way out
}
# Milliseconds from mpv's start to its first sound, at `seconds` into `file`.
mpv_ms() { # file seconds
    first_sound mpv --no-config --really-quiet --ao=pulse --no-video --start="$2" "$1"
}
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
ratio() { if [ "$(echo "$2 <= 0" | bc)" = 1 ]; then echo "n/a"; else echo "scale=2; $1 / $2" | bc; fi; }

measure_book() { # title book mpv-file mpv-seconds [target]
    local ours=() theirs=() started=() before=()
    for _ in $(seq "$runs"); do
        ours+=("$(abplayer_ms "$2")")
        theirs+=("$(mpv_ms "$3" "$4")")
        [ -n "${5:-}" ] || started+=("$(listen_ms "$2")")
        [ -n "${5:-}" ] || [ -z "$baseline" ] || before+=("$(abplayer_ms "$2" "$baseline" "$baseline_library")")
    done
    local o t
    o=$(printf '%s\n' "${ours[@]}" | median)
    t=$(printf '%s\n' "${theirs[@]}" | median)
    printf '%s\n  abplayer %7.1f ms (runs: %s) | mpv %7.1f ms (runs: %s)\n  ratio: %s (%s)\n' \
        "$1" "$o" "${ours[*]}" "$t" "${theirs[*]}" "$(ratio "$o" "$t")" "${5:-target: abplayer < 150 ms}"
    if [ ${#started[@]} -gt 0 ]; then
        local l
        l=$(printf '%s\n' "${started[@]}" | median)
        printf "  from the process start, as mpv's: abplayer listen %7.1f ms (runs: %s), ratio %s (informational)\n" \
            "$l" "${started[*]}" "$(ratio "$l" "$t")"
    fi
    if [ ${#before[@]} -gt 0 ]; then
        local b
        b=$(printf '%s\n' "${before[@]}" | median)
        printf '  this build %7.1f ms | %s (the previous landing) %7.1f ms (runs: %s) | ratio %s\n' \
            "$o" "$baseline_commit" "$b" "${before[*]}" "$(ratio "$o" "$b")"
    fi
}

echo "First sound — 'play BOOK' at the prompt to the first sound from a PulseAudio null sink (default settings), resuming at $resume_minute:30; $runs runs, medians"
# 10:30 into the MP3 book is 0:30 into its 11th file.
resumed_file="$mp3_dir/$(printf %02d $((resume_minute + 1))).mp3"
measure_book "$chapters-file MP3 book (22.05 kHz mono speech, ID3 tags, cover)" "Speech Book MP3" "$resumed_file" 30
measure_book "M4B (AAC, $chapters chapters, cover)" "Speech Book M4B" "$m4b" $((resume_minute * 60 + 30))
# What a recording with parec's defaults shows instead: the idle null sink renders its monitor in
# blocks of up to 2 s (module-null-sink's longest latency, when no client asks for less), and a
# recorder asking for no latency gets the sound when its block arrives, whoever plays it. The
# ~1.9 s of issue 15 was this; informational, 3 runs (skipped under BENCH_SMOKE: its 2 s blocks
# cost the smoke run several seconds, for the measure_book already run above).
[ "$smoke" = 1 ] || (
    export FIRST_SOUND_FRAGMENT_MS=0 FIRST_SOUND_ARRIVAL=1
    runs=3
    measure_book "$chapters-file MP3 book, recorded with the server's default fragments, timed on arrival (not a figure of the players)" \
        "Speech Book MP3" "$resumed_file" 30 "informational"
)
