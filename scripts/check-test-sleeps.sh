#!/bin/sh
# check-test-sleeps.sh: fails (exit 1) when a test under Tests/ uses a fixed sleep as its time
# base. `make test` runs it before building (issue 29: a suite that cannot flake). A test waits for
# the condition it needs with waitUntil(within:) (Tests/TestSupport/Deadline.swift); real time the
# product itself measures passes through letRealTimePass(seconds:because:) there, with a reason.
#
# What it refuses, in the Swift files and shell scripts under Tests/ (comments set aside):
#   Thread.sleep(forTimeInterval: X), Task.sleep(for: .seconds(X) / .milliseconds(X) / ...),
#   any clock's .sleep(for:), .sleep(nanoseconds: N), usleep(N), sleep(N), and a shell `sleep N`
#   (in a script, or after ; & | in a Swift string), when the literal is 0.2 s or more;
#   the same calls with a time it cannot read as a literal (a variable, an expression,
#   .sleep(until:)): it cannot judge them, so they go through the helpers or are refused;
#   a `while` whose condition is the clock alone around a sleep (a fixed wait built of short ones);
#   letRealTimePass without a `because: "..."` on the same line.
# Allowed: polls under 0.2 s (the pause of a deadline loop), and everything in Deadline.swift, the
# helpers' home. Files listed in scripts/test-sleeps-allowed.txt are reported but do not fail.
#
# grep-speed on purpose (one awk pass, no Swift build): it runs before every test run.
set -eu
cd "$(dirname "$0")/.."

# One awk for every file (xargs could split them over several, each with its own END).
set -- $(find Tests -type f \( -name '*.swift' -o -name '*.sh' \) | LC_ALL=C sort)
awk \
    -v allowed=scripts/test-sleeps-allowed.txt \
    -v helpers=Tests/TestSupport/Deadline.swift '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# The text of a call argument: from the start of `s` to the first top-level "," or ")".
function argument(s,    i, c, depth, out) {
    depth = 0; out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "(") depth++
        else if (c == ")") { if (depth == 0) return out; depth-- }
        else if (c == "," && depth == 0) return out
        out = out c
    }
    return ""    # not closed on this line: unreadable
}

# A literal number (underscores allowed) or a product of literals; sets `readable`.
function literal(s,    parts, n, i, value, part) {
    s = trim(s); gsub(/_/, "", s)
    n = split(s, parts, "*"); value = 1
    for (i = 1; i <= n; i++) {
        part = trim(parts[i])
        if (part !~ /^[0-9]+(\.[0-9]+)?$/) { readable = 0; return 0 }
        value *= part
    }
    readable = 1
    return value
}

# Seconds in a Duration literal such as .seconds(2) or .milliseconds(1_500); sets `readable`.
function duration(s,    unit, scale) {
    s = trim(s); sub(/^Duration/, "", s)
    if (!match(s, /^\.(seconds|milliseconds|microseconds|nanoseconds)\(/)) { readable = 0; return 0 }
    unit = substr(s, 2, RLENGTH - 2)
    scale = unit == "seconds" ? 1 : unit == "milliseconds" ? 1e3 : unit == "microseconds" ? 1e6 : 1e9
    s = substr(s, RLENGTH + 1)
    if (substr(s, length(argument(s)) + 1, 1) != ")" || trim(substr(s, length(argument(s)) + 2)) != "") { readable = 0; return 0 }
    return literal(argument(s)) / scale
}

function report(message) {
    if (FILENAME in allow) {
        allowedHits[FILENAME]++
        printf "abplayer: %s:%d: %s (allowed for now by %s: %s)\n", FILENAME, FNR, message, allowed, allow[FILENAME] > "/dev/stderr"
    } else {
        failures++
        printf "abplayer: %s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
    }
}

function judge(seconds, text) {
    if (!readable)
        report("a sleep of a computed time (" trim(text) ") used as a time base, which this check cannot judge; " \
               "wait for the condition with waitUntil(within:) (Tests/TestSupport/Deadline.swift), the one way a test waits, " \
               "or, where the product itself measures that real time, letRealTimePass(seconds:because:)")
    else if (seconds >= 0.2 - 1e-9)   # 200_000 µs is 0.2 s, whatever the floating point says
        report(sprintf("a fixed sleep of %g s used as a time base; wait for the condition with waitUntil(within:) " \
                       "(Tests/TestSupport/Deadline.swift), the one way a test waits", seconds))
}

BEGIN {
    while ((getline line < allowed) > 0) {
        sub(/#.*/, "", line)
        if (trim(line) == "") continue
        split(line, field, ":")
        path = trim(field[1]); reason = trim(substr(line, index(line, ":") + 1))
        allow[path] = reason; order[++allowCount] = path
    }
    split(helpers, helperList, " ")
    for (i in helperList) helper[helperList[i]] = 1
}

FILENAME in helper { next }

{
    code = $0
    shell = FILENAME ~ /\.sh$/
    if (shell) { if (match(code, /(^|[ \t])#/)) code = substr(code, 1, RSTART - 1) }
    else if (match(code, /(^|[^:])\/\//)) code = substr(code, 1, RSTART)

    # Sleep calls of Swift and C.
    rest = shell ? "" : code
    while ((at = index(rest, "sleep(")) > 0) {
        before = substr(rest, 1, at - 1); after = substr(rest, at + 6)
        previous = substr(before, length(before), 1)
        kind = ""
        if (previous == "u" && (length(before) < 2 || substr(before, length(before) - 1, 1) !~ /[A-Za-z0-9_.]/)) kind = "micro"
        else if (previous == ".") {
            if (match(after, /^[ \t]*forTimeInterval:/)) kind = "seconds"
            else if (match(after, /^[ \t]*for:/)) kind = "duration"
            else if (match(after, /^[ \t]*nanoseconds:/)) kind = "nano"
            else if (match(after, /^[ \t]*until:/)) kind = "until"
            if (kind != "") after = substr(after, RLENGTH + 1)
        } else if (previous !~ /[A-Za-z0-9_]/) kind = "seconds"
        if (kind != "") {
            text = argument(after)
            if (kind == "duration") seconds = duration(text)
            else if (kind == "until") readable = 0
            else seconds = literal(text) / (kind == "micro" ? 1e6 : kind == "nano" ? 1e9 : 1)
            judge(seconds, kind == "until" ? "until: " text : text)
        }
        rest = after
    }

    # `sleep N` of a shell: a script line, or a command line inside a Swift string.
    rest = code
    # (a number and nothing more: `sleep 10m` in an abplayer script is its sleep timer)
    pattern = (shell ? "(^|[;&|( \t])" : "[;&|][ \t]*") "sleep[ \t]+[0-9.]+([^0-9A-Za-z:.]|$)"
    while (match(rest, pattern)) {
        text = substr(rest, RSTART, RLENGTH); sub(/^.*sleep[ \t]+/, "", text); sub(/[^0-9.]$/, "", text)
        judge(literal(text), text)
        rest = substr(rest, RSTART + RLENGTH)
    }

    # A fixed wait built of short sleeps: a loop on the clock alone.
    if (!shell && match(code, /while[ \t].*\{/) && code ~ /sleep\(/) {
        condition = substr(code, RSTART + 6, RLENGTH - 7)
        if (condition ~ /now/ && condition !~ /&&|\|\||,/)
            report("a fixed wait (a loop on the clock alone) used as a time base; wait for the condition with " \
                   "waitUntil(within:) (Tests/TestSupport/Deadline.swift), the one way a test waits")
    }

    if (!shell && code ~ /letRealTimePass\(/ && code !~ /because:[ \t]*"[^"]/)
        report("letRealTimePass without its reason (because: \"...\") on the same line")
}

END {
    for (i = 1; i <= allowCount; i++)
        if (!(order[i] in allowedHits))
            printf "abplayer: %s: %s has no fixed sleep left; its line can go\n", allowed, order[i] > "/dev/stderr"
    if (failures > 0) {
        printf "abplayer: %d wait%s in Tests/ above not through Tests/TestSupport/Deadline.swift\n", failures, failures == 1 ? "" : "s" > "/dev/stderr"
        exit 1
    }
}' "$@"
