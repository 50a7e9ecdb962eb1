#!/bin/sh
# lazy-depends.sh PACKAGE_ROOT: the packages of the libraries abplayer opens at run time by
# soname (dlopen: PulseAudio, ALSA, JACK, FFmpeg, soxr, D-Bus, chafa, ...; the plugins and the
# host load them lazily, so a command that never plays starts without them). dpkg-shlibdeps sees
# only what the ELF files link (NEEDED); these it cannot see. Found as the sonames the files
# name as strings ("libpulse.so.0") and do not link, each mapped to the package that has it and
# that package's own shlibs line, as dpkg-shlibdeps would: writes lazy:Depends to the substvars.
set -eu
root=${1:?usage: lazy-depends.sh PACKAGE_ROOT}
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
elfs=$(find "$root" -type f \( -name '*.so' -o -path '*/bin/*' \))
needed=$(for elf in $elfs; do readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u)
named=$(for elf in $elfs; do strings -n 8 "$elf" | grep -E '^lib[A-Za-z0-9_+-]+\.so\.[0-9]+$' || true; done | sort -u)
depends=""
for soname in $(printf '%s\n' "$named" | grep -vxF "$needed"); do
    owner=$(dpkg -S "*/$multiarch/$soname" 2>/dev/null | head -n 1 | cut -d: -f1) || true
    [ -n "$owner" ] || { echo "lazy-depends.sh: no installed package has $soname (a build dependency missing?)" >&2; exit 1; }
    name=${soname%.so.*} version=${soname##*.so.}
    dependency=$(cat /var/lib/dpkg/info/"$owner".shlibs /var/lib/dpkg/info/"$owner":*.shlibs 2>/dev/null |
        awk -v name="$name" -v version="$version" '$1 == name && $2 == version { $1 = $2 = ""; sub(/^ +/, ""); print; exit }')
    depends="$depends${depends:+, }${dependency:-$owner}"
    echo "lazy-depends.sh: $soname (opened at run time) -> ${dependency:-$owner}" >&2
done
echo "lazy:Depends=$depends" >> "$root/../abplayer.substvars"
