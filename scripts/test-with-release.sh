#!/bin/bash
# test-with-release.sh RELEASE_FILTER: `make test`'s runs. The debug build's tests run while the
# release build (scripts/build-release.sh) is made beside them, in a scratch folder of its own
# (.build/test-release: SwiftPM locks .build while it builds the debug tests); then the end-to-end
# tests of the commands used most run against the release build (RELEASE_FILTER), and last every
# bench script once on tiny inputs against it (scripts/bench-smoke.sh). Not bench-smoke beside the
# tests: its real-time players (mpv, cmus, pulse, jack) load the machine the tests' own real-time
# outputs play on (with it beside them and stress-ng, an ALSA-over-pulse pause test failed once).
#
# Why beside: on two cores a cold release build takes about five minutes and the tests about six,
# and much of the tests' time is spent waiting on real servers, terminals and processes, not
# computing: side by side they take minutes less than one after the other. The tests hold on a
# loaded machine (they wait for conditions, never for a fixed time), which this makes sure of
# every run.
set -u
cd "$(dirname "$0")/.."
release_filter=${1:?usage: test-with-release.sh RELEASE_FILTER}
scratch=.build/test-release
log=$scratch.log
mkdir -p .build

echo "make test: the release build runs beside the tests ($log)" >&2
RELEASE_FALLBACK=1 SCRATCH=$scratch scripts/build-release.sh >"$log" 2>&1 &
beside=$!
# Whatever ends this script ends what runs beside it too.
trap 'kill "$beside" 2>/dev/null; pkill -f -- "--scratch-path $scratch" 2>/dev/null' EXIT

scripts/run-tests.sh "$PWD/.build/debug"
tests=$?

wait "$beside"
built=$?
trap - EXIT
if [ "$built" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "abplayer: make test: the release build failed (the end of $log above)" >&2
    exit 1
fi
grep '^abplayer:' "$log" >&2 || true # the one line saying it fell back to a plain release build, if it did
[ "$tests" -eq 0 ] || exit "$tests"
scripts/run-tests.sh "$PWD/$scratch/release" --filter "$release_filter" || exit
scripts/bench-smoke.sh "$scratch/release"
