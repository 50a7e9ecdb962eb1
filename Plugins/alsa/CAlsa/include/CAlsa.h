// alsa-lib for the alsa sink, loaded when a sink is first opened (see alsa.c).
#ifndef ABPLAYER_CALSA_H
#define ABPLAYER_CALSA_H

#include <alsa/asoundlib.h>
#include <stdbool.h>

/// Loads libasound once (thread-safe) and drops its own error messages (the plugin reports every
/// failure itself, through last_error: a failed probe of `default` during the automatic choice
/// would otherwise spray the terminal); true when its functions may be called. On false,
/// abp_alsa_load_error() says why, in one line.
bool abp_alsa_load(void);
const char *abp_alsa_load_error(void);

#endif
