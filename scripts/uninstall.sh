#!/usr/bin/env bash
# uninstall.sh: `make uninstall`. Removes exactly the files `make install` put under
# $DESTDIR$PREFIX, as its list (lib/abplayer/installed-files) names them, then the list, then the
# folders of abplayer's own that are left empty (lib/abplayer/plugins, lib/abplayer,
# include/abplayer). Nothing else: shared folders such as share/man/man1 stay.
set -euo pipefail
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
root=$destdir$prefix
manifest=$root/lib/abplayer/installed-files
[ -f "$manifest" ] || { echo "abplayer: nothing to uninstall: $manifest not found (was it installed with PREFIX=$prefix?)" >&2; exit 1; }
count=0
while read -r file; do
    # The list is ours, but a line that climbs out of PREFIX is never followed.
    case "/$file/" in */../* | //) echo "abplayer: $manifest: skipping '$file'" >&2; continue ;; esac
    [ "$file" = lib/abplayer/installed-files ] && continue
    if [ -e "$root/$file" ] || [ -L "$root/$file" ]; then rm -f -- "$root/$file"; count=$((count + 1)); fi
done < "$manifest"
rm -f -- "$manifest"
for dir in lib/abplayer/plugins lib/abplayer include/abplayer; do
    [ -d "$root/$dir" ] && rmdir --ignore-fail-on-non-empty -- "$root/$dir"
done
echo "abplayer: removed $((count + 1)) files from $root" >&2
