#!/bin/bash
# make test-peer: files nobody here made. Downloads the sdists of mutagen and pytaglib from PyPI
# (their tests/data: ~100 audio files of every kind, many odd or damaged on purpose), then probes
# and decodes each with abplayer and with ffmpeg, and prints a table: what abplayer makes of each
# file against ffmpeg (seconds decoded), and every crash, hang or refusal. Not part of `make test`:
# it needs the network (PyPI), and its figures are a survey, not a pass/fail.
#
#   scripts/test-peer.sh BIN_DIR [WORK_DIR]
set -u
BIN=${1:?usage: test-peer.sh BIN_DIR [WORK_DIR]}
ABPLAYER=$(cd "$BIN" && pwd)/abplayer
WORK=${2:-${TMPDIR:-/tmp}/abplayer-test-peer}
mkdir -p "$WORK/home" "$WORK/out"
cd "$WORK" || exit 1
# The sdists straight from PyPI's JSON API (pip would build pytaglib's metadata, needing Cython).
for package in mutagen pytaglib; do
    ls "$package"-*.tar.gz > /dev/null 2>&1 || python3 - "$package" <<'PYTHON' \
        || echo "abplayer: test-peer: could not download $package from PyPI; going on without it" >&2
import json, sys, urllib.request
package = sys.argv[1]
info = json.load(urllib.request.urlopen(f"https://pypi.org/pypi/{package}/json", timeout=60))
sdist = next(u for u in info["urls"] if u["packagetype"] == "sdist")
urllib.request.urlretrieve(sdist["url"], sdist["filename"])
PYTHON
    for archive in "$package"-*.tar.gz; do
        [ -f "$archive" ] && [ ! -d "${archive%.tar.gz}" ] && tar xzf "$archive"
    done
done
export XDG_DATA_HOME="$WORK/home/data" XDG_CACHE_HOME="$WORK/home/cache" ABPLAYER_PLUGIN_PATH=""

# Seconds of audio ffmpeg decodes from the first audio stream (empty: it refuses the file).
ffmpeg_seconds() {
    local rate bytes
    rate=$(timeout 30 ffprobe -v error -select_streams a:0 -show_entries stream=sample_rate -of csv=p=0 "$1" 2> /dev/null | head -1 | tr -dc 0-9)
    [ -n "$rate" ] || return
    bytes=$(timeout 60 ffmpeg -v error -i "$1" -map 0:a:0 -ac 1 -f f32le - 2> /dev/null | wc -c)
    [ "$bytes" -gt 0 ] && python3 -c "import sys; print('%.3f' % (int(sys.argv[1]) / 4 / int(sys.argv[2])))" "$bytes" "$rate"
}

printf '%-44s %-10s %10s %10s  %s\n' file plugin abplayer ffmpeg verdict
total=0; crashes=0; hangs=0; refused=0; both_refused=0; differ=0
for file in $(find mutagen-*/tests/data pytaglib-*/tests/data -type f 2> /dev/null | sort); do
    total=$((total + 1))
    name=$(basename "$file")
    out="$WORK/out/$total.wav"
    error=$(timeout 60 "$ABPLAYER" decode "$file" -o "$out" 2>&1 > /dev/null); status=$?
    plugin=$(timeout 30 "$ABPLAYER" probe --json "$file" 2> /dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["plugin"])' 2> /dev/null)
    ours=""
    # (our wav is float: sox reads it, Python's wave module does not)
    [ $status -eq 0 ] && [ -f "$out" ] && ours=$(soxi -D "$out" 2> /dev/null)
    theirs=$(ffmpeg_seconds "$file")
    if [ $status -eq 124 ]; then verdict="HANG"; hangs=$((hangs + 1))
    elif [ $status -ge 128 ]; then verdict="CRASH (signal $((status - 128)))"; crashes=$((crashes + 1))
    elif [ -z "$ours" ] && [ -z "$theirs" ]; then verdict="both refuse"; both_refused=$((both_refused + 1))
    elif [ -z "$ours" ]; then verdict="refused: $(echo "$error" | head -1 | cut -c1-90)"; refused=$((refused + 1))
    elif [ -z "$theirs" ]; then verdict="ffmpeg refuses"
    elif python3 -c "import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) <= 0.05)" "$ours" "$theirs"; then verdict="differs by $(python3 -c "import sys; print('%+.3f' % (float(sys.argv[1]) - float(sys.argv[2])))" "$ours" "$theirs") s"; differ=$((differ + 1))
    else verdict="same"
    fi
    printf '%-44s %-10s %10s %10s  %s\n' "${name:0:44}" "${plugin:--}" "${ours:--}" "${theirs:--}" "$verdict"
    rm -f "$out"
done
echo
echo "$total files: $crashes crashes, $hangs hangs, $refused refused that ffmpeg plays, $both_refused refused by both, $differ differ by more than 50 ms"
[ $crashes -eq 0 ] && [ $hangs -eq 0 ]
