#!/usr/bin/env bash
# build-deb.sh: `make deb`. Builds the Debian package with Debian's own tools (dpkg-buildpackage
# -b -us -uc: binary only, unsigned; debian/rules builds the release and installs it with
# `make install`), then moves what dpkg-buildpackage writes beside the source folder (the .deb,
# its .buildinfo and .changes) into .build/deb, so nothing is left outside the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
out=.build/deb
dpkg-buildpackage -b -us -uc
mkdir -p "$out"
for file in ../abplayer_"${version}"_"${arch}".{deb,buildinfo,changes} ../abplayer-dbgsym_"${version}"_"${arch}".deb; do
    [ -f "$file" ] && mv -f "$file" "$out/"
done
echo "abplayer: $out/abplayer_${version}_${arch}.deb (install it: apt-get install ./$out/abplayer_${version}_${arch}.deb)" >&2
