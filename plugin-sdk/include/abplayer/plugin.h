/*
 * abplayer plugin ABI — the only thing that crosses the dlopen boundary. This header is the
 * contract: every rule a plugin must follow is stated here once, beside what it governs.
 * plugin-sdk/README.md walks through it with examples and points back here.
 *
 * A plugin is a shared object whose one symbol the host looks up is the entry point,
 * ABP_ENTRY_SYMBOL, of type abp_entry_fn (a C plugin exports nothing else: mark the entry
 * ABP_EXPORT and build with -fvisibility=hidden). The host calls it once, right after dlopen, with its API table; the
 * plugin returns a pointer to a `const` descriptor that lives as long as the shared object is
 * loaded (static storage), or NULL when it cannot work with this host. The host loads plugins
 * with RTLD_NODELETE: nothing is ever unloaded.
 *
 * Only C types cross this boundary: Swift has no stable ABI on Linux. Strings are NUL-terminated
 * UTF-8. Every position and length is an int64_t count of frames (one sample per channel);
 * seconds exist only in the user interface. Audio is always interleaved 32-bit float, nominally
 * within [-1, 1].
 *
 * State lives in instances (abp_decoder, abp_sink), never in globals: the host may open many
 * instances of one plugin at once, from different threads. Plugins never print; they log through
 * the host API table (abp_host_api.log, which says who writes the plugin's id).
 *
 * ---------------------------------------------------------------------------------------------
 * Versioning policy
 *
 * ABP_ABI_MAJOR changes when anything existing changes meaning, size or order. ABP_ABI_MINOR
 * changes when something is appended (a field at the end of a struct or in a reserved slot, a
 * capability flag, an error code); each such addition is marked "(1.n)" where it is declared.
 *
 * abp_plugin.abi_minor is the LOWEST host minor the plugin needs (DeaDBeeF's rule), not the
 * minor of the headers it was built with: set it to ABP_API_LEVEL (below). The host loads a
 * plugin when
 *     plugin.abi_major == host major  &&  plugin.abi_minor <= host minor
 *     && plugin.struct_size >= sizeof(abp_plugin) at 1.0
 * and refuses anything else (another major, a newer minor, a short descriptor) with a message
 * naming the file. The entry point likewise returns NULL only for a host of another major or a
 * minor below the plugin's abi_minor. A plugin uses something newer than its abi_minor only
 * after checking that the host offers it: a struct field through ABP_HAS_FIELD on the struct
 * the host filled, anything else through the host's abp_host_api.abi_minor.
 *
 * Structs passed by pointer start with `struct_size` (sizeof as whoever filled it was built), so
 * they can grow append-only; readers never touch a field beyond struct_size (ABP_HAS_FIELD).
 * The `reserved` slots must be NULL/zero; a later minor may give one a meaning, and an older
 * host never reads it.
 *
 * Frozen for every major version, so that either side can read the other's version and refuse
 * it safely: the first three fields of abp_plugin and abp_host_api (struct_size, abi_major,
 * abi_minor), and host_ctx and log in abp_host_api. The small structs passed by value or in
 * arrays (abp_format, abp_option, abp_option_spec) have no struct_size: they are fixed for the
 * life of major 1. Enums are int-sized (no -fshort-enums). src/abi_check.c pins the offsets.
 *
 * Threading, for every instance: the host never calls two functions of one instance at the same
 * time (calls are serialized, though they may come from different threads over its life). The
 * only exception is the source a sink is given, whose functions the sink itself calls, on its
 * own threads (see abp_audio_source).
 *
 * History (entries start at the first release; nothing before it ever shipped)
 *   1.0  (2026-11) first release: decoders (probe, open, read, seek, metadata callbacks,
 *        last_error, close; stream info with codec and bits_per_sample) and pull-model sinks
 *        (open, start, pause, resume, latency, drain, stop, last_error, close; the source's
 *        pull, status and wait; ABP_ERR_MOVED); descriptor with argument_option; host API: log,
 *        cache_dir; ABP_API_LEVEL, ABP_HAS_FIELD, ABP_EXPORT.
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
#define ABP_ABI_MINOR 0

/* ABP_API_LEVEL: the ABI minor a plugin is written against (like DeaDBeeF's DDB_API_LEVEL).
 * Define it before including this header to get only what that level offers, and put it in
 * abp_plugin.abi_minor: a later minor's constants, flags and error codes are declared only under
 * `#if ABP_SINCE(n)`, so using one without raising the level fails to compile. Struct fields are
 * always declared (the layout never depends on the level); read one added after your level
 * only behind ABP_HAS_FIELD. Asking for a level this header does not have is a compile error: you
 * need a newer SDK. Undefined, it is this header's ABP_ABI_MINOR. */
#ifndef ABP_API_LEVEL
#define ABP_API_LEVEL ABP_ABI_MINOR
#endif
#if ABP_API_LEVEL > ABP_ABI_MINOR
#error "ABP_API_LEVEL asks for a newer plugin ABI than this <abplayer/plugin.h> has (see ABP_ABI_MINOR): install a newer abplayer SDK"
#endif
#if ABP_API_LEVEL < 0
#error "ABP_API_LEVEL is an ABI minor: 0 or more"
#endif
#define ABP_SINCE(minor) (ABP_API_LEVEL >= (minor))

/* Does `s`, a pointer to a `type` filled by the other side, reach `field`? (Its struct_size
 * covers the whole field.) Check before reading a field added after your ABP_API_LEVEL. */
#define ABP_HAS_FIELD(s, type, field) \
    ((s)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* Marks the entry point as the one symbol the plugin exports (build with -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define ABP_EXPORT __attribute__((visibility("default")))
#else
#define ABP_EXPORT
#endif

/* The one symbol a plugin exports (the only one the host looks up). */
#define ABP_ENTRY_SYMBOL "abplayer_plugin_entry"

/* ---- Error codes ----------------------------------------------------------------------------
 * Functions that can fail return abp_status (or a negative abp_status where they otherwise return
 * a count). ABP_OK is the only success value. After a failure, the instance's last_error gives a
 * one-line, human-readable reason (without the file name or the plugin id: the host adds them). */
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
    ABP_ERR_MOVED = -9        /* (status() only) the server moved the output to another device;
                                 it still plays, but not where the user chose */
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
#define ABP_CAP_PAUSE     (1u << 8) /* sink: a pause loses nothing and repeats nothing: after
                                       pause() and resume() the output goes on from the frame
                                       after the last one pulled. A device keeps what it holds
                                       (snd_pcm_pause, a corked stream); a file sink writes nothing
                                       while paused (no silence) and its file is the frames pulled,
                                       in order. Without it, a pause may drop what the device holds
                                       (still never more than latency() said). Shown to the user. */
#define ABP_CAP_LATENCY   (1u << 9) /* sink: latency() is measured, not a constant. Shown. */
#define ABP_CAP_FIXED_RATE (1u << 10) /* sink: may run at a rate other than the one asked for (the
                                       host resamples to what open() reports either way). */
#define ABP_CAP_REALTIME  (1u << 11) /* sink: consumes audio at the pace of a clock, always (a
                                       device's, a server's, or one of its own, as a pipe's). A
                                       listener's player (the REPL, `listen`) plays only to such a
                                       sink or to one it can ask to keep time: see `paced`. */

/* ---- Options --------------------------------------------------------------------------------
 * A plugin declares the options it accepts; the user passes them as name=value strings
 * (`--output ID[:ARG][,name=value...]`, `--decoder-option ID.name=value`), which the host hands to
 * open() after checking that the name is declared and the value has the declared type (below).
 * Only the options the user gave are passed, each at most once, plus `paced` as said below:
 * defaults are the plugin's to apply, and default_value is what it applies (shown to the user).
 *
 * Reserved name: `paced` (ABP_OPTION_BOOL), for a sink that can keep time when asked (a file or
 * a null output). A sink that wants it declares it, with the default it applies when the option
 * is absent. The host passes it even when the user did not: `paced=true` to a sink without
 * ABP_CAP_REALTIME when a listener's player (the REPL, `listen`) opens it, `paced=false` when
 * `abplayer decode` does; `abplayer play` passes only what the user gave. A sink with
 * ABP_CAP_REALTIME keeps time by itself: it is never passed paced=true by the host, and may
 * declare `paced` only to be run as fast as decoded (`decode`). A sink with neither the flag nor
 * the option is refused for listening, with the reason. The host never passes an option the
 * sink did not declare. */
typedef enum abp_option_type {
    ABP_OPTION_STRING = 1, /* any non-empty text */
    ABP_OPTION_BOOL = 2,   /* "true"/"false"/"yes"/"no"/"1"/"0", exactly */
    ABP_OPTION_INT = 3,    /* a decimal int64 ("-5", "44100") */
    ABP_OPTION_PATH = 4    /* a non-empty path, passed as the user typed it: a relative one is
                              relative to the current directory of the abplayer process that
                              opens the plugin (for a daemon, the directory it was started in);
                              the plugin opens it as given, and says the path in its errors. */
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
 * never call them where the real-time rules apply (see abp_audio_source). */
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

    /* Logs one line (no trailing newline). `plugin_id` is the descriptor's id and `message` the
     * text alone: the HOST writes the id in front ("abplayer: ID: message"), so the message does
     * not start with it (a host seeing "ID: " at the start drops it rather than say it twice).
     * Start it with the file or device it is about. Both strings are copied. */
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
     * description; any other key is passed through lower-cased. A tag with several values
     * (two artists, ID3v2.4's NUL-separated list, repeated Vorbis comments) is one call per value,
     * in the file's order, never one value joined with a separator; the host keeps them all, in
     * that order, and shows them joined. */
    void (*tag)(void *ctx, const char *key, const char *value);
    /* A chapter starting at `start_frame` (output frames, after gapless trimming). Chapters may
     * come in any order; the host sorts them. `title` may be empty, never NULL. */
    void (*chapter)(void *ctx, int64_t start_frame, const char *title);
    /* An embedded picture. `picture_type` follows ID3v2 APIC / FLAC (3 = front cover). */
    void (*picture)(void *ctx, const char *mime, uint32_t picture_type,
                    const uint8_t *data, size_t size);
} abp_metadata_callbacks;

/* What open() found out, filled by the plugin. The host zeroes it and sets struct_size first. */
typedef struct abp_stream_info {
    uint32_t struct_size;   /* set by the host before open() */
    abp_format format;      /* the format read() produces, fixed for the instance's life */
    int64_t total_frames;   /* exact length after gapless trimming, or ABP_FRAMES_UNKNOWN */
    uint32_t seekable;      /* 1 when seek() works on this stream, 0 otherwise */
    /* The bits per sample the source stores, for lossless and PCM streams (16, 24, 32); 0 for a
     * lossy codec or when the plugin does not say. Shown to the user (probe). */
    uint32_t bits_per_sample;
    /* The codec's name as listeners know it, NUL-terminated UTF-8 ("MP3", "AAC-LC",
     * "HE-AAC v2", "Opus", "Vorbis", "FLAC", "ALAC", "PCM"...); empty when the plugin does not
     * say. Shown to the user (probe). */
    char codec[24];
} abp_stream_info;

typedef struct abp_decoder abp_decoder; /* opaque, the plugin's instance */

/* probe, open, read and close are required; seek and last_error may be NULL (the host then
 * treats every stream as unseekable / gives no reason beyond the status). A table leaving a
 * required function NULL is refused at load, naming it. */
typedef struct abp_decoder_ops {
    uint32_t struct_size;

    /* How sure the plugin is that it decodes the file, from its name and first bytes. `head` is
     * the file's first `head_len` bytes (up to 4096; fewer for a short file). Must not open the
     * file itself. Any thread; must not block. The scale (values above 100 count as 100):
     *     100     the content is certainly this format (a magic number, two frame headers in a
     *             row): the built-in decoders' answer for their own files
     *     11..99  the content looks like it but is not confirmed (one frame header, a container
     *             that may hold another codec): the built-ins say 40..80
     *     10      the name alone (an extension the decoder lists), content not recognised
     *     1..9    a catch-all decoder (many formats through one library): below every dedicated
     *             decoder (the built-in ffmpeg says 5 for a container it recognises, 1 by name)
     *     0       not this decoder's
     * The host opens the file with the highest score; between equal scores, the decoder listing
     * the file's extension first, then the higher priority. When open() fails, the host tries
     * the next decoder that scored above 0, in the same order, and reports the first failure
     * only when none opens it. */
    int32_t (*probe)(const char *path, const uint8_t *head, size_t head_len);

    /* Opens `path`. On ABP_OK, *out is a new instance and *info is filled. On failure *out is
     * untouched and a one-line reason (no file name) is written, NUL-terminated, to `error`
     * (at most `error_size` bytes). `options` (may be NULL when count is 0) and `metadata` are
     * borrowed for the call only; metadata may be NULL. A file whose audio cannot be played but
     * whose tags or chapters can be read may have them reported before the failure (and
     * info->format set when known, the rate of the chapters' frames): the host shows them with
     * the reason (probe). Blocks (file I/O). Return ABP_ERR_UNSUPPORTED for a file of your format
     * in a codec you do not decode (another decoder is tried, silently), ABP_ERR_FORMAT for one
     * that is damaged (if another decoder plays it, the host tells the user yours refused it).
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

    /* Moves so that the next read() starts exactly at output frame `frame`. The host asks only
     * for 0 <= frame <= total_frames (frame == total_frames: the end, the next read() returns 0).
     * When total_frames is ABP_FRAMES_UNKNOWN the host may ask for any frame >= 0: a frame past
     * the end is ABP_ERR_SEEK, after which read() goes on from a valid place (where it was, or
     * the end), never from garbage. Called only when
     * info->seekable was 1. Blocks; may take long the first time on a file without a seek table
     * (cache one under host->cache_dir). Errors: ABP_ERR_SEEK, ABP_ERR_IO. */
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
 * format; a thread of the sink calls pull() whenever it wants audio. Two kinds of thread may:
 *
 *   - a REAL-TIME thread, driven by a device or server: the JACK process callback, a PulseAudio
 *     write callback, an ALSA writer thread blocked on the device. The real-time rules bind here
 *     and only here: no allocation, no lock the host's threads may hold, no file or socket I/O,
 *     no host API call (log, status, wait), no Swift retain/release. pull() only.
 *   - a PLAIN thread the sink created to pace itself by its own clock (a file, a pipe, a null
 *     output): no device waits on it, so it may write files and pipes, take its own locks, call
 *     status() and wait() (each as said below), and log. pull() itself is real-time safe on
 *     either kind of thread.
 *
 * The instance's lifecycle, as the host drives it (any other order is a host bug):
 *     open -> stopped;  start: stopped -> running;  pause: running -> paused;
 *     resume: paused -> running;  stop: running or paused -> stopped (start may follow again);
 *     drain: running or paused -> stopped;  close: from any state. */
typedef struct abp_audio_source {
    uint32_t struct_size;
    void *ctx;
    /* Copies up to `frames` frames into `buffer` and returns how many it copied. Fewer than asked
     * means the host has no more audio ready (an underrun while playing, or the end after the
     * host called drain()): a device plays silence for the rest, a file writes only what came.
     * Real-time safe: never locks, allocates or blocks. Called from one thread at a time, only
     * between start() (or resume()) and the return of pause(), stop(), drain() or close(). */
    size_t (*pull)(void *ctx, float *buffer, size_t frames);
    /* Tells the host that the output stopped working (ABP_ERR_DEVICE: device gone, server died;
     * ABP_ERR_IO: a file sink's disk is full), was moved elsewhere by its server (ABP_ERR_MOVED),
     * or came back (ABP_OK). `message` is one line, copied. Call it from any thread of the sink
     * that is not real-time (a plain pulling thread, a helper thread), never from inside one of
     * the sink's own functions and never holding a lock that pause(), stop() or close() take:
     * the host may call those before status() returns. Not after close() returned. May be NULL. */
    void (*status)(void *ctx, abp_status status, const char *message);
    /* Sleeps until at least `frames` frames are ready to pull, or `timeout_ms` passed, or the
     * host wants the sink to look again (it pauses, stops, drains or closes it). For a plain
     * pulling thread with no clock of its own after an underrun, instead of polling; a real-time
     * thread never calls it (it blocks). Call it from the thread that pulls. */
    void (*wait)(void *ctx, size_t frames, uint32_t timeout_ms);
} abp_audio_source;

typedef struct abp_sink abp_sink; /* opaque, the plugin's instance */

/* open, start, pause, resume, stop and close are required (a listener pauses, and must find
 * the place again). latency, drain and last_error may be NULL: without latency the host takes 0;
 * without drain the host waits until the sink has pulled everything (and its latency), then
 * calls stop(); without last_error a failure has no reason beyond its status. A table leaving a
 * required function NULL is refused at load, naming it. Every function here is called by the
 * host on one of its (non-real-time) threads, one at a time per instance. */
typedef struct abp_sink_ops {
    uint32_t struct_size;

    /* Opens the output for `requested`. On ABP_OK, *out is a new instance in the stopped state
     * (pull() is not called before start()) and *actual holds the format it really runs at; a
     * sink with ABP_CAP_FIXED_RATE may differ in rate (the host then resamples), and any sink may
     * pick another channel count only if it cannot play the requested one. `source` must stay
     * valid until close(). On failure, *out is untouched and `error` gets a one-line reason.
     * The host opens a sink once per play of an output; only when no output was named does it
     * first open and close each candidate to choose one (see priority). Blocks, but not for
     * long: a wait for a peer (a pipe's reader) belongs on the sink's own thread.
     * Errors: ABP_ERR_DEVICE, ABP_ERR_IO, ABP_ERR_UNSUPPORTED, ABP_ERR_INVALID, ABP_ERR_NOMEM. */
    abp_status (*open)(const abp_host_api *host, const abp_format *requested,
                       const abp_option *options, size_t option_count,
                       const abp_audio_source *source,
                       abp_sink **out, abp_format *actual,
                       char *error, size_t error_size);

    /* Starts pulling and playing, from the stopped state: after open(), and again after stop()
     * (the host stops a sink to jump elsewhere, empties its ring, and starts it again).
     * Non-blocking beyond setup. */
    abp_status (*start)(abp_sink *sink);

    /* Stops consuming audio at once. Returns only once pull() is not running and will not be
     * called again until resume(): the host may empty or refill the ring as soon as it returns.
     * With ABP_CAP_PAUSE it keeps what the device holds, so resume() continues from the same
     * frame. Blocks briefly (at most one period). */
    abp_status (*pause)(abp_sink *sink);
    abp_status (*resume)(abp_sink *sink);

    /* The frames pulled that the listener has not heard yet, at the sink's rate, never negative.
     * The host takes (frames pulled - latency) as the frame being heard: it shows and saves that
     * place, and resumes from it on another output or after a stop. So:
     *   - a device sink: what the device and its server still hold (stop() drops it), measured
     *     with ABP_CAP_LATENCY; not a whole period once part of it has played;
     *   - a sink feeding a reader that buffers (a pipe to snapserver): also what the reader
     *     holds, which it still plays;
     *   - a file sink, paced or not: 0 for every frame written, since a written frame is final
     *     (counting a written period would put it in the file twice on an output switch); only
     *     pulled frames still held unwritten, which stop() drops, count;
     *   - a sink with nothing to hear (a null output): 0.
     * Any non-real-time thread; must not block for long. */
    int64_t (*latency)(abp_sink *sink);

    /* Called by the host after its last frame is in the ring buffer, on a started sink: keeps
     * pulling until pull() returns short, then blocks until everything pulled has been played
     * (written, for a file), and leaves the sink stopped. Errors: ABP_ERR_DEVICE, ABP_ERR_IO. */
    abp_status (*drain)(abp_sink *sink);

    /* Stops, discarding any queued audio, without waiting for it to play. Like pause(), returns
     * only once pull() is not running; it is not called again until start(). Blocks briefly. */
    abp_status (*stop)(abp_sink *sink);

    /* The reason of the last failure; never NULL. Owned by the instance. */
    const char *(*last_error)(abp_sink *sink);

    /* Stops if needed (discarding queued audio) and frees the instance. After it returns pull(),
     * wait() and status() are never called again. Never fails. */
    void (*close)(abp_sink *sink);

    void *reserved[8];
} abp_sink_ops;

/* ---- The descriptor ------------------------------------------------------------------------- */
typedef struct abp_plugin {
    uint32_t struct_size;    /* sizeof(abp_plugin) as the plugin was built */
    uint16_t abi_major;      /* ABP_ABI_MAJOR */
    uint16_t abi_minor;      /* the lowest host minor the plugin needs: ABP_API_LEVEL (see the
                                versioning policy at the top); never more than ABP_ABI_MINOR */
    abp_kind kind;
    const char *id;          /* unique, [a-z0-9_-]+, e.g. "mpg123"; users name plugins by it */
    const char *name;        /* human-readable, e.g. "MP3 (libmpg123)" */
    const char *version;     /* the plugin's own version, e.g. "1.0.0" */
    const char *description; /* one line */
    uint32_t capabilities;   /* ABP_CAP_* */
    /* Decoders: the last tie-break between decoders whose probe() scores a file equally and
     * that both list (or both do not list) its extension.
     * Sinks: with no output named, the host tries every sink of priority > 0 by a trial open
     * (open, then close), highest first, and plays to the first that opens; when none does, it
     * takes the highest sink of priority < 0 that opens (a fallback such as a null output) and
     * warns. A sink of priority 0 is used only when named (e.g. one that needs a file path).
     * Equal priorities go in the order loaded (search path, then file name). In this tree: pulse 30, jack 20, alsa 10, wav 0,
     * null -100. */
    int32_t priority;
    /* Decoders: the extensions they read (lower-case, no dot), the tie-break above.
     * Sinks: the extensions of the files they write, for `abplayer decode -o FILE.EXT` (the
     * file's path goes into argument_option, which such a sink must have). When two sinks list
     * one extension, the one of higher priority writes it (equal priorities: the one loaded first);
     * the other is still used when named (`--output ID:FILE`).
     * NULL-terminated; may be NULL. */
    const char *const *extensions;
    const char *const *mime_types; /* decoders: NULL-terminated; may be NULL. Shown to the user
                                      and offered to desktops (MPRIS SupportedMimeTypes). */
    const abp_option_spec *options; /* may be NULL when option_count is 0 */
    uint32_t option_count;
    const abp_decoder_ops *decoder; /* non-NULL exactly when kind == ABP_KIND_DECODER */
    const abp_sink_ops *sink;       /* non-NULL exactly when kind == ABP_KIND_SINK */
    /* Sinks: the name of the option (one of `options`) that a bare argument fills when the user
     * names the output as `ID:ARG` (e.g. "device" for `alsa:hw:1,0`, "path" for `wav:out.wav`).
     * NULL when the sink takes no such argument. Decoders: NULL. */
    const char *argument_option;
    void *reserved[7];
} abp_plugin;

/* The entry point, exported as ABP_ENTRY_SYMBOL:
 *     ABP_EXPORT const abp_plugin *abplayer_plugin_entry(const abp_host_api *host);
 * Called once on the host's main thread right after dlopen. `host` is valid forever. Returns the
 * plugin's static descriptor, or NULL when the plugin refuses this host (host->abi_major differs,
 * or host->abi_minor is below the plugin's abi_minor); it may log why. Must not block or start
 * threads. */
typedef const abp_plugin *(*abp_entry_fn)(const abp_host_api *host);

#ifdef __cplusplus
}
#endif

#endif /* ABPLAYER_PLUGIN_H */
