// libpulse, loaded the first time the sink is opened rather than linked: linked, it and what it
// brings (libpulsecommon, libdbus, libsndfile, libsystemd...) were mapped into every abplayer
// process that loaded this plugin — about 2.8 MiB of RSS — even one playing to another output.
#include "CPulse.h"

#include <LazyLoader.h>

// Every libpulse function the plugin calls: F(return type, name, parameters, arguments) or
// V(name, parameters, arguments) for the ones returning void. The compiler checks each against
// libpulse's own declaration.
#define ABP_PULSE_FUNCTIONS(F, V) \
    F(int, pa_context_connect, (pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api), \
      (c, server, flags, api)) \
    V(pa_context_disconnect, (pa_context *c), (c)) \
    F(int, pa_context_errno, (const pa_context *c), (c)) \
    F(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c)) \
    F(pa_context *, pa_context_new, (pa_mainloop_api *mainloop, const char *name), (mainloop, name)) \
    V(pa_context_set_state_callback, (pa_context *c, pa_context_notify_cb_t cb, void *userdata), (c, cb, userdata)) \
    V(pa_context_unref, (pa_context *c), (c)) \
    F(pa_operation_state_t, pa_operation_get_state, (const pa_operation *o), (o)) \
    V(pa_operation_unref, (pa_operation *o), (o)) \
    F(int, pa_stream_begin_write, (pa_stream *p, void **data, size_t *nbytes), (p, data, nbytes)) \
    F(int, pa_stream_cancel_write, (pa_stream *p), (p)) \
    F(int, pa_stream_connect_playback, \
      (pa_stream *s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags, const pa_cvolume *volume, \
       pa_stream *sync_stream), \
      (s, dev, attr, flags, volume, sync_stream)) \
    F(pa_operation *, pa_stream_cork, (pa_stream *s, int b, pa_stream_success_cb_t cb, void *userdata), \
      (s, b, cb, userdata)) \
    F(int, pa_stream_disconnect, (pa_stream *s), (s)) \
    F(pa_operation *, pa_stream_drain, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), (s, cb, userdata)) \
    F(pa_operation *, pa_stream_flush, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), (s, cb, userdata)) \
    F(int, pa_stream_get_latency, (pa_stream *s, pa_usec_t *r_usec, int *negative), (s, r_usec, negative)) \
    F(pa_stream_state_t, pa_stream_get_state, (const pa_stream *p), (p)) \
    F(pa_stream *, pa_stream_new, (pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map), \
      (c, name, ss, map)) \
    V(pa_stream_set_moved_callback, (pa_stream *p, pa_stream_notify_cb_t cb, void *userdata), (p, cb, userdata)) \
    V(pa_stream_set_state_callback, (pa_stream *s, pa_stream_notify_cb_t cb, void *userdata), (s, cb, userdata)) \
    V(pa_stream_set_write_callback, (pa_stream *p, pa_stream_request_cb_t cb, void *userdata), (p, cb, userdata)) \
    V(pa_stream_unref, (pa_stream *s), (s)) \
    F(size_t, pa_stream_writable_size, (const pa_stream *p), (p)) \
    F(int, pa_stream_write, \
      (pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek), \
      (p, data, nbytes, free_cb, offset, seek)) \
    F(const char *, pa_strerror, (int error), (error)) \
    V(pa_threaded_mainloop_free, (pa_threaded_mainloop *m), (m)) \
    F(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_lock, (pa_threaded_mainloop *m), (m)) \
    F(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), ()) \
    V(pa_threaded_mainloop_signal, (pa_threaded_mainloop *m, int wait_for_accept), (m, wait_for_accept)) \
    F(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_stop, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_unlock, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_wait, (pa_threaded_mainloop *m), (m))

ABP_PULSE_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)

static const abp_lazy_symbol symbols[] = {ABP_PULSE_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static bool load(char *error, size_t error_size) {
    return abp_lazy_open("libpulse.so.0", symbols, ABP_LAZY_COUNT(symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_pulse_load(void) { return abp_lazy_once(&state, load); }
const char *abp_pulse_load_error(void) { return abp_lazy_error(&state, load); }

ABP_PULSE_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
