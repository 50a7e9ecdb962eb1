#!/usr/bin/env bash
# make bench: abplayer against the reference tools, side by side in one run, on the same files.
# Prints figures and ratios; asserts nothing (these machines are shared and noisy).
#
# usage: scripts/bench.sh BIN_DIR      (BIN_DIR holds the abplayer binary and its plugins)
set -euo pipefail
bin_dir=$(cd "${1:?usage: bench.sh BIN_DIR}" && pwd)
runs=${BENCH_RUNS:-3}

echo "abplayer bench — $(date -u +%Y-%m-%dT%H:%MZ), $runs runs each, medians"
# MP3 and Opus against mpg123 and opusdec; a 20-hour MP3's peak memory, and a seek deep into it.
"$(dirname "$0")/bench-mp3-opus.sh" "$bin_dir"
"$(dirname "$0")/bench-aac.sh" "$bin_dir"
# Ogg Vorbis and FLAC against oggdec and flac -d.
"$(dirname "$0")/bench-decoders.sh" "$bin_dir"
# The library: import vs cmus and ffprobe; listing a 10,000-book library.
"$(dirname "$0")/bench-library.sh" "$bin_dir"
"$(dirname "$0")/bench-outputs.sh" "$bin_dir"
# Time to first sound: 'play BOOK' at the prompt to the first sound from a PulseAudio null sink, against mpv.
"$(dirname "$0")/bench-first-sound.sh" "$bin_dir"
"$(dirname "$0")/bench-console.sh" "$bin_dir"
# The REPL's library commands (book items, browse, export, reorder) against sqlite3.
"$(dirname "$0")/bench-replib.sh" "$bin_dir"
"$(dirname "$0")/bench-screen.sh" "$bin_dir"
# The library screen on 10,000 books: open and keys, against cmus's library view.
"$(dirname "$0")/bench-library-screen.sh" "$bin_dir"
# Speed (libsonic) against speed 1 and ffmpeg's atempo.
"$(dirname "$0")/bench-dsp.sh" "$bin_dir"
# Skip silence on a narrated book against plain playback (and at speed 1.5).
"$(dirname "$0")/bench-silence.sh" "$bin_dir"
# Measuring a 10-hour book's loudness (libebur128) against ffmpeg's ebur128 filter.
"$(dirname "$0")/bench-loudness.sh" "$bin_dir"
# Sleep timer cost and precision against mpv; the queue on 10,000 books against sqlite3.
"$(dirname "$0")/bench-playback.sh" "$bin_dir"
# MPRIS: CPU while playing with and without it, property round trips against dbus-daemon.
"$(dirname "$0")/bench-mpris.sh" "$bin_dir"
# The library watch: a 1,000-file burst into a book folder, against MPD's auto_update.
"$(dirname "$0")/bench-watch.sh" "$bin_dir"
# Sync (issue 17): 100 devices' journals of 10,000 books merged, against awk and cat; CPU while playing, sync on and off.
"$(dirname "$0")/bench-sync.sh" "$bin_dir"
# Event hooks (issue 33): CPU while playing with a hook for every event against none.
"$(dirname "$0")/bench-hooks.sh" "$bin_dir"
# The control socket: status round trips against cmus-remote.
"$(dirname "$0")/bench-control.sh" "$bin_dir"
# Start-up time and memory against the previous landing's binary (built from git once).
"$(dirname "$0")/bench-startup.sh" "$bin_dir"
