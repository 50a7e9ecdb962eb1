// libFLAC's stream decoder as Swift sees it. The metadata union imports as nested fields
// (block->data.vorbis_comment), the callbacks as @convention(c) function types. The *String
// tables are arrays of unknown size, which Swift cannot import: read through these.
#include <FLAC/stream_decoder.h>

static inline const char *abp_flac_state_name(FLAC__StreamDecoderState state) {
    return FLAC__StreamDecoderStateString[state];
}

static inline const char *abp_flac_init_status_name(FLAC__StreamDecoderInitStatus status) {
    return FLAC__StreamDecoderInitStatusString[status];
}
