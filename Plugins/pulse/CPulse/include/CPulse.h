// libpulse for the pulse sink, loaded when a sink is first opened (see pulse.c).
#ifndef ABPLAYER_CPULSE_H
#define ABPLAYER_CPULSE_H

#include <pulse/pulseaudio.h>
#include <stdbool.h>

/// Loads libpulse once (thread-safe); true when its functions may be called. On false,
/// abp_pulse_load_error() says why, in one line.
bool abp_pulse_load(void);
const char *abp_pulse_load_error(void);

#endif
