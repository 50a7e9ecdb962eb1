// alsa-lib, loaded the first time the sink is opened rather than linked: linked, it was mapped
// into every abplayer process that loaded this plugin, even one playing to another output.
#include "CAlsa.h"

#include <LazyLoader.h>

// Every alsa-lib function the plugin calls (F: with a result, V: void), checked by the compiler
// against alsa-lib's own declaration. dlsym finds each symbol's default version, the one a link
// would have chosen.
#define ABP_ALSA_FUNCTIONS(F, V) \
    F(int, snd_pcm_close, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_delay, (snd_pcm_t *pcm, snd_pcm_sframes_t *delayp), (pcm, delayp)) \
    F(int, snd_pcm_drain, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_drop, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_hw_params, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params)) \
    F(int, snd_pcm_hw_params_any, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params)) \
    F(int, snd_pcm_hw_params_can_pause, (const snd_pcm_hw_params_t *params), (params)) \
    V(snd_pcm_hw_params_free, (snd_pcm_hw_params_t *obj), (obj)) \
    F(int, snd_pcm_hw_params_get_period_size, (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *frames, int *dir), \
      (params, frames, dir)) \
    F(int, snd_pcm_hw_params_malloc, (snd_pcm_hw_params_t **ptr), (ptr)) \
    F(int, snd_pcm_hw_params_set_access, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_access_t access), \
      (pcm, params, access)) \
    F(int, snd_pcm_hw_params_set_buffer_time_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val, int *dir), (pcm, params, val, dir)) \
    F(int, snd_pcm_hw_params_set_channels_near, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val), \
      (pcm, params, val)) \
    F(int, snd_pcm_hw_params_set_format, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_format_t val), \
      (pcm, params, val)) \
    F(int, snd_pcm_hw_params_set_period_time_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val, int *dir), (pcm, params, val, dir)) \
    F(int, snd_pcm_hw_params_set_rate_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val, int *dir), (pcm, params, val, dir)) \
    F(int, snd_pcm_nonblock, (snd_pcm_t *pcm, int nonblock), (pcm, nonblock)) \
    F(int, snd_pcm_open, (snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode), \
      (pcm, name, stream, mode)) \
    F(int, snd_pcm_pause, (snd_pcm_t *pcm, int enable), (pcm, enable)) \
    F(int, snd_pcm_prepare, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_recover, (snd_pcm_t *pcm, int err, int silent), (pcm, err, silent)) \
    F(snd_pcm_state_t, snd_pcm_state, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_wait, (snd_pcm_t *pcm, int timeout), (pcm, timeout)) \
    F(snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size), \
      (pcm, buffer, size)) \
    F(const char *, snd_strerror, (int errnum), (errnum))

ABP_ALSA_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
static __typeof__(snd_lib_error_set_handler) *snd_lib_error_set_handler_loaded;

static const abp_lazy_symbol symbols[] = {
    ABP_ALSA_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)
    {"snd_lib_error_set_handler", (void **)&snd_lib_error_set_handler_loaded},
};

// alsa-lib's error handler is variadic, which Swift cannot define.
static void drop_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static bool load(char *error, size_t error_size) {
    if (!abp_lazy_open("libasound.so.2", symbols, ABP_LAZY_COUNT(symbols), error, error_size)) return false;
    snd_lib_error_set_handler_loaded(drop_error);
    return true;
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_alsa_load(void) { return abp_lazy_once(&state, load); }
const char *abp_alsa_load_error(void) { return abp_lazy_error(&state, load); }

ABP_ALSA_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
