// libavformat, libavcodec, libavutil and libswresample, loaded the first time the catch-all
// decoder opens a file rather than linked: linked, they were mapped into every abplayer process
// that loaded the plugin (every process that plays anything), with the sixty-odd libraries they
// need, though most listeners only play MP3 and M4B files, which other plugins decode.
#include "CFFmpeg.h"

#include <LazyLoader.h>

// Every FFmpeg function the plugin calls, per library: F(return type, name, parameters,
// arguments) or V(name, parameters, arguments) for the ones returning void. The compiler checks
// each against FFmpeg's own declaration. dlsym finds each symbol's default version, the one a
// link would have chosen.
#define ABP_AVFORMAT_FUNCTIONS(F, V) \
    F(AVFormatContext *, avformat_alloc_context, (void), ()) \
    V(avformat_close_input, (AVFormatContext **s), (s)) \
    F(int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    F(int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), \
      (ps, url, fmt, options)) \
    F(int, avformat_seek_file, (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags), \
      (s, stream_index, min_ts, ts, max_ts, flags)) \
    F(int, av_find_best_stream, \
      (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), \
      (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    F(int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    F(int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), (s, stream_index, timestamp, flags))

#define ABP_AVCODEC_FUNCTIONS(F, V) \
    F(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    F(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    V(avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    V(avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    F(const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    F(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    F(int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    F(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    F(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    F(AVPacket *, av_packet_alloc, (void), ()) \
    V(av_packet_free, (AVPacket **pkt), (pkt)) \
    V(av_packet_unref, (AVPacket *pkt), (pkt))

#define ABP_AVUTIL_FUNCTIONS(F, V) \
    F(int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    V(av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    V(av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout)) \
    F(AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), \
      (m, key, prev, flags)) \
    F(int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    V(av_dict_free, (AVDictionary **m), (m)) \
    F(AVFrame *, av_frame_alloc, (void), ()) \
    V(av_frame_free, (AVFrame **frame), (frame)) \
    V(av_frame_unref, (AVFrame *frame), (frame)) \
    F(const char *, av_get_sample_fmt_name, (enum AVSampleFormat sample_fmt), (sample_fmt)) \
    F(int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq)) \
    F(int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))

#define ABP_SWRESAMPLE_FUNCTIONS(F, V) \
    F(int, swr_alloc_set_opts2, \
      (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, \
       AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), \
      (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx)) \
    F(int, swr_convert, (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count), \
      (s, out, out_count, in, in_count)) \
    V(swr_free, (struct SwrContext **s), (s)) \
    F(int, swr_init, (struct SwrContext *s), (s))

ABP_AVFORMAT_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
ABP_AVCODEC_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
ABP_AVUTIL_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
ABP_SWRESAMPLE_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
static __typeof__(av_log_set_level) *av_log_set_level_loaded;

static const abp_lazy_symbol avformat_symbols[] = {ABP_AVFORMAT_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static const abp_lazy_symbol avcodec_symbols[] = {ABP_AVCODEC_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static const abp_lazy_symbol avutil_symbols[] = {
    ABP_AVUTIL_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)
    {"av_log_set_level", (void **)&av_log_set_level_loaded},
};
static const abp_lazy_symbol swresample_symbols[] = {ABP_SWRESAMPLE_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};

// The sonames of the majors these headers describe: another major has another ABI (struct
// layouts the Swift code reads directly), so it is not loaded by mistake.
#define ABP_STRING(x) #x
#define ABP_SONAME(lib, major) "lib" lib ".so." ABP_STRING(major)

static bool load(char *error, size_t error_size) {
    if (!abp_lazy_open(ABP_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), avutil_symbols, ABP_LAZY_COUNT(avutil_symbols),
                       error, error_size)) return false;
    // Before anything else of FFmpeg runs: its messages would go to the terminal.
    av_log_set_level_loaded(AV_LOG_QUIET);
    return abp_lazy_open(ABP_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR), swresample_symbols,
                         ABP_LAZY_COUNT(swresample_symbols), error, error_size)
        && abp_lazy_open(ABP_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR), avcodec_symbols,
                         ABP_LAZY_COUNT(avcodec_symbols), error, error_size)
        && abp_lazy_open(ABP_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), avformat_symbols,
                         ABP_LAZY_COUNT(avformat_symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_ffmpeg_load(void) { return abp_lazy_once(&state, load); }
const char *abp_ffmpeg_load_error(void) { return abp_lazy_error(&state, load); }

void abp_ffmpeg_deadline_arm(abp_ffmpeg_deadline *deadline, double seconds) {
    clock_gettime(CLOCK_MONOTONIC, &deadline->at);
    long whole = (long)seconds;
    deadline->at.tv_sec += whole;
    deadline->at.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (deadline->at.tv_nsec >= 1000000000L) {
        deadline->at.tv_sec += 1;
        deadline->at.tv_nsec -= 1000000000L;
    }
}

int abp_ffmpeg_deadline_passed(void *opaque) {
    const abp_ffmpeg_deadline *deadline = opaque;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->at.tv_sec || (now.tv_sec == deadline->at.tv_sec && now.tv_nsec >= deadline->at.tv_nsec);
}

ABP_AVFORMAT_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
ABP_AVCODEC_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
ABP_AVUTIL_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
ABP_SWRESAMPLE_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
