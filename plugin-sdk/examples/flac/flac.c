/*
 * abplayer FLAC decoder plugin (libFLAC).
 *
 * An out-of-tree example: built with plain `cc` by the Makefile beside it, it depends on nothing
 * of abplayer but <abplayer/plugin.h>. Exports only abplayer_plugin_entry. Its id is
 * "flac-example" (libabplayer-flac-example.so): abplayer's own FLAC decoder (Plugins/flac) is
 * "flac", and plugin ids are unique.
 *
 * FLAC has no encoder delay or padding, so the decoded stream is already gapless and
 * STREAMINFO's total_samples is the exact length. libFLAC seeks to an exact sample by itself
 * (bisection, helped by a SEEKTABLE when there is one).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <FLAC/stream_decoder.h>

/* Written against ABI 1.0: only what 1.0 offers is declared, and abi_minor says so. */
#define ABP_API_LEVEL 0
#include <abplayer/plugin.h>

struct abp_decoder {
    FLAC__StreamDecoder *flac;
    const abp_host_api *host;

    /* borrowed from open() and NULL outside it: the host wants metadata during open only */
    const abp_metadata_callbacks *meta;

    /* from STREAMINFO */
    int got_streaminfo;
    abp_format format;
    int64_t total_frames; /* ABP_FRAMES_UNKNOWN when STREAMINFO says 0 */
    uint32_t bits_per_sample;

    /* The last block the write callback delivered, converted to interleaved float.
     * buf_pos..buf_frames is what read() has not returned yet. */
    float *buf;
    size_t buf_capacity; /* in frames */
    size_t buf_frames;
    size_t buf_pos;
    int64_t decoded_end; /* frame after the last one decoded, to tell a truncated file */

    int eof;
    int truncation_reported;
    abp_status abort_status; /* why a callback aborted the decoder, ABP_OK when none did */
    unsigned stream_errors;  /* recoverable errors (lost sync, bad CRC); the first is logged */
    char error[256];
    char *path; /* owned copy: every log line names the file it is about */
};

/* ---- small helpers ---------------------------------------------------------------------- */

/* Logs "<file>: <message>": a user reading a warning must know which file it is about. */
__attribute__((format(printf, 3, 4)))
static void flac_log(const struct abp_decoder *dec, abp_log_level level, const char *fmt, ...)
{
    const abp_host_api *host = dec->host;
    char message[512];
    int used;
    va_list ap;

    if (host == NULL || !ABP_HAS_FIELD(host, abp_host_api, log) || host->log == NULL)
        return;
    used = snprintf(message, sizeof(message), "%s: ", dec->path ? dec->path : "?");
    if (used < 0 || (size_t)used >= sizeof(message))
        used = 0;
    va_start(ap, fmt);
    vsnprintf(message + used, sizeof(message) - (size_t)used, fmt, ap);
    va_end(ap);
    host->log(host->host_ctx, level, "flac-example", message);
}

/* Writes a one-line reason into `buf` (any size, even 0) and returns `status`. */
__attribute__((format(printf, 4, 5)))
static abp_status set_error(char *buf, size_t size, abp_status status, const char *fmt, ...)
{
    va_list ap;

    if (buf == NULL || size == 0)
        return status;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return status;
}

#define dec_error(dec, status, ...) \
    set_error((dec)->error, sizeof((dec)->error), status, __VA_ARGS__)

/* ---- metadata ------------------------------------------------------------------------------- */

static void emit_tag(struct abp_decoder *dec, const char *key, const char *value)
{
    if (dec->meta != NULL && ABP_HAS_FIELD(dec->meta, abp_metadata_callbacks, tag) && dec->meta->tag)
        dec->meta->tag(dec->meta->ctx, key, value);
}

/* Splits a comment into an upper-case key (at most key_size - 1 bytes) and a pointer to its
 * value (NUL-terminated: libFLAC keeps a NUL after every entry). 0 for a malformed entry. */
static int split_comment(const FLAC__StreamMetadata_VorbisComment_Entry *entry,
                         char *key, size_t key_size, const char **value)
{
    const char *text = (const char *)entry->entry;
    const char *eq = entry->entry ? memchr(text, '=', entry->length) : NULL;
    size_t i, len;

    if (eq == NULL || eq == text || (size_t)(eq - text) >= key_size)
        return 0;
    len = (size_t)(eq - text);
    for (i = 0; i < len; i++)
        key[i] = (text[i] >= 'a' && text[i] <= 'z') ? (char)(text[i] - 'a' + 'A') : text[i];
    key[len] = 0;
    *value = eq + 1;
    return 1;
}

/* CHAPTERnnn: returns the digits' length (1..4), else 0. */
static size_t chapter_number_len(const char *key)
{
    size_t n = 0;

    if (strncmp(key, "CHAPTER", 7) != 0)
        return 0;
    while (n < 5 && key[7 + n] >= '0' && key[7 + n] <= '9')
        n++;
    return (n >= 1 && n <= 4) ? n : 0;
}

/* "HH:MM:SS.mmm" (hours may exceed 99, the fraction may have 0..9 digits) -> frame, or -1. */
static int64_t parse_chapter_time(const char *s, uint32_t rate)
{
    unsigned long long h, m, sec, num = 0, den = 1;
    int used = 0;

    if (sscanf(s, "%llu:%llu:%llu%n", &h, &m, &sec, &used) != 3 || m > 59 || sec > 59)
        return -1;
    s += used;
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9' && den < 1000000000ULL; s++) {
            num = num * 10 + (unsigned long long)(*s - '0');
            den *= 10;
        }
    }
    if (*s != 0 || h > 1000000)
        return -1;
    return (int64_t)((h * 3600 + m * 60 + sec) * rate + (num * rate + den / 2) / den);
}

static void emit_chapters(struct abp_decoder *dec, const FLAC__StreamMetadata_VorbisComment *vc)
{
    char key[64], name_key[64];
    const char *value, *name_value;
    uint32_t i, j;

    if (dec->meta == NULL || !ABP_HAS_FIELD(dec->meta, abp_metadata_callbacks, chapter) ||
        dec->meta->chapter == NULL)
        return;
    for (i = 0; i < vc->num_comments; i++) {
        size_t digits;
        const char *title = "";
        int64_t start;

        if (!split_comment(&vc->comments[i], key, sizeof(key), &value))
            continue;
        digits = chapter_number_len(key);
        if (digits == 0 || key[7 + digits] != 0)
            continue;
        start = parse_chapter_time(value, dec->format.rate);
        if (start < 0 || (dec->total_frames != ABP_FRAMES_UNKNOWN && start > dec->total_frames)) {
            flac_log(dec, ABP_LOG_DEBUG, "ignoring %s=%s: not a time within the stream",
                     key, value);
            continue;
        }
        /* the NAME comment may come before or after its time */
        for (j = 0; j < vc->num_comments; j++) {
            if (split_comment(&vc->comments[j], name_key, sizeof(name_key), &name_value) &&
                strncmp(name_key, key, 7 + digits) == 0 &&
                strcmp(name_key + 7 + digits, "NAME") == 0) {
                title = name_value;
                break;
            }
        }
        dec->meta->chapter(dec->meta->ctx, start, title);
    }
}

/* "n" and "N" -> "n/N"; a number that already holds "n/N" wins. */
static void emit_numbered(struct abp_decoder *dec, const char *key, const char *number,
                          const char *total)
{
    char text[64];

    if (number == NULL || *number == 0)
        return;
    if (total == NULL || *total == 0 || strchr(number, '/') != NULL) {
        emit_tag(dec, key, number);
        return;
    }
    snprintf(text, sizeof(text), "%s/%s", number, total);
    emit_tag(dec, key, text);
}

static void emit_tags(struct abp_decoder *dec, const FLAC__StreamMetadata_VorbisComment *vc)
{
    const char *track = NULL, *track_total = NULL, *disc = NULL, *disc_total = NULL;
    char key[64];
    const char *value;
    uint32_t i;

    if (dec->meta == NULL || !ABP_HAS_FIELD(dec->meta, abp_metadata_callbacks, tag) ||
        dec->meta->tag == NULL)
        return;
    for (i = 0; i < vc->num_comments; i++) {
        char *p;

        if (!split_comment(&vc->comments[i], key, sizeof(key), &value))
            continue;
        if (strcmp(key, "TRACKNUMBER") == 0)
            track = value;
        else if (strcmp(key, "TRACKTOTAL") == 0 || strcmp(key, "TOTALTRACKS") == 0)
            track_total = value;
        else if (strcmp(key, "DISCNUMBER") == 0)
            disc = value;
        else if (strcmp(key, "DISCTOTAL") == 0 || strcmp(key, "TOTALDISCS") == 0)
            disc_total = value;
        else if (strcmp(key, "DATE") == 0)
            emit_tag(dec, "year", value); /* the value as written, e.g. "2019" or "2019-05-01" */
        else if (strcmp(key, "ALBUMARTIST") == 0 || strcmp(key, "ALBUM ARTIST") == 0 ||
                 strcmp(key, "ALBUM_ARTIST") == 0)
            emit_tag(dec, "albumartist", value);
        else if (chapter_number_len(key) != 0)
            continue; /* CHAPTERnnn and CHAPTERnnnNAME are chapters, not tags */
        else if (strcmp(key, "METADATA_BLOCK_PICTURE") == 0)
            continue; /* base64 picture (an Ogg habit): not a tag, and FLAC has PICTURE blocks */
        else {
            for (p = key; *p; p++)
                if (*p >= 'A' && *p <= 'Z')
                    *p = (char)(*p - 'A' + 'a');
            emit_tag(dec, key, value);
        }
    }
    emit_numbered(dec, "track", track, track_total);
    emit_numbered(dec, "disc", disc, disc_total);
}

static void emit_picture(struct abp_decoder *dec, const FLAC__StreamMetadata_Picture *pic)
{
    if (dec->meta == NULL || !ABP_HAS_FIELD(dec->meta, abp_metadata_callbacks, picture) ||
        dec->meta->picture == NULL || pic->data == NULL || pic->data_length == 0)
        return;
    if (pic->mime_type != NULL && strcmp(pic->mime_type, "-->") == 0)
        return; /* the data is a URL, not an image */
    dec->meta->picture(dec->meta->ctx, pic->mime_type ? pic->mime_type : "",
                       (uint32_t)pic->type, pic->data, pic->data_length);
}

/* ---- libFLAC callbacks -------------------------------------------------------------------- */

/* Called for STREAMINFO (always first in a valid stream), VORBIS_COMMENT and PICTURE. */
static void metadata_cb(const FLAC__StreamDecoder *flac, const FLAC__StreamMetadata *block,
                        void *data)
{
    struct abp_decoder *dec = data;

    (void)flac;
    switch (block->type) {
    case FLAC__METADATA_TYPE_STREAMINFO: {
        const FLAC__StreamMetadata_StreamInfo *si = &block->data.stream_info;

        dec->got_streaminfo = 1;
        dec->format.rate = si->sample_rate;
        dec->format.channels = si->channels;
        dec->total_frames = si->total_samples ? (int64_t)si->total_samples : ABP_FRAMES_UNKNOWN;
        dec->bits_per_sample = si->bits_per_sample;
        break;
    }
    case FLAC__METADATA_TYPE_VORBIS_COMMENT:
        /* chapters need the rate: STREAMINFO comes first, anything else is not FLAC */
        if (!dec->got_streaminfo || dec->meta == NULL)
            break;
        emit_tags(dec, &block->data.vorbis_comment);
        emit_chapters(dec, &block->data.vorbis_comment);
        break;
    case FLAC__METADATA_TYPE_PICTURE:
        if (dec->meta != NULL)
            emit_picture(dec, &block->data.picture);
        break;
    default:
        break;
    }
}

/* Converts one block to interleaved float into dec->buf. After a seek libFLAC hands us a
 * partial block that starts exactly at the target sample. */
static FLAC__StreamDecoderWriteStatus write_cb(const FLAC__StreamDecoder *flac,
                                               const FLAC__Frame *frame,
                                               const FLAC__int32 *const buffer[], void *data)
{
    struct abp_decoder *dec = data;
    uint32_t channels = frame->header.channels;
    uint32_t bps = frame->header.bits_per_sample;
    size_t n = frame->header.blocksize, i;
    uint32_t c;
    float scale;

    (void)flac;
    if (channels != dec->format.channels) {
        dec->abort_status = dec_error(dec, ABP_ERR_UNSUPPORTED,
                                      "channel count changes mid-stream (%u -> %u)",
                                      dec->format.channels, channels);
        return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
    }
    if (bps < 4 || bps > 32) {
        dec->abort_status = dec_error(dec, ABP_ERR_FORMAT, "invalid bits per sample %u", bps);
        return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
    }
    if (n > dec->buf_capacity) {
        float *grown = realloc(dec->buf, n * channels * sizeof(float));

        if (grown == NULL) {
            dec->abort_status = dec_error(dec, ABP_ERR_NOMEM,
                                          "out of memory for a %zu-frame block", n);
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
        }
        dec->buf = grown;
        dec->buf_capacity = n;
    }

    /* full scale is 2^(bps-1): the most negative sample maps to -1, the largest to just under 1 */
    scale = (float)(1.0 / (double)(1ULL << (bps - 1)));
    for (c = 0; c < channels; c++) {
        const FLAC__int32 *src = buffer[c];
        float *dst = dec->buf + c;

        for (i = 0; i < n; i++, dst += channels)
            *dst = (float)src[i] * scale;
    }
    dec->buf_frames = n;
    dec->buf_pos = 0;
    dec->decoded_end = (int64_t)(frame->header.number.sample_number + n);
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

/* Recoverable: libFLAC resynchronizes (and writes silence for a frame with a bad CRC). */
static void error_cb(const FLAC__StreamDecoder *flac, FLAC__StreamDecoderErrorStatus status,
                     void *data)
{
    static const char *const reasons[] = {
        [FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC] = "lost sync",
        [FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER] = "bad frame header",
        [FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH] = "frame CRC mismatch",
        [FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM] = "unparseable stream",
        [FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA] = "bad metadata block",
    };
    struct abp_decoder *dec = data;

    (void)flac;
    if (dec->stream_errors++ == 0 && dec->got_streaminfo)
        flac_log(dec, ABP_LOG_WARNING, "%s, skipped (further stream errors not logged)",
                 (unsigned)status < sizeof(reasons) / sizeof(*reasons) && reasons[status]
                     ? reasons[status] : "stream error");
}

/* Maps a libFLAC state after a failure to a status, with the reason in dec->error. */
static abp_status state_error(struct abp_decoder *dec)
{
    FLAC__StreamDecoderState state = FLAC__stream_decoder_get_state(dec->flac);

    if (dec->abort_status != ABP_OK)
        return dec->abort_status; /* one of our callbacks said why */
    switch (state) {
    case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR:
        return dec_error(dec, ABP_ERR_NOMEM, "libFLAC ran out of memory");
    case FLAC__STREAM_DECODER_ABORTED:
        return dec_error(dec, ABP_ERR_IO, "read error");
    case FLAC__STREAM_DECODER_END_OF_STREAM:
        return dec_error(dec, ABP_ERR_FORMAT, "truncated");
    default:
        return dec_error(dec, ABP_ERR_INTERNAL, "libFLAC failed in state %s",
                         FLAC__StreamDecoderStateString[state]);
    }
}

/* ---- ops ---------------------------------------------------------------------------------- */

/* Scores "fLaC" (after an ID3v2 tag, which libFLAC skips too) 100, a .flac name 10.
 * Any thread; reads only `head`. */
static int32_t flac_probe(const char *path, const uint8_t *head, size_t head_len)
{
    size_t off = 0;
    const char *slash, *dot;

    /* ID3v2: "ID3", version (2), flags, size as four 7-bit bytes; flag 0x10 adds a footer */
    if (head_len >= 10 && memcmp(head, "ID3", 3) == 0) {
        off = 10 + (((size_t)head[6] & 0x7f) << 21 | ((size_t)head[7] & 0x7f) << 14 |
                    ((size_t)head[8] & 0x7f) << 7 | ((size_t)head[9] & 0x7f));
        if (head[5] & 0x10)
            off += 10;
    }
    if (off + 4 <= head_len && memcmp(head + off, "fLaC", 4) == 0)
        return 100;

    slash = path ? strrchr(path, '/') : NULL;
    dot = path ? strrchr(slash ? slash : path, '.') : NULL;
    if (dot != NULL && strcasecmp(dot + 1, "flac") == 0)
        return 10;
    return 0;
}

/* Never fails; also frees the half-built instances of a failed open(). */
static void flac_close(abp_decoder *dec)
{
    if (dec == NULL)
        return;
    if (dec->flac != NULL) {
        FLAC__stream_decoder_finish(dec->flac); /* closes the file */
        FLAC__stream_decoder_delete(dec->flac);
    }
    free(dec->buf);
    free(dec->path);
    free(dec);
}

/* Reads everything up to the first audio frame, pushing tags, chapters and pictures on the way.
 * Blocks (file I/O).
 * errors: ABP_ERR_IO (cannot open or read), ABP_ERR_FORMAT (not FLAC, truncated metadata),
 *         ABP_ERR_UNSUPPORTED, ABP_ERR_NOMEM, ABP_ERR_INVALID (no room for the stream info) */
static abp_status flac_open(const abp_host_api *host, const char *path,
                            const abp_option *options, size_t option_count,
                            const abp_metadata_callbacks *metadata,
                            abp_decoder **out, abp_stream_info *info,
                            char *error, size_t error_size)
{
    struct abp_decoder *dec;
    FLAC__StreamDecoderInitStatus init;
    FLAC__StreamDecoderState state;
    FLAC__bool ok;
    abp_status status;
    int saved_errno;

    (void)options; /* no options are declared, so the host passes none */
    (void)option_count;
    if (path == NULL || out == NULL || info == NULL || !ABP_HAS_FIELD(info, abp_stream_info, seekable))
        return set_error(error, error_size, ABP_ERR_INVALID, "bad arguments to open");

    dec = calloc(1, sizeof(*dec));
    if (dec == NULL)
        return set_error(error, error_size, ABP_ERR_NOMEM, "out of memory");
    dec->host = host;
    dec->meta = metadata;
    dec->path = strdup(path); /* NULL when out of memory: the log then says "?" */
    dec->total_frames = ABP_FRAMES_UNKNOWN;

    dec->flac = FLAC__stream_decoder_new();
    if (dec->flac == NULL) {
        free(dec);
        return set_error(error, error_size, ABP_ERR_NOMEM, "out of memory");
    }
    FLAC__stream_decoder_set_metadata_respond(dec->flac, FLAC__METADATA_TYPE_VORBIS_COMMENT);
    FLAC__stream_decoder_set_metadata_respond(dec->flac, FLAC__METADATA_TYPE_PICTURE);

    errno = 0;
    init = FLAC__stream_decoder_init_file(dec->flac, path, write_cb, metadata_cb, error_cb, dec);
    saved_errno = errno;
    if (init != FLAC__STREAM_DECODER_INIT_STATUS_OK) {
        if (init == FLAC__STREAM_DECODER_INIT_STATUS_ERROR_OPENING_FILE)
            status = set_error(error, error_size, ABP_ERR_IO, "cannot open: %s",
                               saved_errno ? strerror(saved_errno) : "unknown error");
        else if (init == FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR)
            status = set_error(error, error_size, ABP_ERR_NOMEM, "out of memory");
        else
            status = set_error(error, error_size, ABP_ERR_INTERNAL, "libFLAC init failed: %s",
                               FLAC__StreamDecoderInitStatusString[init]);
        flac_close(dec);
        return status;
    }

    /* STREAMINFO, then tags, chapters and pictures through metadata_cb */
    ok = FLAC__stream_decoder_process_until_end_of_metadata(dec->flac);
    dec->meta = NULL;
    state = FLAC__stream_decoder_get_state(dec->flac);
    if (!ok || !dec->got_streaminfo) {
        if (state == FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR)
            status = set_error(error, error_size, ABP_ERR_NOMEM, "out of memory");
        else if (state == FLAC__STREAM_DECODER_ABORTED)
            status = set_error(error, error_size, ABP_ERR_IO, "read error");
        else if (dec->got_streaminfo)
            status = set_error(error, error_size, ABP_ERR_FORMAT, "truncated in the metadata");
        else if (dec->stream_errors > 0 || state != FLAC__STREAM_DECODER_END_OF_STREAM)
            /* libFLAC skipped garbage looking for "fLaC" or a frame */
            status = set_error(error, error_size, ABP_ERR_FORMAT, "not a FLAC stream");
        else
            status = set_error(error, error_size, ABP_ERR_FORMAT,
                               "empty, or truncated before the stream info");
        flac_close(dec);
        return status;
    }
    if (dec->format.rate == 0 || dec->format.channels < 1 || dec->format.channels > 8) {
        status = set_error(error, error_size, ABP_ERR_UNSUPPORTED,
                           "unsupported format: %u Hz, %u channels",
                           dec->format.rate, dec->format.channels);
        flac_close(dec);
        return status;
    }
    if (state == FLAC__STREAM_DECODER_END_OF_STREAM && dec->total_frames != ABP_FRAMES_UNKNOWN) {
        flac_close(dec);
        return set_error(error, error_size, ABP_ERR_FORMAT,
                         "truncated: no audio after the metadata");
    }

    info->format = dec->format;
    info->total_frames = dec->total_frames;
    info->seekable = 1;
    /* what probe shows of the source (read no field past the struct_size the host set) */
    if (ABP_HAS_FIELD(info, abp_stream_info, codec)) {
        info->bits_per_sample = dec->bits_per_sample;
        snprintf(info->codec, sizeof info->codec, "FLAC");
    }
    *out = dec;
    return ABP_OK;
}

/* Hands out the rest of the last block, then decodes the next one. Blocks (file I/O).
 * errors: ABP_ERR_IO (read error), ABP_ERR_FORMAT (the file ends before STREAMINFO's length,
 *         reported once, then 0), ABP_ERR_NOMEM, ABP_ERR_UNSUPPORTED (channels change),
 *         ABP_ERR_INVALID (max_frames <= 0) */
static int64_t flac_read(abp_decoder *dec, float *buffer, int64_t max_frames)
{
    int64_t done = 0;
    uint32_t channels = dec->format.channels;

    if (buffer == NULL || max_frames <= 0)
        return dec_error(dec, ABP_ERR_INVALID, "read of %lld frames", (long long)max_frames);

    while (done < max_frames) {
        if (dec->buf_pos < dec->buf_frames) {
            size_t n = dec->buf_frames - dec->buf_pos;

            if ((int64_t)n > max_frames - done)
                n = (size_t)(max_frames - done);
            memcpy(buffer + done * channels, dec->buf + dec->buf_pos * channels,
                   n * channels * sizeof(float));
            dec->buf_pos += n;
            done += (int64_t)n;
            continue;
        }
        if (dec->eof)
            break;
        dec->buf_frames = dec->buf_pos = 0;
        /* false with END_OF_STREAM is a file that ends inside a frame: treated as the end */
        if (!FLAC__stream_decoder_process_single(dec->flac) &&
            FLAC__stream_decoder_get_state(dec->flac) != FLAC__STREAM_DECODER_END_OF_STREAM)
            return done > 0 ? done : state_error(dec);
        switch (FLAC__stream_decoder_get_state(dec->flac)) {
        case FLAC__STREAM_DECODER_END_OF_STREAM:
            if (dec->buf_frames == 0)
                dec->eof = 1;
            break;
        case FLAC__STREAM_DECODER_ABORTED:
            return done > 0 ? done : state_error(dec);
        default:
            break;
        }
    }
    if (done == 0 && dec->eof && !dec->truncation_reported &&
        dec->total_frames != ABP_FRAMES_UNKNOWN && dec->decoded_end < dec->total_frames) {
        dec->truncation_reported = 1; /* said once; the next read() returns 0 */
        return dec_error(dec, ABP_ERR_FORMAT, "truncated: audio ends at frame %lld of %lld",
                         (long long)dec->decoded_end, (long long)dec->total_frames);
    }
    return done;
}

/* Exact: libFLAC decodes the target block and trims it to `frame`. Blocks (file I/O).
 * errors: ABP_ERR_SEEK (out of range, or libFLAC could not get there; the decoder is flushed
 *         and usable), ABP_ERR_IO, ABP_ERR_NOMEM */
static abp_status flac_seek(abp_decoder *dec, int64_t frame)
{
    FLAC__StreamDecoderState state;

    if (frame < 0 || (dec->total_frames != ABP_FRAMES_UNKNOWN && frame > dec->total_frames))
        return dec_error(dec, ABP_ERR_SEEK, "seek to frame %lld outside 0..%lld",
                         (long long)frame, (long long)dec->total_frames);

    dec->buf_frames = dec->buf_pos = 0;
    dec->eof = 0;
    dec->truncation_reported = 0;
    dec->abort_status = ABP_OK;
    /* seek_absolute refuses to start from these states */
    state = FLAC__stream_decoder_get_state(dec->flac);
    if (state == FLAC__STREAM_DECODER_ABORTED || state == FLAC__STREAM_DECODER_SEEK_ERROR)
        FLAC__stream_decoder_flush(dec->flac);

    if (frame == dec->total_frames) {
        /* libFLAC cannot seek to one past the last sample; the next read() is the end */
        dec->eof = 1;
        dec->decoded_end = frame;
        return ABP_OK;
    }
    /* on success the write callback has already received the block starting at `frame` */
    if (FLAC__stream_decoder_seek_absolute(dec->flac, (FLAC__uint64)frame))
        return ABP_OK;

    state = FLAC__stream_decoder_get_state(dec->flac);
    if (state == FLAC__STREAM_DECODER_SEEK_ERROR) {
        FLAC__stream_decoder_flush(dec->flac);
        dec->buf_frames = dec->buf_pos = 0;
        return dec_error(dec, ABP_ERR_SEEK, "seek to frame %lld failed", (long long)frame);
    }
    if (state == FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR ||
        state == FLAC__STREAM_DECODER_ABORTED) {
        abp_status status = state_error(dec);

        FLAC__stream_decoder_flush(dec->flac);
        return status == ABP_ERR_FORMAT ? ABP_ERR_SEEK : status;
    }
    return dec_error(dec, ABP_ERR_SEEK, "seek to frame %lld failed (%s)", (long long)frame,
                     FLAC__StreamDecoderStateString[state]);
}

static const char *flac_last_error(abp_decoder *dec)
{
    return dec->error;
}

/* ---- descriptor --------------------------------------------------------------------------- */

static const char *const flac_extensions[] = { "flac", NULL };
static const char *const flac_mime_types[] = { "audio/flac", NULL };

static const abp_decoder_ops flac_ops = {
    .struct_size = sizeof(abp_decoder_ops),
    .probe = flac_probe,
    .open = flac_open,
    .read = flac_read,
    .seek = flac_seek,
    .last_error = flac_last_error,
    .close = flac_close,
};

static const abp_plugin flac_plugin = {
    .struct_size = sizeof(abp_plugin),
    .abi_major = ABP_ABI_MAJOR,
    .abi_minor = ABP_API_LEVEL, /* the lowest host minor it needs (1.0) */
    .kind = ABP_KIND_DECODER,
    .id = "flac-example", /* abplayer's own in-tree decoder is "flac" */
    .name = "FLAC (libFLAC, the SDK example)",
    .version = "1.0.0",
    .description = "Free Lossless Audio Codec files, with Vorbis comments, chapters and pictures",
    /* FLAC has no encoder delay or padding: the stream is gapless as it is */
    .capabilities = ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS |
                    ABP_CAP_PICTURES,
    .priority = 50, /* above the in-tree "flac" (0): once installed, the example is the one used */
    .extensions = flac_extensions,
    .mime_types = flac_mime_types,
    .options = NULL,
    .option_count = 0,
    .decoder = &flac_ops,
    .sink = NULL,
};

ABP_EXPORT const abp_plugin *abplayer_plugin_entry(const abp_host_api *host)
{
    /* Under another major the rest of *host may be laid out differently, so do not even log
     * through it: the host names the file it refused. */
    if (host == NULL || host->abi_major != ABP_ABI_MAJOR)
        return NULL;
    return &flac_plugin;
}
