#!/bin/bash
# start-dbus.sh DIR: a private D-Bus session bus listening on DIR/bus, with no service activation
# (nothing is auto-started: no playerctld, no dconf) and no systemd or X11 needed. Prints the
# exports clients need. Stop with stop-dbus.sh DIR.
set -euo pipefail
. "$(dirname "$0")/close-inherited-fds.sh"
dir=${1:?usage: start-dbus.sh DIR}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
address="unix:path=$dir/bus"
[ ${#dir} -lt 100 ] || { echo "socket path too long: $dir/bus" >&2; exit 1; }

answers() {
    DBUS_SESSION_BUS_ADDRESS="$address" timeout 5 dbus-send --session --print-reply \
        --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1
}

# A session bus that lets its clients own any name and lets busctl/dbus-monitor watch.
cat > "$dir/session.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>$address</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
rm -f "$dir/bus"
# --fork returns once the socket listens; the PID goes to fd 3.
(
    close_inherited_fds
    exec dbus-daemon --config-file="$dir/session.conf" --fork --nopidfile --nosyslog --print-pid=3 3>"$dir/dbus.pid"
) </dev/null >/dev/null 2>>"$dir/dbus.log" \
    || { echo "dbus-daemon failed to start:" >&2; cat "$dir/dbus.log" >&2; exit 1; }
for _ in $(seq 100); do answers && break; sleep 0.02; done
answers || { echo "dbus-daemon does not answer on $address:" >&2; cat "$dir/dbus.log" >&2; exit 1; }
echo "export DBUS_SESSION_BUS_ADDRESS=$address"
