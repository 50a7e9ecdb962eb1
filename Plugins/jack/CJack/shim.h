#include <jack/jack.h>

/* jack_client_open is variadic (the server name follows when JackServerName is set), which Swift
 * cannot call. `server_name` may be NULL: then $JACK_DEFAULT_SERVER or "default". */
static inline jack_client_t *abp_jack_client_open(const char *client_name, const char *server_name,
                                                  jack_status_t *status) {
    jack_options_t options = JackNoStartServer;
    if (server_name && *server_name) {
        return jack_client_open(client_name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open(client_name, options, status);
}

/* libjack prints connection failures to stderr; the plugin reports them itself (last_error), so
 * the library's lines are dropped. These handlers are process-wide in libjack, set once. */
static void abp_jack_drop_message(const char *message) { (void)message; }
static inline void abp_jack_silence_library_messages(void) {
    jack_set_error_function(abp_jack_drop_message);
    jack_set_info_function(abp_jack_drop_message);
}
