#!/usr/bin/env bash
# The release build (`make release`; `make bench` measures it): .build/release/abplayer and its
# plugins. Three things on top of `swift build -c release`, each for the memory a player uses
# while it plays (issue 12: under 28 MiB):
#  1. Foundation linked statically. As shared libraries, Foundation, FoundationEssentials,
#     FoundationInternationalization and ICU cost 9.6 MiB resident, mostly their symbol tables and
#     relocations, because GRDB imports the whole of Foundation. Statically, only what runs is
#     mapped. The Swift runtime (libswiftCore and its siblings) stays shared: the plugins, Swift
#     code themselves, load it, and one process must have one Swift runtime. The modules' automatic
#     links to Foundation are turned off (-disable-autolink-library) for every module, GRDB's too,
#     so that the shared Foundation is never loaded beside the static one.
#  2. lld with function sections, --gc-sections and packed relative relocations (DT_RELR, glibc
#     2.36): what is never called is left out, and the relocation table shrinks from 1.5 MiB.
#  3. A symbol order: the functions that `play`, `listen` and `--help` run are put together at the
#     front of the code, found by running this very build under scripts/pagetrace.c. The kernel
#     maps code 64 KiB around each page touched, so scattered functions make most of it resident.
# usage: scripts/build-release.sh      (SWIFT=swift, umask 022 like the debug build; RELEASE_FALLBACK=1:
#        a toolchain without the static Foundation gets a plain `swift build -c release`, said in one line;
#        SCRATCH=DIR builds in DIR instead of .build, so that it can run beside a debug build holding
#        .build's lock: the products are then in DIR/release)
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch_path=${SCRATCH:-.build}
umask 022

resources=$("$swift" -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')
static="${resources%/swift}/swift_static/linux"
if [ ! -f "$static/libFoundation.a" ]; then
    # RELEASE_FALLBACK=1 (make test): the tests of the release build still run, against a plain one.
    if [ "${RELEASE_FALLBACK:-0}" = 1 ]; then
        echo "abplayer: $static/libFoundation.a not found: this toolchain has no static Foundation; the release tests run against 'swift build -c release'" >&2
        exec "$swift" build -c release --scratch-path "$scratch_path"
    fi
    echo "abplayer: $static/libFoundation.a not found: this toolchain has no static Foundation; 'swift build -c release' builds without it" >&2
    exit 1
fi

flags=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --gc-sections
    -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections)
for module in Foundation FoundationEssentials FoundationInternationalization _FoundationICU \
    _FoundationCShims _FoundationCollections CoreFoundation; do
    flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc "$module")
done
flags+=(-Xlinker --start-group)
for archive in libFoundation.a libFoundationInternationalization.a libFoundationEssentials.a \
    lib_FoundationICU.a lib_FoundationCollections.a lib_FoundationCShims.a libCoreFoundation.a; do
    flags+=(-Xlinker "$static/$archive")
done
# What the static Foundation needs that the autolink would have named.
flags+=(-Xlinker --end-group -Xlinker -lstdc++ -Xlinker -lswiftSynchronization -Xlinker -lswiftDispatch -Xlinker -ldispatch)

echo "release: building (static Foundation, lld)" >&2
"$swift" build -c release --scratch-path "$scratch_path" "${flags[@]}"

# The order: trace the build just made as it plays a short MP3 to the null sink, listens to it as
# a book, and prints --help. HOME and XDG_* point to a scratch folder: the listener's library is
# never touched.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command -v lame >/dev/null || { echo "abplayer: the release build needs lame to trace 'play' (apt-get install lame, or 'make release' installs it)" >&2; exit 1; }
# cc when there is one; the Swift toolchain's clang otherwise (a machine with only the toolchain).
"$(command -v cc || command -v clang)" -O2 -shared -fPIC -o "$scratch/pagetrace.so" scripts/pagetrace.c
head -c 352800 /dev/zero | lame --quiet -r -s 44.1 --bitwidth 16 -m s - "$scratch/silence.mp3"
binary=$scratch_path/release/abplayer
in_scratch() { # command...
    HOME=$scratch XDG_DATA_HOME=$scratch/data XDG_CONFIG_HOME=$scratch/config XDG_CACHE_HOME=$scratch/cache "$@"
}
traced() { # seconds, arguments...
    local seconds=$1; shift
    in_scratch timeout -s INT "$seconds" env SWIFT_BACKTRACE=enable=no PAGETRACE_OUT="$scratch/pages" \
        LD_PRELOAD="$scratch/pagetrace.so" "$binary" "$@" </dev/null >/dev/null 2>&1 || true
}
traced 5 play --output null "$scratch/silence.mp3"
# `listen`: the player people leave running (its REPL, the library, the place saved every second).
in_scratch "$binary" import --library "$scratch/library.sqlite" "$scratch/silence.mp3" >/dev/null 2>&1
traced 4 listen --library "$scratch/library.sqlite" --output null silence
traced 5 --help
[ -s "$scratch/pages" ] || { echo "abplayer: tracing $binary recorded nothing" >&2; exit 1; }
order=$scratch_path/release-symbol-order.txt
nm -n --defined-only "$binary" > "$scratch/symbols"
awk -f scripts/symbol-order.awk phase=trace "$scratch/pages" phase=symbols "$scratch/symbols" |
    sort -n -k1,1 -k2,2 | cut -d' ' -f3 > "$order"
echo "release: linking again with $(wc -l < "$order") functions in the order they ran" >&2
"$swift" build -c release --scratch-path "$scratch_path" "${flags[@]}" -Xlinker --symbol-ordering-file="$(realpath "$order")" -Xlinker --no-warn-symbol-ordering
