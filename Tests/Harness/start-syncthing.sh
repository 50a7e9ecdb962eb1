#!/bin/bash
# start-syncthing.sh DIR GUI_PORT LISTEN_PORT: a private Syncthing instance with its home in DIR,
# its REST API on 127.0.0.1:GUI_PORT and its sync protocol on tcp://127.0.0.1:LISTEN_PORT. No
# internet: global and local discovery, relays, NAT traversal, usage reports, crash reports and
# upgrades are off (peers are added with their static address). Prints the exports a client
# needs: ST_API (base URL), ST_KEY (API key), ST_ID (this device's id). Stop with stop-syncthing.sh DIR.
set -euo pipefail
. "$(dirname "$0")/close-inherited-fds.sh"
dir=${1:?usage: start-syncthing.sh DIR GUI_PORT LISTEN_PORT}
gui_port=${2:?usage: start-syncthing.sh DIR GUI_PORT LISTEN_PORT}
listen_port=${3:?usage: start-syncthing.sh DIR GUI_PORT LISTEN_PORT}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
home="$dir/home"

if [ ! -f "$home/config.xml" ]; then
    syncthing generate --home="$home" --no-default-folder --skip-port-probing >"$dir/generate.log" 2>&1 \
        || { echo "syncthing generate failed:" >&2; cat "$dir/generate.log" >&2; exit 1; }
    # The generated defaults, turned to a machine with no internet and fixed ports. A peer
    # that went away (paused, restarted) is dialled again every second, not every minute: on a
    # loaded machine the dial made at once on resuming could miss, and the test waited a minute.
    sed -i \
        -e "s|<address>127.0.0.1:8384</address>|<address>127.0.0.1:$gui_port</address>|" \
        -e "s|<listenAddress>default</listenAddress>|<listenAddress>tcp://127.0.0.1:$listen_port</listenAddress>|" \
        -e "s|<globalAnnounceEnabled>true</globalAnnounceEnabled>|<globalAnnounceEnabled>false</globalAnnounceEnabled>|" \
        -e "s|<localAnnounceEnabled>true</localAnnounceEnabled>|<localAnnounceEnabled>false</localAnnounceEnabled>|" \
        -e "s|<relaysEnabled>true</relaysEnabled>|<relaysEnabled>false</relaysEnabled>|" \
        -e "s|<natEnabled>true</natEnabled>|<natEnabled>false</natEnabled>|" \
        -e "s|<urAccepted>0</urAccepted>|<urAccepted>-1</urAccepted>|" \
        -e "s|<crashReportingEnabled>true</crashReportingEnabled>|<crashReportingEnabled>false</crashReportingEnabled>|" \
        -e "s|<autoUpgradeIntervalH>[0-9]*</autoUpgradeIntervalH>|<autoUpgradeIntervalH>0</autoUpgradeIntervalH>|" \
        -e "s|<startBrowser>true</startBrowser>|<startBrowser>false</startBrowser>|" \
        -e "s|<reconnectionIntervalS>[0-9]*</reconnectionIntervalS>|<reconnectionIntervalS>1</reconnectionIntervalS>|" \
        "$home/config.xml"
fi
key=$(sed -n 's|.*<apikey>\(.*\)</apikey>.*|\1|p' "$home/config.xml" | head -n 1)
id=$(syncthing --home="$home" --device-id 2>/dev/null || syncthing device-id --home="$home")
api="http://127.0.0.1:$gui_port"

(
    close_inherited_fds
    STNOUPGRADE=1 STNODEFAULTFOLDER=1 exec setsid syncthing serve --home="$home" --no-browser --no-restart \
        --no-upgrade
) </dev/null >>"$dir/syncthing.log" 2>&1 &
echo $! > "$dir/syncthing.pid"

answers() { curl -fsS -m 2 -H "X-API-Key: $key" "$api/rest/system/ping" >/dev/null 2>&1; }
for _ in $(seq 300); do answers && break; sleep 0.05; done
answers || { echo "syncthing does not answer on $api:" >&2; tail -n 20 "$dir/syncthing.log" >&2; exit 1; }
echo "export ST_API=$api"
echo "export ST_KEY=$key"
echo "export ST_ID=$id"
