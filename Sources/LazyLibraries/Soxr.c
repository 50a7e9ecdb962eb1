// libsoxr, loaded the first time a book plays at another rate than its output's (see
// LazyLibraries.h). Linked, it was mapped into every abplayer process with libgomp, the OpenMP
// runtime it depends on, though most books play at their output's rate.
#include "LazyLibraries.h"
#include <LazyLoader.h>

#include <soxr.h>

// Every libsoxr function abplayer calls (F: with a result, V: void), checked by the compiler
// against libsoxr's own declaration.
#define ABP_SOXR_FUNCTIONS(F, V) \
    F(soxr_t, soxr_create, \
      (double input_rate, double output_rate, unsigned num_channels, soxr_error_t *error, \
       soxr_io_spec_t const *io_spec, soxr_quality_spec_t const *quality_spec, soxr_runtime_spec_t const *runtime_spec), \
      (input_rate, output_rate, num_channels, error, io_spec, quality_spec, runtime_spec)) \
    F(soxr_error_t, soxr_process, \
      (soxr_t resampler, soxr_in_t in, size_t ilen, size_t *idone, soxr_out_t out, size_t olen, size_t *odone), \
      (resampler, in, ilen, idone, out, olen, odone)) \
    F(soxr_error_t, soxr_clear, (soxr_t resampler), (resampler)) \
    V(soxr_delete, (soxr_t resampler), (resampler)) \
    F(soxr_quality_spec_t, soxr_quality_spec, (unsigned long recipe, unsigned long flags), (recipe, flags)) \
    F(soxr_io_spec_t, soxr_io_spec, (soxr_datatype_t itype, soxr_datatype_t otype), (itype, otype))

ABP_SOXR_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)

static const abp_lazy_symbol symbols[] = {ABP_SOXR_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static bool load(char *error, size_t error_size) {
    return abp_lazy_open("libsoxr.so.0", symbols, ABP_LAZY_COUNT(symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_soxr_load(void) { return abp_lazy_once(&state, load); }
const char *abp_soxr_load_error(void) { return abp_lazy_error(&state, load); }

ABP_SOXR_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
