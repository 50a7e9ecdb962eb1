// FFmpeg's libraries (libavformat, libavcodec, libavutil, libswresample) for the catch-all
// decoder, loaded the first time it opens a file (see ffmpeg.c): linked, they and what they bring
// (about 60 libraries: codecs, libva, libxml2...) were mapped into every abplayer process, even
// one that only ever plays MP3s.
#ifndef ABPLAYER_CFFMPEG_H
#define ABPLAYER_CFFMPEG_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libswresample/swresample.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/// Loads the four libraries once (thread-safe) and silences FFmpeg's own logging (a plugin never
/// prints; every failure is reported through the ABI); true when their functions may be called.
/// On false, abp_ffmpeg_load_error() says why, in one line.
bool abp_ffmpeg_load(void);
const char *abp_ffmpeg_load_error(void);

/// A point in CLOCK_MONOTONIC time after which FFmpeg's blocking calls give up: the interrupt
/// callback's opaque. Owned by one decoder instance; written between its calls only.
typedef struct abp_ffmpeg_deadline {
    struct timespec at;
} abp_ffmpeg_deadline;

/// Sets `deadline` to `seconds` from now.
void abp_ffmpeg_deadline_arm(abp_ffmpeg_deadline *deadline, double seconds);

/// The AVIOInterruptCB callback: 1 (give up) once the deadline in `opaque` has passed.
int abp_ffmpeg_deadline_passed(void *opaque);

// Macros Swift cannot import: AVERROR(x), FFERRTAG's compound constants, AV_NOPTS_VALUE.
static inline int abp_averror_eof(void) { return AVERROR_EOF; }
static inline int abp_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int abp_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int abp_averror_exit(void) { return AVERROR_EXIT; }
static inline int abp_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int abp_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int abp_averror_patchwelcome(void) { return AVERROR_PATCHWELCOME; }
static inline int64_t abp_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational abp_av_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

#endif
