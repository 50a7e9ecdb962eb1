// libjack for the jack sink, loaded when a sink is first opened (see jack.c).
#ifndef ABPLAYER_CJACK_H
#define ABPLAYER_CJACK_H

#include <jack/jack.h>
#include <stdbool.h>

/// Loads libjack once (thread-safe) and silences its own messages (the plugin reports failures
/// itself, through last_error); true when its functions may be called. On false,
/// abp_jack_load_error() says why, in one line.
bool abp_jack_load(void);
const char *abp_jack_load_error(void);

/// jack_client_open is variadic (the server name follows when JackServerName is set), which Swift
/// cannot call. `server_name` may be NULL: then $JACK_DEFAULT_SERVER or "default". Only after
/// abp_jack_load() succeeded.
jack_client_t *abp_jack_client_open(const char *client_name, const char *server_name, jack_status_t *status);

#endif
