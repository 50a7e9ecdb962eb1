// libjack, loaded the first time the sink is opened rather than linked: linked, it (a C++
// library, with libstdc++) was mapped into every abplayer process that loaded this plugin, even
// one playing to another output.
#include "CJack.h"

#include <LazyLoader.h>

// Every libjack function the plugin calls (F: with a result, V: void), checked by the compiler
// against libjack's own declaration. jack_client_open is variadic: resolved by hand below.
#define ABP_JACK_FUNCTIONS(F, V) \
    F(int, jack_activate, (jack_client_t *client), (client)) \
    F(int, jack_client_close, (jack_client_t *client), (client)) \
    F(int, jack_connect, (jack_client_t *client, const char *source_port, const char *destination_port), \
      (client, source_port, destination_port)) \
    F(int, jack_deactivate, (jack_client_t *client), (client)) \
    V(jack_free, (void *ptr), (ptr)) \
    F(jack_nframes_t, jack_get_buffer_size, (jack_client_t *client), (client)) \
    F(const char **, jack_get_ports, \
      (jack_client_t *client, const char *port_name_pattern, const char *type_name_pattern, unsigned long flags), \
      (client, port_name_pattern, type_name_pattern, flags)) \
    F(jack_nframes_t, jack_get_sample_rate, (jack_client_t *client), (client)) \
    V(jack_on_shutdown, (jack_client_t *client, JackShutdownCallback shutdown_callback, void *arg), \
      (client, shutdown_callback, arg)) \
    F(void *, jack_port_get_buffer, (jack_port_t *port, jack_nframes_t frames), (port, frames)) \
    V(jack_port_get_latency_range, (jack_port_t *port, jack_latency_callback_mode_t mode, jack_latency_range_t *range), \
      (port, mode, range)) \
    F(const char *, jack_port_name, (const jack_port_t *port), (port)) \
    F(jack_port_t *, jack_port_register, \
      (jack_client_t *client, const char *port_name, const char *port_type, unsigned long flags, unsigned long buffer_size), \
      (client, port_name, port_type, flags, buffer_size)) \
    F(int, jack_set_process_callback, (jack_client_t *client, JackProcessCallback process_callback, void *arg), \
      (client, process_callback, arg))

ABP_JACK_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
static __typeof__(jack_client_open) *jack_client_open_loaded;
static __typeof__(jack_set_error_function) *jack_set_error_function_loaded;
static __typeof__(jack_set_info_function) *jack_set_info_function_loaded;

static const abp_lazy_symbol symbols[] = {
    ABP_JACK_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)
    {"jack_client_open", (void **)&jack_client_open_loaded},
    {"jack_set_error_function", (void **)&jack_set_error_function_loaded},
    {"jack_set_info_function", (void **)&jack_set_info_function_loaded},
};

static void drop_message(const char *message) { (void)message; }

static bool load(char *error, size_t error_size) {
    if (!abp_lazy_open("libjack.so.0", symbols, ABP_LAZY_COUNT(symbols), error, error_size)) return false;
    // libjack prints connection failures to stderr; these handlers are process-wide in libjack.
    jack_set_error_function_loaded(drop_message);
    jack_set_info_function_loaded(drop_message);
    return true;
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_jack_load(void) { return abp_lazy_once(&state, load); }
const char *abp_jack_load_error(void) { return abp_lazy_error(&state, load); }

jack_client_t *abp_jack_client_open(const char *client_name, const char *server_name, jack_status_t *status) {
    jack_options_t options = JackNoStartServer;
    if (server_name && *server_name) {
        return jack_client_open_loaded(client_name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open_loaded(client_name, options, status);
}

ABP_JACK_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
