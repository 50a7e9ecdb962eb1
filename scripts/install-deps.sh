#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are missing: with apt-get when
# root, with sudo otherwise; when neither can be used, prints the exact command and fails.
set -euo pipefail

missing=()
for package in "$@"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command=(apt-get install -y -q --no-install-recommends "${missing[@]}")
echo "Installing missing Debian packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo)
else
    echo "abplayer needs these packages; run:" >&2
    echo "  sudo apt-get update && sudo ${command[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once before installing.
"${sudo[@]}" apt-get update -q >&2
"${sudo[@]}" "${command[@]}" >&2

# Packages in $NO_SERVICE ship a system service (snapserver and mpd listen on the network) that
# the tests and benchmarks never use: they start private servers on loopback or a socket file.
# The services of those installed just now are disabled and stopped, so a developer's `make test`
# leaves no server running; a service the user had before is not touched.
for package in ${NO_SERVICE:-}; do
    [[ " ${missing[*]} " == *" $package "* ]] || continue
    if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
        # MPD also comes with a socket unit that would start it on the first connection.
        "${sudo[@]}" systemctl disable --now "$package" "$package.socket" >/dev/null 2>&1 || true
    fi
    "${sudo[@]}" pkill -x "$package" >/dev/null 2>&1 || true
done
