#include <alsa/asoundlib.h>

/* alsa-lib prints its errors to stderr through a variadic handler, which Swift cannot define.
 * The plugin reports every failure itself (through last_error), so the library's lines are
 * dropped: a failed probe of `default` during auto-pick would otherwise spray the terminal. */
static void abp_alsa_drop_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void abp_alsa_silence_library_errors(void) { snd_lib_error_set_handler(abp_alsa_drop_error); }
