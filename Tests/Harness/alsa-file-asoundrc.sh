#!/bin/bash
# alsa-file-asoundrc.sh DIR: writes DIR/asoundrc defining the ALSA PCM "testcap", a `file` PCM
# over `null` that writes every sample it receives, unconverted, to
# DIR/alsa-capture-RATE-CHANNELS-FORMAT.raw (truncated at every open; not paced: writes return at
# once). Prints the exports that make ALSA read it.
set -euo pipefail
dir=${1:?usage: alsa-file-asoundrc.sh DIR}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
cat > "$dir/asoundrc" <<CONF
pcm.testcap {
    type file
    slave.pcm "null"
    file "$dir/alsa-capture-%r-%c-%f.raw"
    format "raw"
    perm 0644
}
CONF
# ALSA_CONFIG_PATH replaces alsa.conf: the stock file must come first.
echo "export ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$dir/asoundrc"
