// libebur128, loaded the first time a book's loudness is measured (see LazyLibraries.h): most
// runs of abplayer (`remote status`, `books`, a book already measured) never measure anything.
#include "LazyLibraries.h"
#include <LazyLoader.h>

#include <ebur128.h>

// Every libebur128 function abplayer calls (F: with a result, V: void), checked by the compiler
// against libebur128's own declaration.
#define ABP_EBUR128_FUNCTIONS(F, V) \
    F(ebur128_state *, ebur128_init, (unsigned int channels, unsigned long samplerate, int mode), \
      (channels, samplerate, mode)) \
    V(ebur128_destroy, (ebur128_state **state), (state)) \
    F(int, ebur128_add_frames_float, (ebur128_state *state, const float *src, size_t frames), (state, src, frames)) \
    F(int, ebur128_loudness_global_multiple, (ebur128_state **states, size_t size, double *out), (states, size, out)) \
    F(int, ebur128_true_peak, (ebur128_state *state, unsigned int channel, double *out), (state, channel, out)) \
    F(int, ebur128_sample_peak, (ebur128_state *state, unsigned int channel, double *out), (state, channel, out))

ABP_EBUR128_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)

static const abp_lazy_symbol symbols[] = {ABP_EBUR128_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static bool load(char *error, size_t error_size) {
    return abp_lazy_open("libebur128.so.1", symbols, ABP_LAZY_COUNT(symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_ebur128_load(void) { return abp_lazy_once(&state, load); }
const char *abp_ebur128_load_error(void) { return abp_lazy_error(&state, load); }

ABP_EBUR128_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
