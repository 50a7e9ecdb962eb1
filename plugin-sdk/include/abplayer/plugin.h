/*
 * abplayer plugin ABI — the only thing that crosses the dlopen boundary.
 *
 * A plugin is a shared object exporting exactly one public symbol, the entry point
 * ABP_ENTRY_SYMBOL, of type abp_entry_fn. The host calls it once, right after dlopen, with its
 * API table; the plugin returns a pointer to a `const` descriptor that lives as long as the
 * shared object is loaded (static storage), or NULL when it cannot work with this host.
 *
 * Only C types cross this boundary: Swift has no stable ABI on Linux. Strings are NUL-terminated
 * UTF-8. Every position and length is an int64_t count of frames (one sample per channel);
 * seconds exist only in the user interface. Audio is always interleaved 32-bit float, nominally
 * within [-1, 1].
 *
 * State lives in instances (abp_decoder, abp_sink), never in globals: the host may open many
 * instances of one plugin at once, from different threads. Plugins never print; they log through
 * the host API table.
 *
 * ---------------------------------------------------------------------------------------------
 * Versioning policy
 *
 * ABP_ABI_MAJOR changes when anything existing changes meaning, size or order. ABP_ABI_MINOR
 * changes when something is appended (a field at the end of a struct or in a reserved slot, a
 * capability flag, an error code).
 *
 * A plugin's abp_plugin.abi_minor is the LOWEST host minor it needs, not the minor of the headers
 * it was built with (DeaDBeeF's rule). The host loads a plugin when
 *     plugin.abi_major == host major  &&  plugin.abi_minor <= host minor
 *     && plugin.struct_size >= the size of abp_plugin at the plugin's minor
 * and refuses anything else with a message naming the file; the plugin's entry point likewise
 * returns NULL only for a host of another major or a minor below what it declared. A plugin uses
 * a feature newer than its declared minor only after checking that the host offers it: through
 * the struct_size of the struct that carries it (abp_audio_source.wait, 1.2) or the host's
 * abi_minor (ABP_ERR_MOVED, 1.1). Fields a plugin fills in a slot that was reserved at an older
 * minor (abp_plugin.argument_option, 1.3) are simply not read by older hosts. So a plugin built
 * with these headers that declares 1.0 runs in every 1.x host, using what each offers.
 *
 * Structs passed by pointer start with `struct_size` so they can grow append-only; readers never
 * touch a field beyond struct_size. The `reserved` slots must be NULL/zero.
 *
 * Frozen for every major version, so that either side can read the other's version and refuse
 * it safely: the first three fields of abp_plugin and abp_host_api (struct_size, abi_major,
 * abi_minor), and host_ctx and log in abp_host_api. The small structs passed by value or in
 * arrays (abp_format, abp_option, abp_option_spec) have no struct_size: they are fixed for the
 * life of major 1. Enums are int-sized (no -fshort-enums).
 *
 * Threading, for every instance: the host never calls two functions of one instance at the same
 * time (calls are serialized, though they may come from different threads over its life). The
 * only exception is a sink's pull(), which the sink itself calls on its own thread.
 *
 * History
 *   1.0  (2026-11) first release: decoders (probe, open, read, seek, metadata callbacks,
 *        last_error, close) and pull-model sinks (open, start, pause, resume, latency, drain,
 *        stop, last_error, close); host API: log, cache_dir.
 *   1.1  (2026-11) ABP_ERR_MOVED, a status a sink reports through abp_audio_source.status when
 *        the server moved its stream to another device (headphones unplugged). Hosts at 1.0
 *        never receive it from 1.0 plugins; a 1.1 plugin must not send it to a 1.0 host.
 *   1.2  (2026-11) abp_audio_source.wait: a sink with no clock of its own (a file, a null
 *        output) sleeps until the host has audio instead of polling. Present when the source's
 *        struct_size covers it.
 *   1.3  (2026-11) abp_plugin.argument_option: which option `--output ID:ARG` fills, so the
 *        host resolves outputs from the descriptors alone (it names no plugin). What the host
 *        does with the rest of the descriptor made exact: priority picks the automatic output,
 *        a sink's extensions name the files it writes, the capability flags are honoured (see
 *        each), which functions may be NULL is listed with each ops table, decoders receive
 *        options (`--decoder-option ID.key=value`), and the option name `paced` is reserved.
 *   1.4  (2026-11) abp_stream_info.bits_per_sample and .codec: what `abplayer probe` shows of a
 *        stream's source (the codec's name, the bit depth of a lossless or PCM stream), in the
 *        slots that were reserved; the struct's size is unchanged. A host zeroes the struct
 *        before open(), so a plugin that does not fill them (any older one) says nothing.
 * ---------------------------------------------------------------------------------------------
 */
#ifndef ABPLAYER_PLUGIN_H
#define ABPLAYER_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ABP_ABI_MAJOR 1
#define ABP_ABI_MINOR 4

/* The one symbol a plugin exports (the only one the host looks up). */
#define ABP_ENTRY_SYMBOL "abplayer_plugin_entry"

/* ---- Error codes ----------------------------------------------------------------------------
 * Functions that can fail return abp_status (or a negative abp_status where they otherwise return
 * a count). ABP_OK is the only success value. After a failure, the instance's last_error gives a
 * human-readable reason (without the file name: the host adds it). */
typedef enum abp_status {
    ABP_OK = 0,
    ABP_ERR_IO = -1,          /* the file or device could not be read or written (errno-style) */
    ABP_ERR_FORMAT = -2,      /* the data is not in this plugin's format, or is corrupt/truncated */
    ABP_ERR_UNSUPPORTED = -3, /* valid, but this plugin cannot handle it (codec profile, channels) */
    ABP_ERR_NOMEM = -4,       /* an allocation failed */
    ABP_ERR_SEEK = -5,        /* the seek target is out of range, or the stream is not seekable */
    ABP_ERR_INVALID = -6,     /* a bad argument or option value from the host */
    ABP_ERR_DEVICE = -7,      /* an output device or server refused, or went away */
    ABP_ERR_INTERNAL = -8,    /* a bug or an unexpected library error */
    ABP_ERR_MOVED = -9        /* (1.1, status() only) the server moved the output to another
                                 device; it still plays, but not where the user chose */
} abp_status;

/* ---- Values shared by decoders and sinks ---------------------------------------------------- */

/* A count of frames that is not known (a stream without a length). The only sentinel in the ABI;
 * the host turns it into an optional. */
#define ABP_FRAMES_UNKNOWN ((int64_t)-1)

/* Channels are interleaved in the WAV/SMPTE order: FL FR FC LFE BL BR SL SR (mono is one channel,
 * stereo FL FR). A decoder whose library uses another order (Vorbis/Opus) reorders. */
typedef struct abp_format {
    uint32_t rate;     /* frames per second, > 0 */
    uint32_t channels; /* interleaved channels, 1..8 */
} abp_format;

typedef enum abp_kind {
    ABP_KIND_DECODER = 1,
    ABP_KIND_SINK = 2
} abp_kind;

/* Capability flags (abp_plugin.capabilities). Unknown bits must be ignored by the host. What the
 * host does with each is said beside it; `abplayer plugins ID` shows them all. */
#define ABP_CAP_SEEK      (1u << 0) /* decoder: can seek (per stream, see abp_stream_info.seekable).
                                       Without it the host never calls seek(). */
#define ABP_CAP_GAPLESS   (1u << 1) /* decoder: output is sample-exact (encoder delay and padding
                                       trimmed, or the format has none). Shown to the user. */
#define ABP_CAP_TAGS      (1u << 2) /* decoder: reports tags. Without it metadata->tag is NULL. */
#define ABP_CAP_CHAPTERS  (1u << 3) /* decoder: reports chapters. Without it ->chapter is NULL. */
#define ABP_CAP_PICTURES  (1u << 4) /* decoder: reports pictures. Without it ->picture is NULL. */
#define ABP_CAP_PAUSE     (1u << 8) /* sink: pause/resume keep what the device holds (not just
                                       "stop pulling"). Shown to the user. */
#define ABP_CAP_LATENCY   (1u << 9) /* sink: latency() is measured, not a constant. Shown. */
#define ABP_CAP_FIXED_RATE (1u << 10) /* sink: may run at a rate other than the one asked for (the
                                       host resamples to what open() reports either way). */
#define ABP_CAP_REALTIME  (1u << 11) /* sink: consumes audio at the pace of a clock. A listener's
                                       player (the REPL, `listen`) plays only to such a sink, or
                                       to one it can ask to keep time: see option `paced`. */

/* ---- Options --------------------------------------------------------------------------------
 * A plugin declares the options it accepts; the user passes them as name=value strings
 * (`--output ID[:ARG][,name=value...]`, `--decoder-option ID.name=value`), which the host hands to
 * open() unchanged after checking that the name is declared and the value has the declared type.
 * Only the options the user gave are passed: defaults are the plugin's to apply.
 *
 * Reserved name: `paced` (ABP_OPTION_BOOL), for a sink without ABP_CAP_REALTIME that can keep
 * time when asked (a file or null output). A listener's player sets paced=true unless the user
 * set it; `abplayer decode` sets paced=false. A sink with neither is refused for listening. */
typedef enum abp_option_type {
    ABP_OPTION_STRING = 1,
    ABP_OPTION_BOOL = 2,   /* "true"/"false"/"yes"/"no"/"1"/"0" */
    ABP_OPTION_INT = 3,
    ABP_OPTION_PATH = 4
} abp_option_type;

typedef struct abp_option_spec {
    const char *name;          /* [a-z0-9-]+ */
    abp_option_type type;
    const char *default_value; /* as text; may be NULL (no default) */
    const char *help;          /* one line */
} abp_option_spec;

typedef struct abp_option {
    const char *name;
    const char *value;
} abp_option;

/* ---- Host API ---------------------------------------------------------------------------------
 * Given to the entry point and to every open(). Owned by the host; valid until the process exits.
 * Every function here is thread-safe, but none is real-time safe (they may lock or allocate):
 * never call them from a sink's audio callback. */
typedef enum abp_log_level {
    ABP_LOG_ERROR = 1,
    ABP_LOG_WARNING = 2,
    ABP_LOG_INFO = 3,
    ABP_LOG_DEBUG = 4
} abp_log_level;

typedef struct abp_host_api {
    uint32_t struct_size;  /* sizeof(abp_host_api) as the host was built */
    uint16_t abi_major;    /* the host's ABP_ABI_MAJOR */
    uint16_t abi_minor;    /* the host's ABP_ABI_MINOR */
    void *host_ctx;        /* pass back as the first argument of the functions below */

    /* Logs one message (no trailing newline needed). `plugin_id` and `message` are copied. */
    void (*log)(void *host_ctx, abp_log_level level, const char *plugin_id, const char *message);

    /* The directory where plugins may keep caches (e.g. a seek index), such as
     * $XDG_CACHE_HOME/abplayer. Exists when returned. Owned by the host, valid forever. NULL when
     * no cache directory can be had (the plugin then works without a cache). */
    const char *(*cache_dir)(void *host_ctx);

    void *reserved[8];
} abp_host_api;

/* ---- Decoders ---------------------------------------------------------------------------------
 *
 * Metadata is pushed to the host through these callbacks, during open() only, on the thread that
 * calls open(). Every pointer argument is borrowed: the host copies what it keeps. Any callback
 * may be NULL (the host does not want that kind of metadata). */
typedef struct abp_metadata_callbacks {
    uint32_t struct_size;
    void *ctx;
    /* A tag. Keys are lower-case from this list where they apply: title, artist, album,
     * albumartist, composer, narrator, genre, track (n or n/N), disc (n or n/N), year, comment,
     * description; any other key is passed through lower-cased. */
    void (*tag)(void *ctx, const char *key, const char *value);
    /* A chapter starting at `start_frame` (output frames, after gapless trimming). Chapters may
     * come in any order; the host sorts them. `title` may be empty, never NULL. */
    void (*chapter)(void *ctx, int64_t start_frame, const char *title);
    /* An embedded picture. `picture_type` follows ID3v2 APIC / FLAC (3 = front cover). */
    void (*picture)(void *ctx, const char *mime, uint32_t picture_type,
                    const uint8_t *data, size_t size);
} abp_metadata_callbacks;

/* What open() found out, filled by the plugin. */
typedef struct abp_stream_info {
    uint32_t struct_size;   /* set by the host before open() */
    abp_format format;      /* the format read() produces, fixed for the instance's life */
    int64_t total_frames;   /* exact length after gapless trimming, or ABP_FRAMES_UNKNOWN */
    uint32_t seekable;      /* 1 when seek() works on this stream, 0 otherwise */
    /* (1.4) The bits per sample the source stores, for lossless and PCM streams (16, 24, 32);
     * 0 for a lossy codec or when the plugin does not say. Shown to the user (probe). */
    uint32_t bits_per_sample;
    /* (1.4) The codec's name as listeners know it, NUL-terminated UTF-8 ("MP3", "AAC-LC",
     * "HE-AAC v2", "Opus", "Vorbis", "FLAC", "ALAC", "PCM"...); empty when the plugin does not
     * say. Write it only when struct_size reaches the end of this field (it does from 1.4 on;
     * older hosts pass the same size, so it always fits, and they never read it). */
    char codec[24];
} abp_stream_info;

typedef struct abp_decoder abp_decoder; /* opaque, the plugin's instance */

/* probe, open, read and close are required; seek and last_error may be NULL (the host then
 * treats every stream as unseekable / gives no reason beyond the status). A table leaving a
 * required function NULL is refused at load, naming it. */
typedef struct abp_decoder_ops {
    uint32_t struct_size;

    /* How well the plugin handles the file: 0 = not at all, 100 = certainly (a magic number
     * matched). `head` is the file's first `head_len` bytes (up to 4096; fewer for a short file).
     * Must not open the file itself. Any thread; must not block. */
    int32_t (*probe)(const char *path, const uint8_t *head, size_t head_len);

    /* Opens `path`. On ABP_OK, *out is a new instance and *info is filled. On failure *out is
     * untouched and a one-line reason (no file name) is written, NUL-terminated, to `error`
     * (at most `error_size` bytes). `options` (may be NULL when count is 0) and `metadata` are
     * borrowed for the call only; metadata may be NULL. A file whose audio cannot be played but
     * whose tags or chapters can be read may have them reported before the failure (and
     * info->format set when known, the rate of the chapters' frames): the host shows them with
     * the reason (probe). Blocks (file I/O).
     * Errors: ABP_ERR_IO, ABP_ERR_FORMAT, ABP_ERR_UNSUPPORTED, ABP_ERR_NOMEM, ABP_ERR_INVALID. */
    abp_status (*open)(const abp_host_api *host, const char *path,
                       const abp_option *options, size_t option_count,
                       const abp_metadata_callbacks *metadata,
                       abp_decoder **out, abp_stream_info *info,
                       char *error, size_t error_size);

    /* Decodes up to `max_frames` frames into `buffer` (room for max_frames * channels floats).
     * Returns the number of frames written (> 0), 0 at the end of the stream, or a negative
     * abp_status. A short count does not mean the end. Blocks (file I/O). One thread at a time
     * per instance. Errors: ABP_ERR_IO, ABP_ERR_FORMAT (corrupt data that cannot be skipped). */
    int64_t (*read)(abp_decoder *dec, float *buffer, int64_t max_frames);

    /* Moves so that the next read() starts exactly at output frame `frame` (0 <= frame <=
     * total_frames). NULL when the plugin cannot seek at all. Blocks; may take long the first
     * time on a file without a seek table. Errors: ABP_ERR_SEEK, ABP_ERR_IO. */
    abp_status (*seek)(abp_decoder *dec, int64_t frame);

    /* The reason for the last failure of read() or seek() on this instance; never NULL (empty
     * when there was none). Owned by the instance, valid until its next call. */
    const char *(*last_error)(abp_decoder *dec);

    /* Frees the instance. Never fails. */
    void (*close)(abp_decoder *dec);

    void *reserved[8];
} abp_decoder_ops;

/* ---- Sinks ------------------------------------------------------------------------------------
 *
 * Sinks pull. The host owns a lock-free ring buffer of interleaved float frames at the sink's
 * format; the sink's own thread (an ALSA writer thread, a PulseAudio write callback, the JACK
 * process callback, a plain thread for file sinks) calls pull() whenever it wants audio. */
typedef struct abp_audio_source {
    uint32_t struct_size;
    void *ctx;
    /* Copies up to `frames` frames into `buffer` and returns how many it copied. Fewer than asked
     * means the host has no more audio ready (an underrun while playing, or the end after the
     * host called drain()): the sink plays silence for the rest. Real-time safe: never locks,
     * allocates or blocks. Call from one thread at a time. */
    size_t (*pull)(void *ctx, float *buffer, size_t frames);
    /* Tells the host that the output stopped working (ABP_ERR_DEVICE: device gone, server died),
     * was moved elsewhere by its server (ABP_ERR_MOVED, since 1.1; only when host abi_minor >= 1)
     * or came back (ABP_OK). `message` is one line. Not real-time safe: call it from a non-audio thread. May be NULL. */
    void (*status)(void *ctx, abp_status status, const char *message);
    /* (1.2; present when struct_size >= offsetof(abp_audio_source, wait) + sizeof(void *).)
     * Sleeps until at least `frames` frames are ready to pull, or `timeout_ms` passed, or the
     * host wants the sink to look again (it stops, drains or changes something). For sinks
     * with no clock of their own after an underrun, instead of polling; a device-driven sink
     * never needs it. Not real-time safe: it blocks. Call from the thread that pulls. */
    void (*wait)(void *ctx, size_t frames, uint32_t timeout_ms);
} abp_audio_source;

typedef struct abp_sink abp_sink; /* opaque, the plugin's instance */

/* open, start, pause, resume, stop and close are required (a listener pauses, and must find
 * the place again). latency, drain and last_error may be NULL: without latency the host takes 0
 * (positions then run ahead by what the device holds); without drain the host waits until the
 * sink has pulled everything, then stops it; without last_error a failure has no reason beyond
 * its status. A table leaving a required function NULL is refused at load, naming it. */
typedef struct abp_sink_ops {
    uint32_t struct_size;

    /* Opens the output for `requested`. On ABP_OK, *out is a new instance in the stopped state
     * (not pulling yet) and *actual holds the format it really runs at; a sink with
     * ABP_CAP_FIXED_RATE may differ in rate (the host then resamples), and any sink may pick
     * another channel count only if it cannot play the requested one. `source` must stay valid
     * until close(). On failure, *out is untouched and `error` gets a one-line reason. Blocks.
     * Errors: ABP_ERR_DEVICE, ABP_ERR_IO, ABP_ERR_UNSUPPORTED, ABP_ERR_INVALID, ABP_ERR_NOMEM. */
    abp_status (*open)(const abp_host_api *host, const abp_format *requested,
                       const abp_option *options, size_t option_count,
                       const abp_audio_source *source,
                       abp_sink **out, abp_format *actual,
                       char *error, size_t error_size);

    /* Starts pulling and playing. Called once after open(). Non-blocking beyond setup. */
    abp_status (*start)(abp_sink *sink);

    /* Stops consuming audio at once, keeping what is queued inside the device where possible, so
     * that resume() continues from the same frame. Blocks briefly. */
    abp_status (*pause)(abp_sink *sink);
    abp_status (*resume)(abp_sink *sink);

    /* Frames pulled from the host but not yet heard (device buffer + server latency), at the
     * sink's rate. Any non-audio thread; must not block for long. Never negative. */
    int64_t (*latency)(abp_sink *sink);

    /* Called by the host after its last frame is in the ring buffer: keeps pulling until pull()
     * returns short, then blocks until everything pulled has been played, and stops.
     * Errors: ABP_ERR_DEVICE, ABP_ERR_IO. */
    abp_status (*drain)(abp_sink *sink);

    /* Stops discarding any queued audio, without waiting for it to play. After it returns
     * pull() is no longer called until start() again. Blocks briefly. */
    abp_status (*stop)(abp_sink *sink);

    /* The reason of the last failure; never NULL. Owned by the instance. */
    const char *(*last_error)(abp_sink *sink);

    /* Stops if needed (discarding queued audio) and frees the instance. After it returns pull()
     * is never called again. Never fails. */
    void (*close)(abp_sink *sink);

    void *reserved[8];
} abp_sink_ops;

/* ---- The descriptor ------------------------------------------------------------------------- */
typedef struct abp_plugin {
    uint32_t struct_size;    /* sizeof(abp_plugin) as the plugin was built */
    uint16_t abi_major;      /* ABP_ABI_MAJOR as the plugin was built */
    uint16_t abi_minor;      /* ABP_ABI_MINOR as the plugin was built */
    abp_kind kind;
    const char *id;          /* unique, [a-z0-9_-]+, e.g. "mpg123"; users name plugins by it */
    const char *name;        /* human-readable, e.g. "MP3 (libmpg123)" */
    const char *version;     /* the plugin's own version, e.g. "1.0.0" */
    const char *description; /* one line */
    uint32_t capabilities;   /* ABP_CAP_* */
    /* Decoders: between two decoders whose probe() scores a file equally, the one listing the
     * file's extension wins, then the higher priority.
     * Sinks: with no output named, the host tries every sink of priority > 0 by a trial open
     * (open, then close), highest first, and plays to the first that opens; when none does, it
     * takes the highest sink of priority < 0 that opens (a fallback such as a null output) and
     * warns. A sink of priority 0 is used only when named (e.g. one that needs a file path).
     * In this tree: pulse 30, jack 20, alsa 10, wav 0, null -100. */
    int32_t priority;
    /* Decoders: the extensions they read (lower-case, no dot), the tie-break above.
     * Sinks: the extensions of the files they write, for `abplayer decode -o FILE.EXT` (the
     * file's path goes into argument_option). NULL-terminated; may be NULL. */
    const char *const *extensions;
    const char *const *mime_types; /* decoders: NULL-terminated; may be NULL. Shown to the user
                                      and offered to desktops (MPRIS SupportedMimeTypes). */
    const abp_option_spec *options; /* may be NULL when option_count is 0 */
    uint32_t option_count;
    const abp_decoder_ops *decoder; /* non-NULL exactly when kind == ABP_KIND_DECODER */
    const abp_sink_ops *sink;       /* non-NULL exactly when kind == ABP_KIND_SINK */
    /* (1.3) Sinks: the name of the option (one of `options`) that a bare argument fills when the
     * user names the output as `ID:ARG` (e.g. "device" for `alsa:hw:1,0`, "path" for
     * `wav:out.wav`). NULL when the sink takes no such argument. Decoders: NULL. It took the place
     * of the first reserved slot, so older hosts (which never read it) see NULL-or-ignored. */
    const char *argument_option;
    void *reserved[7];
} abp_plugin;

/* The entry point. Called once on the host's main thread right after dlopen. `host` is valid
 * forever. Returns the plugin's static descriptor, or NULL when the plugin refuses this host
 * (e.g. host->abi_major differs); it may log why. Must not block or start threads. */
typedef const abp_plugin *(*abp_entry_fn)(const abp_host_api *host);

#ifdef __cplusplus
}
#endif

#endif /* ABPLAYER_PLUGIN_H */
