#!/usr/bin/env bash
# make fuzz: runs libFuzzer on the sync journal's parser and merge for FUZZ_SECONDS (default 60),
# starting from journals of every line the format has (SyncJournalFormat.swift), written here by
# hand. The sync folder is written by other machines and by anyone who can write to the share,
# so every input must parse or be refused, merge, and write back as the same records. Findings
# (crashes, hangs over 10 s, single allocations over 256 MB) are written to Tests/Fuzz/regressions/
# as journal-*.txt, which `make test` reads through the parser (SyncJournalRegressionTests):
# commit them, then fix the parser.
#
# Needs `swift build` first: the fuzzer is Sources/Library compiled again with the sanitizers, as
# one module with Tests/Fuzz/JournalFuzz.swift, linked to the debug build's GRDB and PathNames
# (SwiftPM cannot build one target with -sanitize=fuzzer; the merge's types live beside GRDB's).
#
# usage: scripts/fuzz-journal.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
work=.build/fuzz-journal
debug=.build/debug
mkdir -p "$work/seeds" "$work/corpus" Tests/Fuzz/regressions

if [ ! -d "$debug/GRDB.build" ] || [ ! -f "$debug/Modules/GRDB.swiftmodule" ]; then
    echo "fuzz-journal.sh: build first (swift build): the fuzzer links $debug's GRDB" >&2
    exit 1
fi
# (ld.gold warns about every ASan helper symbol; the log is only shown when the build fails)
# shellcheck disable=SC2046
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name JournalFuzz \
    -I "$debug/Modules" -Xcc -fmodule-map-file=.build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap \
    $(find Sources/Library -name '*.swift' | sort) Tests/Fuzz/JournalFuzz.swift \
    "$debug"/GRDB.build/*.o "$debug"/PathNames.build/*.o -lsqlite3 \
    -o "$work/journal-fuzz" >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi

# Seeds: every tag with good and edge values (escapes, empty fields, a newer writer's key and
# tag, a record before its book, a cut last line), two devices' shapes, and the regressions so far.
now=1764000000000
fp1='1000:00000000000000aa' fp2='1000:00000000000000bb'
tab=$'\t'
{
    printf 'abplayer-journal\t1\tLAPTOP\tmy\\tlaptop\n'
    printf 'B\tr1\tWar \\c Peace\tTolstoy\t7200.000\t%s,%s\n' "$fp1" "$fp2"
    printf 'P\tr1\t%s\t0\t1000\n' "$now"
    printf 'P\tr1\t%s\t1\t22050\n' "$((now + 1000))"
    printf 'F\tr1\t%s\t1\n' "$now"
    printf 'M\tr1\t%s\tM1\t1\t500\tuser\t%s\ta note\\nwith lines\n' "$now" "$now"
    printf 'R\tr1\t%s\tM0\n' "$now"
    printf 'S\tr1\t%s\tspeed=1.25\tskip=30.0\tsleep=1800.0\tsilence=600\tloudness=1\trepeat=book\tshuffle=0\tfuture=1\n' "$now"
    printf 'C\tr1\t%s\t0:0:One,1:100:Two: the \\c colon\n' "$now"
    printf 'X\tr1\t%s\ta newer tag\n' "$now"
    printf 'B\tr2\tMaster\t\t\t%s\n' "$fp2"
    printf 'S\tr2\t%s\tspeed=\tskip=\tsleep=\tsilence=off\tloudness=\trepeat=off\tshuffle=1\n' "$now"
    printf 'C\tr2\t%s\t\n' "$now"
    printf 'P\tr2\t%s\t0\t7' "$now"
} >"$work/seeds/laptop.txt"
{
    printf 'abplayer-journal\t1\tPHONE\n'
    printf 'P\tr1\t%s\t0\t5\n' "$now"
    printf 'B\tr1\tWar \\c Peace\tTolstoy\t7200.000\t%s,%s\n' "$fp1" "$fp2"
    printf 'P\tr1\t%s\t1\t99\n' "$((now + 5))"
    printf 'F\tr1\t%s\t0\n' "$((now + 5))"
} >"$work/seeds/phone.txt"
printf 'abplayer-journal\t2\tNEWER\tname\textra\nB\tr\tT\t\t1.5\ta\nP\tr\t%s\t0\t1\textra%s\n' "$now" "$tab" >"$work/seeds/newer.txt"
cp Tests/Fuzz/regressions/journal-* "$work/seeds/" 2>/dev/null || true

echo "fuzzing the sync journal's parser and merge for $seconds s; findings go to Tests/Fuzz/regressions/journal-*.txt"
status=0
"$work/journal-fuzz" "$work/corpus" "$work/seeds" \
    -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=256 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix=Tests/Fuzz/regressions/journal- -print_final_stats=1 >"$work/run.log" 2>&1 || status=$?
tail -n 25 "$work/run.log"
# libFuzzer names a finding crash-SHA1 (and so on); the regressions are journal-*.txt.
for finding in Tests/Fuzz/regressions/journal-*; do
    case $finding in *.txt) ;; *) mv "$finding" "$finding.txt" && echo "finding: $finding.txt" ;; esac
done
exit "$status"
