#!/usr/bin/env bash
# make fuzz (second half): mutated real files through the real binary, `probe` then `decode`, for
# every decoder: MP3 (with ID3 tags, cover and chapters), Opus (tags, chapters), FLAC (tags,
# cuesheet; through the in-tree plugin, then through the out-of-tree example plugin) and Ogg Vorbis
# (tags, chapters).
# Counts executions, crashes (death by a signal) and hangs (no exit within 20 s); each finding is
# kept in .build/fuzz/findings/ with the command that shows it. Seeds are made by real encoders.
#
# usage: scripts/fuzz-files.sh BIN_DIR [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=$(cd "${1:?usage: fuzz-files.sh BIN_DIR [SECONDS]}" && pwd)
seconds=${2:-${FUZZ_SECONDS:-60}}
work=.build/fuzz/files
findings=.build/fuzz/findings
mkdir -p "$work/seeds" "$work/plugins" "$findings"
cc -O2 -o "$work/mutate" scripts/fuzz-mutate.c
make -s -C plugin-sdk/examples/flac >/dev/null
install -m 755 plugin-sdk/examples/flac/libabplayer-flac-example.so "$work/plugins/"
chmod 755 "$work/plugins"

seeds=$work/seeds
rm -f "$seeds/plain.ogg" # the Vorbis seed before there was a Vorbis decoder
if [ ! -f "$seeds/tagged.mp3" ] || [ ! -f "$seeds/chapters.ogg" ]; then
    # bitexact: no LIST chunk, which flac and oggenc would warn about
    ffmpeg -v error -y -f lavfi -i "sine=440:d=3" -ac 2 -fflags +bitexact -flags:a +bitexact "$work/seed.wav"
    ffmpeg -v error -y -f lavfi -i color=red:s=16x16 -frames:v 1 "$work/cover.jpg"
    printf ';FFMETADATA1\ntitle=Seed\nartist=Fuzz\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1500\ntitle=A\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1500\nEND=3000\ntitle=B\n' >"$work/meta.txt"
    ffmpeg -v error -y -i "$work/seed.wav" -i "$work/meta.txt" -i "$work/cover.jpg" -map 0:a -map 2:v -map_metadata 1 \
        -map_chapters 1 -c:v copy -id3v2_version 3 -c:a libmp3lame -b:a 32k "$seeds/tagged.mp3"
    lame --quiet -V 6 "$work/seed.wav" "$seeds/vbr.mp3"
    ffmpeg -v error -y -i "$work/seed.wav" -i "$work/meta.txt" -map 0:a -map_metadata 1 -map_chapters 1 \
        -c:a libopus -b:a 24k "$seeds/chapters.opus"
    printf 'FILE "seed.wav" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    INDEX 01 00:01:30\n' >"$work/seed.cue"
    flac --silent --force -T TITLE=Seed -T ARTIST=Fuzz --cuesheet="$work/seed.cue" -o "$seeds/tagged.flac" "$work/seed.wav"
    oggenc --quiet -c TITLE=Seed -c CHAPTER001=00:00:00.000 -c CHAPTER001NAME=A -c CHAPTER002=00:00:01.500 \
        -c CHAPTER002NAME=B -o "$seeds/chapters.ogg" "$work/seed.wav"
fi

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" ABPLAYER_PLUGIN_PATH=""
abplayer=("$bin_dir/abplayer")
runs=0 crashes=0 hangs=0
# 124: `timeout` ended it (a hang; its KILL after 5 more seconds still says 124); above 128: a
# signal (a crash); 0, 1 and 64 are answers.
judge() { # status file command...
    local status=$1 file=$2; shift 2
    runs=$((runs + 1))
    if [ "$status" -eq 124 ] || [ "$status" -gt 128 ]; then
        local kind=crash; [ "$status" -eq 124 ] && kind=hang
        [ "$kind" = hang ] && hangs=$((hangs + 1)) || crashes=$((crashes + 1))
        local keep="$findings/$kind-$(basename "$file")"
        cp "$file" "$keep"
        echo "$kind (status $status): $* -> kept as $keep" >&2
    fi
}
echo "fuzzing probe and decode with mutated files for $seconds s; findings go to $findings/"
end=$((SECONDS + seconds))
number=0
while [ $SECONDS -lt $end ]; do
    for seed in "$seeds"/*; do
        number=$((number + 1))
        extension=${seed##*.}
        file="$work/case-$number.$extension"
        "$work/mutate" "$seed" "$file" "$number"
        set +e
        timeout -k 5 20 "${abplayer[@]}" probe "$file" >/dev/null 2>&1
        judge $? "$file" probe "$file"
        timeout -k 5 20 "${abplayer[@]}" decode "$file" >/dev/null 2>&1
        judge $? "$file" decode "$file"
        if [ "$extension" = flac ]; then # the example, whose priority puts it first once installed
            timeout -k 5 20 "${abplayer[@]}" probe --plugin-dir "$work/plugins" "$file" >/dev/null 2>&1
            judge $? "$file" probe --plugin-dir "$work/plugins" "$file"
            timeout -k 5 20 "${abplayer[@]}" decode --plugin-dir "$work/plugins" "$file" >/dev/null 2>&1
            judge $? "$file" decode --plugin-dir "$work/plugins" "$file"
        fi
        set -e
        rm -f "$file"
    done
done
echo "$runs runs of probe/decode on mutated MP3, Opus, FLAC and Vorbis files: $crashes crashes, $hangs hangs"
