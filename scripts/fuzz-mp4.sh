#!/usr/bin/env bash
# make fuzz: runs libFuzzer on the MP4 parser for FUZZ_SECONDS (default 60), starting from small
# real files made by ffmpeg. Findings (crashes, hangs over 10 s, single allocations over 256 MB,
# which would be an allocation sized by a claim) are written to Tests/Fuzz/regressions/, which
# `make test` feeds to the parser: commit them, then fix the parser.
#
# usage: scripts/fuzz-mp4.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
work=.build/fuzz
mkdir -p "$work/seeds" "$work/corpus" Tests/Fuzz/regressions

# (ld.gold warns about every ASan helper symbol; the log is only shown when the build fails)
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name MP4Fuzz \
    Plugins/MP4/*.swift Tests/Fuzz/MP4Fuzz.swift -o "$work/mp4-fuzz" >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi

# Seeds: small real files of every shape the parser knows (both chapter forms, tags, cover,
# faststart, mono, a second audio-less track).
if [ -z "$(ls -A "$work/seeds")" ]; then
    src="$work/seed.wav"
    ffmpeg -v error -y -f lavfi -i "sine=440:d=1" -ac 2 "$src"
    printf ';FFMETADATA1\ntitle=Seed\nartist=Fuzz\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=A\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=500\nEND=1000\ntitle=B\n' >"$work/meta.txt"
    ffmpeg -v error -y -f lavfi -i color=red:s=16x16 -frames:v 1 "$work/cover.jpg"
    ffmpeg -v error -y -i "$src" -i "$work/meta.txt" -i "$work/cover.jpg" -map 0:a -map 2:v -c:v copy \
        -disposition:v:0 attached_pic -map_metadata 1 -map_chapters 1 -c:a aac -b:a 32k "$work/seeds/chapters.m4b"
    ffmpeg -v error -y -i "$src" -c:a aac -b:a 32k -movflags +faststart "$work/seeds/faststart.m4a"
    ffmpeg -v error -y -i "$src" -ac 1 -c:a aac -b:a 16k "$work/seeds/mono.mp4"
    ffmpeg -v error -y -f lavfi -i color=blue:s=16x16:d=1 -i "$src" -c:v mpeg4 -c:a aac -b:a 16k -shortest "$work/seeds/video-first.mp4"
fi
# Fragmented files (moof/traf/trun after moov, issue 31), added to seed directories made before them.
for flags in frag_keyframe+empty_moov frag_keyframe+empty_moov+default_base_moof frag_keyframe; do
    seed="$work/seeds/fragmented-${flags//+/-}.m4a"
    [ -f "$seed" ] || ffmpeg -v error -y -f lavfi -i "sine=440:d=1" -ac 2 -c:a aac -b:a 16k -movflags "$flags" -frag_duration 300000 "$seed"
done

echo "fuzzing the MP4 parser for $seconds s; findings go to Tests/Fuzz/regressions/"
"$work/mp4-fuzz" "$work/corpus" "$work/seeds" Tests/Fuzz/regressions \
    -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=256 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix=Tests/Fuzz/regressions/ -print_final_stats=1 2>&1 | tail -n 25
