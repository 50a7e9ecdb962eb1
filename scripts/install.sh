#!/usr/bin/env bash
# install.sh BUILD_DIR: `make install`. Installs the abplayer built in BUILD_DIR (its binary and
# its libabplayer-*.so plugins) under $DESTDIR$PREFIX, as a Linux program is installed:
#   bin/abplayer                              stripped; RUNPATH $ORIGIN/../lib/abplayer
#   lib/abplayer/plugins/libabplayer-*.so     stripped; RUNPATH $ORIGIN/..
#   lib/abplayer/lib*.so                      the Swift runtime the build links, shipped privately
#                                             (Debian 12 has no Swift runtime package); RUNPATH $ORIGIN
#   share/man/man1/abplayer.1                 from the binary's own command definitions (`abplayer man-page`)
#   share/man/man7/abplayer.7                 from docs/guide.md (scripts/guide-man.awk)
#   share/bash-completion/completions/abplayer, share/zsh/vendor-completions/_abplayer,
#   share/fish/vendor_completions.d/abplayer.fish   from the binary (`--generate-completion-script`)
#   lib/systemd/user/abplayer.service         `abplayer --daemon` (dist/abplayer.service.in)
#   include/abplayer/..., share/pkgconfig/... the plugin SDK (`make install-sdk`)
#   lib/abplayer/installed-files              this list, which `make uninstall` removes (scripts/uninstall.sh)
#
# Debug symbols are dropped (strip): the release binary is 85 MB with them.
# Everything is made in a staging folder first, then copied file by file: the list of what was
# installed is exactly the staging folder's files, and a failure halfway leaves no new file.
# A file an earlier install put there and this one does not (a runtime library no longer linked)
# is removed, so the list stays the truth about what is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:?usage: install.sh BUILD_DIR (PREFIX, DESTDIR from the environment)}
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
manifest_name=lib/abplayer/installed-files
binary=$build_dir/abplayer
umask 022

[ -x "$binary" ] || { echo "abplayer: $binary not found: build it first ('make release'), or name the build with BUILD_DIR=" >&2; exit 1; }
shopt -s nullglob
plugins=("$build_dir"/libabplayer-*.so)
shopt -u nullglob
[ ${#plugins[@]} -gt 0 ] || { echo "abplayer: no plugins (libabplayer-*.so) in $build_dir" >&2; exit 1; }
for tool in patchelf strip readelf ldd; do
    command -v "$tool" >/dev/null || { echo "abplayer: make install needs $tool (apt-get install patchelf binutils)" >&2; exit 1; }
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage$prefix
install -d "$root/bin" "$root/lib/abplayer/plugins"

# The binary and the plugins, stripped first: patchelf after strip (strip after patchelf can
# break a file whose headers patchelf moved).
install -m 0755 "$binary" "$root/bin/abplayer"
strip --strip-all "$root/bin/abplayer"
for plugin in "${plugins[@]}"; do
    install -m 0644 "$plugin" "$root/lib/abplayer/plugins/"
    strip --strip-unneeded "$root/lib/abplayer/plugins/$(basename "$plugin")"
done

# The private runtime: every library the binary or a plugin needs (directly or through another)
# that resolves into a directory the build's RUNPATH names by absolute path (the toolchain's,
# /opt/swift/usr/lib/swift/linux here), or into the build folder itself (a library product a
# target would link). ldd resolves the whole tree, as the loader will.
runpath_dirs() { # ELF: its RUNPATH's absolute entries
    readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p' | tr ':' '\n' | grep '^/' || true
}
mapfile -t private_dirs < <({ runpath_dirs "$binary"; for plugin in "${plugins[@]}"; do runpath_dirs "$plugin"; done; } | sort -u)
[ ${#private_dirs[@]} -gt 0 ] || { echo "abplayer: $binary names no runtime directory in its RUNPATH: nothing to ship" >&2; exit 1; }
private_dirs+=("$(realpath "$build_dir")")
linked=$(for elf in "$binary" "${plugins[@]}"; do ldd "$elf"; done)
mapfile -t runtime < <(echo "$linked" |
    awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u | while read -r library; do
        for dir in "${private_dirs[@]}"; do
            [ "$(realpath "$(dirname "$library")")" = "$(realpath "$dir")" ] && echo "$library"
        done
    done)
unresolved=$(echo "$linked" | grep 'not found' | sort -u || true)
[ -z "$unresolved" ] || { echo "abplayer: libraries not found for the build in $build_dir:" >&2; echo "$unresolved" >&2; exit 1; }
for library in "${runtime[@]}"; do
    target=$root/lib/abplayer/$(basename "$library")
    install -m 0644 "$library" "$target"
    strip --strip-unneeded "$target"
    patchelf --set-rpath '$ORIGIN' "$target"
done
patchelf --set-rpath '$ORIGIN/../lib/abplayer' "$root/bin/abplayer"
for plugin in "$root"/lib/abplayer/plugins/*.so; do patchelf --set-rpath '$ORIGIN/..' "$plugin"; done

# The manual, generated so it cannot go stale: abplayer(1) from the commands this binary parses;
# abplayer(7) from the guide. The completions, from the same definitions.
install -d "$root/share/man/man1" "$root/share/man/man7" "$root/share/bash-completion/completions" \
    "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d" "$root/lib/systemd/user"
# (HOME and the XDG folders point into the stage: running the build must not touch the installer's own.)
in_stage() { HOME=$stage XDG_DATA_HOME=$stage/data XDG_CONFIG_HOME=$stage/config XDG_CACHE_HOME=$stage/cache "$@"; }
in_stage "$binary" man-page > "$root/share/man/man1/abplayer.1"
version=$(in_stage "$binary" --version | sed -n '1s/^abplayer //p')
awk -v version="$version" -f scripts/guide-man.awk docs/guide.md > "$root/share/man/man7/abplayer.7"
in_stage "$binary" --generate-completion-script bash > "$root/share/bash-completion/completions/abplayer"
in_stage "$binary" --generate-completion-script zsh > "$root/share/zsh/vendor-completions/_abplayer"
in_stage "$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/abplayer.fish"
sed "s|@BINDIR@|$prefix/bin|g" dist/abplayer.service.in > "$root/lib/systemd/user/abplayer.service"
chmod 0644 "$root"/share/man/man?/* "$root"/share/*/*/*abplayer* "$root/lib/systemd/user/abplayer.service"

# (A make of its own, not the calling make's flags and variables: its DESTDIR is the stage.)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory install-sdk DESTDIR="$stage" PREFIX="$prefix" >/dev/null

# The list (paths under PREFIX), itself included, then every file copied to its place.
(cd "$root" && { find . -type f -printf '%P\n'; echo "$manifest_name"; } | sort -u) > "$stage/installed-files"
old_manifest=$destdir$prefix/$manifest_name
if [ -f "$old_manifest" ]; then
    comm -23 <(sort -u "$old_manifest") "$stage/installed-files" | while read -r stale; do
        rm -f -- "$destdir$prefix/$stale"
    done
fi
# A copy that fails (a full disk) takes back the files this run put where there were none, the
# failed one too: no file is left installed that no list names. (One an earlier install put there
# is still on that install's list.)
added=()
while read -r file; do
    [ "$file" = "$manifest_name" ] && continue
    mode=$(stat -c %a "$root/$file")
    target=$destdir$prefix/$file
    [ -e "$target" ] && new=false || new=true
    if ! install -D -m "$mode" "$root/$file" "$target"; then
        $new && rm -f -- "$target"
        rm -f -- "${added[@]}"
        echo "abplayer: installing $target failed: the files this install added are removed again" >&2
        exit 1
    fi
    $new && added+=("$target")
done < "$stage/installed-files"
install -D -m 0644 "$stage/installed-files" "$destdir$prefix/$manifest_name"
echo "abplayer: installed $(wc -l < "$stage/installed-files") files under $destdir$prefix (the list: $destdir$prefix/$manifest_name)" >&2
