#!/bin/bash
# run-tests.sh BIN_DIR [TEST OPTIONS]: the tests for `make test`, with a watchdog and a clean /tmp
# after. The end-to-end tests run the abplayer in BIN_DIR; options such as --filter and --skip go
# to Swift Testing. The tests are built first (`swift build --build-tests`), then their binary is
# run directly, as `swift test` runs it (`--testing-library swift-testing`): two `swift test` at
# once wait for each other on SwiftPM's lock of .build, the binary does not.
#
# Lanes: a run with no --filter or --skip is two test processes side by side, the real-time
# output tests (EndToEndTests.OutputTests: serialized, each plays seconds of audio through a real
# server) in one and every other test in the other. Why: Swift's cooperative pool has one thread
# per core, two here, and in one process the hundreds of other tests hold both in turn, so the
# serialized chain's tasks waited for a thread between their steps: its first test, 20 s of
# audio, took from 27 to 198 s in a full run, and the chain was the run's critical path. In a
# process of its own, the chain has a pool of its own.
#
# Watchdog: a run that has not ended after TEST_WATCHDOG_MINUTES (default 45; a whole run takes
# about 10 on two loaded cores) has hung. Rather than leave CI to its own timeout with nothing
# said, the watchdog prints every thread of the test process (gdb) and its child processes to
# standard error, then kills it: the run fails, and says where it stood.
#
# Clean-up: the tests' scratch folders in /tmp (fixtures, libraries, private audio and sync
# servers) are removed when the run ends, passed or failed: left behind, a few hundred runs filled
# this machine's disk, and a Syncthing instance refuses to scan with under 1 % free. Only folders
# of the tests' own prefixes made during this run (newer than its marker) are removed.
set -u
bin_dir=${1:?usage: run-tests.sh BIN_DIR [TEST OPTIONS]}
shift
minutes=${TEST_WATCHDOG_MINUTES:-45}
marker=$(mktemp /tmp/abplayer-test-run.XXXXXX)

umask 022
swift=${SWIFT:-swift}
$swift build --build-tests || exit
tests_binary=$($swift build --show-bin-path)/abplayerPackageTests.xctest
run_lane() { # TEST OPTIONS...
    ABPLAYER_BIN_DIR=$bin_dir "$tests_binary" --testing-library swift-testing "$@" &
    lanes+=($!)
}

output_lane='EndToEndTests\.OutputTests/'
lanes=()
case " $* " in
*" --filter "* | *" --skip "*)
    run_lane "$@" ;;
*)
    echo "run-tests.sh: the real-time output tests ($output_lane) run beside the others, in a process of their own" >&2
    run_lane --filter "$output_lane" "$@"
    run_lane --skip "$output_lane" "$@" ;;
esac

running() { # whether any lane still runs
    local lane
    for lane in "${lanes[@]}"; do kill -0 "$lane" 2>/dev/null && return 0; done
    return 1
}

watchdog() {
    local waited=0
    while running; do
        sleep 10
        waited=$((waited + 10))
        [ "$waited" -ge $((minutes * 60)) ] || continue
        local runner
        {
            echo "abplayer: make test: the tests have run for $minutes minutes and hang; where they stand:"
            for runner in "${lanes[@]}"; do # each lane is a test process
                kill -0 "$runner" 2>/dev/null || continue
                ps -o pid,etime,stat,args --ppid "$runner" || true
                gdb -p "$runner" -batch -ex "thread apply all bt 30" 2>&1 | grep -E "^Thread|^#" || true
                kill -9 "$runner"
            done
        } >&2
        return
    done
}
watchdog &
watching=$!

status=0
for lane in "${lanes[@]}"; do
    wait "$lane" || status=$?
done
kill "$watching" 2>/dev/null
wait "$watching" 2>/dev/null

# Every server a test started during this run is stopped, passed or failed, before its folder
# goes: a test that failed or was killed before its own clean-up left a jackd running after the run.
harness="$(cd "$(dirname "$0")/.." && pwd)/Tests/Harness"
for dir in $(find /tmp -maxdepth 1 -newer "$marker" -name 'abp-*' -type d 2>/dev/null); do
    [ -s "$dir/jackd.pid" ] && "$harness/stop-jack.sh" "$dir" >/dev/null 2>&1
    [ -s "$dir/pulse/pid" ] && "$harness/stop-pulse.sh" "$dir" >/dev/null 2>&1
    [ -s "$dir/dbus.pid" ] && "$harness/stop-dbus.sh" "$dir" >/dev/null 2>&1
    [ -s "$dir/syncthing.pid" ] && "$harness/stop-syncthing.sh" "$dir" >/dev/null 2>&1
done
# A test's tmux server (its socket in the test's folder) that outlived the test is killed: one
# whose pane waited at a prompt ignored kill-server and SIGTERM.
for dir in $(find /tmp -maxdepth 1 -newer "$marker" -name 'abplayer-test-*' -type d 2>/dev/null); do
    pkill -KILL -f "^tmux -S $dir/" 2>/dev/null
done

find /tmp -maxdepth 1 -newer "$marker" \( -name 'abp-*' -o -name 'abpc-*' -o -name 'abplayer-test-*' \
    -o -name 'abplayer-fixtures-*' \) -exec rm -rf {} + 2>/dev/null
rm -f "$marker"
exit $status
