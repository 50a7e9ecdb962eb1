/*
 * abplayer FIFO output plugin: interleaved signed 16-bit little-endian PCM into a named pipe,
 * which is what Snapcast's snapserver reads for multi-room audio (a `pipe://` source, 48000:16:2
 * by default). An out-of-tree example: built with plain `cc` by the Makefile beside it, it needs
 * nothing of abplayer but <abplayer/plugin.h> and exports only abplayer_plugin_entry.
 *
 * What it does, and why:
 * - Pacing. A pipe has no clock: a writer thread of ours writes a period (20 ms) at a time by
 *   CLOCK_MONOTONIC, two periods ahead, so a reader that reads as fast as it can still gets real
 *   time, and one that reads on a timer (snapserver: 20 ms every 20 ms) never finds it empty.
 * - No reader. open() waits up to CONNECT_MS for one, then fails with ABP_ERR_DEVICE. Only a
 *   blocking open() for writing meets snapserver: without a writer it opens the pipe, reads
 *   end-of-file and closes it every 100 ms, so a non-blocking open (ENXIO without a reader)
 *   would almost never catch it. It blocks on our thread, and open() gives up on it. A failing
 *   open() is what hosts understand: this one says the output is missing, and after a loss opens
 *   it again every half second until a reader is back.
 * - The reader goes (EPIPE): we stop pulling, report ABP_ERR_DEVICE through source->status and
 *   keep the pipe open. A host that does not close us gets ABP_OK once a write succeeds again; what
 *   the old reader left unread is still in the pipe for the new one. SIGPIPE is blocked on our
 *   thread (all signals are: the host's threads take them) and consumed.
 * - Pause writes nothing. snapserver marks a stream whose pipe went quiet idle within a second
 *   (playing silence meanwhile), so a Snapcast group or meta stream can switch to another source;
 *   0.26 counts any bytes read as playing, so written silence would keep the stream "playing"
 *   all through the pause. A period already pulled stays with us: resume goes on from that frame.
 * - An underrun becomes silence, as on a sound card (the reader must not starve), after waiting
 *   for the host as long as our lead allows: in source->wait (in short naps if
 *   the source were to stop short of it).
 * - latency(): the bytes still in the pipe (FIONREAD works on its write end), the period we hold,
 *   and `delay-ms`, the reader's own buffer that we cannot see (snapserver's `buffer`, 1000 ms).
 *
 * The writer thread is no device callback: nothing waits on it with a deadline (the pipe holds
 * 64 KiB, 340 ms of 48000:16:2), so besides calling pull() it locks, writes, logs and reports.
 * One writer per pipe: two would interleave their bytes.
 */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Written against ABI 1.0: only what 1.0 offers is declared, and abi_minor says so. */
#define ABP_API_LEVEL 0
#include <abplayer/plugin.h>

#define MS ((int64_t)1000000) /* in nanoseconds */

enum {
    PERIOD_MS = 20,        /* written at a time, like snapserver's chunks */
    LEAD_PERIODS = 2,      /* written ahead of real time */
    CONNECT_MS = 500,      /* open() waits this long for a reader (snapserver comes every 100) */
    RETRY_MS = 100,        /* after EPIPE, a write is tried again this often */
    BEHIND_MS = 100,       /* later than this (a reader that stalled), pace from now, no burst */
    DRAIN_STALL_MS = 2000, /* drain() gives up on a reader that reads nothing this long */
};

enum fifo_state { FIFO_STOPPED, FIFO_RUNNING, FIFO_PAUSED, FIFO_DRAINING, FIFO_DRAINED, FIFO_EXITING };

struct abp_sink {
    const abp_host_api *host;
    const abp_audio_source *source; /* the host's, valid until close() */
    int has_status, has_wait;
    char path[PATH_MAX];
    int node;          /* O_PATH descriptor of the pipe checked by open(): later opens use it */
    abp_format format; /* what we write */
    size_t frame_bytes, period_frames, lead_frames;
    int64_t delay_frames;

    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* on CLOCK_MONOTONIC */

    /* guarded by lock; state is also read without it (atomically) while waiting for the host */
    enum fifo_state state;
    int connected;     /* the writer's open() returned: fd, or open_errno */
    int fd, open_errno;
    int busy;          /* in pull() or write(): pause() and stop() wait it out */
    int restart_clock; /* pace from now (start, resume, a reader back) */
    int lost;          /* EPIPE, and no write succeeded since */
    int last_period;   /* draining, and what is held is the end */
    size_t held_offset, held_bytes, held_frames; /* what of pcm is not written yet */

    float *samples;     /* one period as pulled */
    unsigned char *pcm; /* one period as written */
    char error[256];
};

/* ---- small helpers ---------------------------------------------------------------------- */

__attribute__((format(printf, 3, 4)))
static void fifo_log(const abp_host_api *host, abp_log_level level, const char *fmt, ...)
{
    char message[PATH_MAX + 128];
    va_list ap;

    if (host == NULL || !ABP_HAS_FIELD(host, abp_host_api, log) || host->log == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    host->log(host->host_ctx, level, "fifo", message);
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

/* Lock held: sets the state and wakes whoever waits on it. */
static void set_state(struct abp_sink *s, enum fifo_state state)
{
    __atomic_store_n(&s->state, state, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&s->cond);
}

static int64_t now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* `frames` (may be negative) at `rate` in nanoseconds, without overflow over a 40-hour book */
static int64_t frames_ns(int64_t frames, uint32_t rate)
{
    return frames / rate * 1000000000 + frames % rate * 1000000000 / rate;
}

/* Lock held: sleeps until `when` (monotonic ns) or a broadcast. ETIMEDOUT when it was `when`. */
static int wait_until(struct abp_sink *s, int64_t when)
{
    struct timespec t = { .tv_sec = when / 1000000000, .tv_nsec = when % 1000000000 };

    return pthread_cond_timedwait(&s->cond, &s->lock, &t);
}

/* Lock held: sleeps until `when` unless the state changes first; 1 when it was `when`. */
static int sleep_until(struct abp_sink *s, int64_t when)
{
    enum fifo_state was = s->state;

    while (s->state == was && !s->restart_clock)
        if (wait_until(s, when) == ETIMEDOUT)
            return s->state == was;
    return 0;
}

/* Opens the pipe that open() checked, even if it was renamed or removed since (through /proc;
 * by its path where /proc is not mounted). */
static int open_node(const struct abp_sink *s, int flags)
{
    char via[64];
    int fd;

    snprintf(via, sizeof(via), "/proc/self/fd/%d", s->node);
    do
        fd = open(via, flags | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    return fd < 0 && errno == ENOENT ? open(s->path, flags | O_CLOEXEC) : fd;
}

/* Consumes the SIGPIPE that write() raised on a pipe without readers: blocked on this thread,
 * it waits here instead of killing the process. */
static void consume_sigpipe(void)
{
    sigset_t pipe_only;
    struct timespec zero = { 0, 0 };

    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    while (sigtimedwait(&pipe_only, NULL, &zero) < 0 && errno == EINTR) {
    }
}

/* Float to signed 16-bit little-endian, clipped and rounded: `frames` pulled, then silence up to
 * `total`. Becomes what is held. */
static void convert(struct abp_sink *s, size_t frames, size_t total)
{
    size_t i, n = frames * s->format.channels;
    unsigned char *out = s->pcm;

    for (i = 0; i < n; i++, out += 2) {
        float x = s->samples[i];
        long v = x >= 1.0f ? 32767 : x <= -1.0f ? -32767 : (long)(x * 32767.0f + (x < 0 ? -0.5f : 0.5f));
        uint16_t bits = (uint16_t)(int16_t)v;

        out[0] = (unsigned char)(bits & 0xff);
        out[1] = (unsigned char)(bits >> 8);
    }
    memset(out, 0, (total - frames) * s->frame_bytes);
    s->held_offset = 0;
    s->held_frames = total;
    s->held_bytes = total * s->frame_bytes;
}

/* Lock held: drops what is held but the rest of a frame partly written (a write to a pipe may
 * stop anywhere): the reader must never lose its place in the frames. */
static void drop_held(struct abp_sink *s)
{
    size_t partial = s->held_offset % s->frame_bytes;

    s->held_bytes = partial ? s->frame_bytes - partial : 0;
    s->held_frames = 0;
    s->last_period = 0;
}

/* ---- the writer thread -------------------------------------------------------------------- */

/* Without the lock, after a short pull(): pulls the rest while there is time, until `until`. */
static size_t pull_late(struct abp_sink *s, size_t got, int64_t until)
{
    const abp_audio_source *src = s->source;
    int64_t left;

    while (got < s->period_frames && __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == FIFO_RUNNING &&
           (left = until - now_ns()) > 0) {
        if (s->has_wait) { /* until the host has the frames, pauses or stops */
            src->wait(src->ctx, s->period_frames - got, (uint32_t)(left / MS + 1));
        } else {
            struct timespec nap = { 0, 2 * MS }; /* an older host: nap and look again */
            nanosleep(&nap, NULL);
        }
        got += src->pull(src->ctx, s->samples + got * s->format.channels, s->period_frames - got);
    }
    return got;
}

/* Lock held (released around pull()): makes the next period what is held. The reader needs it
 * at `needed`. */
static void fill_period(struct abp_sink *s, int64_t needed)
{
    int draining = s->state == FIFO_DRAINING;
    size_t got;

    s->busy = 1;
    pthread_mutex_unlock(&s->lock);
    got = s->source->pull(s->source->ctx, s->samples, s->period_frames);
    if (got < s->period_frames && !draining)
        got = pull_late(s, got, needed - PERIOD_MS * MS / 4);
    pthread_mutex_lock(&s->lock);
    s->busy = 0;
    pthread_cond_broadcast(&s->cond);
    if (s->state == FIFO_STOPPED || s->state == FIFO_EXITING)
        return; /* stop() discards it */
    s->last_period = draining && got < s->period_frames; /* the end is written as it is */
    convert(s, got, s->last_period ? got : s->period_frames);
}

/* Lock held (released around write()): writes what is held, once. 1 when all of it is out;
 * 0 when the pipe is full or nothing reads it. */
static int write_held(struct abp_sink *s)
{
    char message[PATH_MAX + 64];
    ssize_t n;
    int err;

    s->busy = 1;
    pthread_mutex_unlock(&s->lock);
    n = write(s->fd, s->pcm + s->held_offset, s->held_bytes);
    err = errno;
    if (n < 0 && err == EPIPE)
        consume_sigpipe();
    pthread_mutex_lock(&s->lock);
    s->busy = 0;
    pthread_cond_broadcast(&s->cond);
    if (n >= 0) {
        s->held_offset += (size_t)n;
        s->held_bytes -= (size_t)n;
        if (s->lost) {
            s->lost = 0;
            s->restart_clock = 1; /* what the reader missed is not made up in a burst */
            pthread_mutex_unlock(&s->lock);
            fifo_log(s->host, ABP_LOG_INFO, "%s is read again", s->path);
            if (s->has_status)
                s->source->status(s->source->ctx, ABP_OK, "the pipe is read again");
            pthread_mutex_lock(&s->lock);
        }
        return s->held_bytes == 0;
    }
    if (err == EAGAIN || err == EINTR || s->lost)
        return 0;
    s->lost = 1;
    pthread_cond_broadcast(&s->cond); /* drain() gives up */
    if (err == EPIPE)
        snprintf(message, sizeof(message), "nothing reads %s any more", s->path);
    else
        snprintf(message, sizeof(message), "cannot write to %s: %s", s->path, strerror(err));
    pthread_mutex_unlock(&s->lock);
    fifo_log(s->host, ABP_LOG_WARNING, "%s", message);
    if (s->has_status)
        s->source->status(s->source->ctx, ABP_ERR_DEVICE, message);
    pthread_mutex_lock(&s->lock);
    return 0;
}

static void *fifo_thread(void *arg)
{
    struct abp_sink *s = arg;
    int64_t epoch = 0, written = 0; /* the frames written since epoch pace the writes */
    int fd = open_node(s, O_WRONLY); /* blocks until a reader opens the pipe */
    int open_errno = errno;

    pthread_mutex_lock(&s->lock);
    s->open_errno = fd < 0 ? open_errno : 0; /* errno means nothing after a success */
    if (fd >= 0 && s->state == FIFO_EXITING) {
        close(fd); /* open() gave up, and woke us with a reader of its own */
        fd = -1;
    }
    s->fd = fd;
    s->connected = 1;
    pthread_cond_broadcast(&s->cond);
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); /* a full pipe must not hold pause */

    while (fd >= 0 && s->state != FIFO_EXITING) {
        int64_t due;

        if (s->state != FIFO_RUNNING && s->state != FIFO_DRAINING) {
            pthread_cond_wait(&s->cond, &s->lock);
            continue;
        }
        if (s->restart_clock) {
            s->restart_clock = 0;
            epoch = now_ns();
            written = 0;
        }
        if (s->held_bytes == 0) {
            if (s->last_period) /* the end is in the pipe */
                set_state(s, FIFO_DRAINED);
            else
                fill_period(s, epoch + frames_ns(written, s->format.rate));
            continue; /* the state may have changed meanwhile */
        }
        due = epoch + frames_ns(written - (int64_t)s->lead_frames, s->format.rate);
        if (now_ns() - due > BEHIND_MS * MS) {
            s->restart_clock = 1;
            continue;
        }
        if (!sleep_until(s, due))
            continue;
        while (s->held_bytes > 0 && (s->state == FIFO_RUNNING || s->state == FIFO_DRAINING) &&
               !write_held(s)) {
            struct pollfd room = { .fd = fd, .events = POLLOUT };

            if (s->lost) {
                sleep_until(s, now_ns() + RETRY_MS * MS);
                continue;
            }
            pthread_mutex_unlock(&s->lock); /* the pipe is full: a reader slower than real time */
            poll(&room, 1, PERIOD_MS);
            pthread_mutex_lock(&s->lock);
        }
        if (s->held_bytes == 0)
            written += (int64_t)s->held_frames; /* 0 after stop() */
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- ops ---------------------------------------------------------------------------------- */

/* Frees a sink whose thread has ended. */
static void free_sink(struct abp_sink *s)
{
    if (s->fd >= 0)
        close(s->fd);
    close(s->node);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s->samples);
    free(s->pcm);
    free(s);
}

static int parse_int(const char *text, long min, long max, long *out)
{
    char *end;

    errno = 0;
    *out = strtol(text, &end, 10);
    return errno == 0 && end != text && *end == 0 && *out >= min && *out <= max;
}

static int parse_bool(const char *text, long *out)
{
    *out = !strcmp(text, "true") || !strcmp(text, "yes") || !strcmp(text, "1");
    return *out || !strcmp(text, "false") || !strcmp(text, "no") || !strcmp(text, "0");
}

/* The pipe at `path` as an O_PATH descriptor (which opens nothing), made first if `create`. */
static abp_status open_pipe_node(const char *path, long create, int *node, char *error,
                                 size_t error_size)
{
    struct stat st;
    int fd = open(path, O_PATH | O_CLOEXEC), err;

    /* 0644 less the umask: a reader of another user (snapserver's) may read it */
    if (fd < 0 && errno == ENOENT && create && (mkfifo(path, 0644) == 0 || errno == EEXIST))
        fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        err = errno;
        return set_error(error, error_size, err == ENOENT ? ABP_ERR_DEVICE : ABP_ERR_IO,
                         "%s: %s%s", path, strerror(err),
                         err == ENOENT ? " (make it with mkfifo, or pass create=true)" : "");
    }
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) {
        close(fd);
        return set_error(error, error_size, ABP_ERR_INVALID,
                         "%s is not a named pipe (the wav output writes files)", path);
    }
    *node = fd;
    return ABP_OK;
}

/* Checks the options and the pipe, opens it for writing on the writer thread and waits up to
 * CONNECT_MS for a reader, so it blocks about that long at most. Writes the options' format
 * (`rate`, `channels`) whatever was requested: the host resamples and maps channels to it.
 * errors: ABP_ERR_DEVICE (no reader came; no pipe there), ABP_ERR_INVALID (a bad option value;
 *         not a pipe), ABP_ERR_IO (cannot make or open it), ABP_ERR_NOMEM, ABP_ERR_INTERNAL */
static abp_status fifo_open(const abp_host_api *host, const abp_format *requested,
                            const abp_option *options, size_t option_count,
                            const abp_audio_source *source, abp_sink **out, abp_format *actual,
                            char *error, size_t error_size)
{
    const char *path = "/tmp/snapfifo";
    long rate = 48000, channels = 2, delay_ms = 0, create = 0;
    int node = -1, ok = 1, rc, reader;
    struct abp_sink *s;
    pthread_condattr_t attr;
    sigset_t all, saved;
    int64_t deadline;
    abp_status status;
    size_t i;

    if (requested == NULL || source == NULL || source->pull == NULL || out == NULL ||
        actual == NULL || (option_count > 0 && options == NULL))
        return set_error(error, error_size, ABP_ERR_INVALID, "bad arguments to open");
    for (i = 0; i < option_count && ok; i++) {
        const char *name = options[i].name, *value = options[i].value;

        if (!strcmp(name, "path")) {
            path = value;
            ok = *value != 0 && strlen(value) < PATH_MAX;
        } else if (!strcmp(name, "rate"))
            ok = parse_int(value, 8000, 384000, &rate);
        else if (!strcmp(name, "channels"))
            ok = parse_int(value, 1, 8, &channels);
        else if (!strcmp(name, "delay-ms"))
            ok = parse_int(value, 0, 60000, &delay_ms);
        else if (!strcmp(name, "create"))
            ok = parse_bool(value, &create);
        else
            return set_error(error, error_size, ABP_ERR_INVALID, "no option '%s'", name);
        if (!ok)
            return set_error(error, error_size, ABP_ERR_INVALID, "bad %s: '%s'", name, value);
    }
    status = open_pipe_node(path, create, &node, error, error_size);
    if (status != ABP_OK)
        return status;

    s = calloc(1, sizeof(*s));
    if (s == NULL) {
        close(node);
        return set_error(error, error_size, ABP_ERR_NOMEM, "out of memory");
    }
    s->host = host;
    s->source = source;
    s->has_status = ABP_HAS_FIELD(source, abp_audio_source, status) && source->status != NULL;
    s->has_wait = ABP_HAS_FIELD(source, abp_audio_source, wait) && source->wait != NULL;
    strcpy(s->path, path);
    s->node = node;
    s->fd = -1;
    s->format.rate = (uint32_t)rate;
    s->format.channels = (uint32_t)channels;
    s->frame_bytes = 2 * (size_t)channels;
    s->period_frames = (size_t)rate * PERIOD_MS / 1000;
    s->lead_frames = s->period_frames * LEAD_PERIODS;
    s->delay_frames = (int64_t)rate * delay_ms / 1000;
    s->samples = malloc(s->period_frames * (size_t)channels * sizeof(float));
    s->pcm = malloc(s->period_frames * s->frame_bytes);
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &attr);
    pthread_condattr_destroy(&attr);

    /* all signals blocked on our thread: the host's threads take them, and SIGPIPE waits to be
     * consumed instead of ending the process */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    rc = s->samples && s->pcm ? pthread_create(&s->thread, NULL, fifo_thread, s) : ENOMEM;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0) {
        free_sink(s);
        return set_error(error, error_size, rc == ENOMEM ? ABP_ERR_NOMEM : ABP_ERR_INTERNAL,
                         "cannot start the writer: %s", strerror(rc));
    }

    deadline = now_ns() + CONNECT_MS * MS;
    pthread_mutex_lock(&s->lock);
    while (!s->connected && wait_until(s, deadline) != ETIMEDOUT) {
    }
    ok = s->connected && s->fd >= 0;
    if (!s->connected) /* nobody came: the writer gives up once its open() returns */
        set_state(s, FIFO_EXITING);
    pthread_mutex_unlock(&s->lock);
    if (!ok) {
        /* a reader of our own, kept until the writer ended, wakes its open() */
        reader = open_node(s, O_RDONLY | O_NONBLOCK);
        pthread_join(s->thread, NULL);
        if (reader >= 0)
            close(reader);
        status = s->open_errno != 0
            ? set_error(error, error_size, ABP_ERR_IO, "cannot open %s for writing: %s", path,
                        strerror(s->open_errno))
            : set_error(error, error_size, ABP_ERR_DEVICE,
                        "nothing reads %s (start snapserver, or whatever reads it, first)", path);
        free_sink(s);
        return status;
    }
    fifo_log(host, ABP_LOG_INFO, "writing %ld Hz, %ld channels, s16le to %s", rate, channels, path);
    *actual = s->format;
    *out = s;
    return ABP_OK;
}

/* Starts writing (also after drain() or stop()), paced from now. Does not block. */
static abp_status fifo_start(abp_sink *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->state == FIFO_STOPPED || s->state == FIFO_DRAINED) {
        s->restart_clock = 1;
        set_state(s, FIFO_RUNNING);
    }
    pthread_mutex_unlock(&s->lock);
    return ABP_OK;
}

/* Stops pulling and writing at once, keeping a period already pulled for resume(). When it
 * returns, pull() is not running. Blocks for one pull() or write() at most. Never fails. */
static abp_status fifo_pause(abp_sink *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->state == FIFO_RUNNING || s->state == FIFO_DRAINING)
        set_state(s, FIFO_PAUSED);
    while (s->busy)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
    return ABP_OK;
}

/* Writes again from the frame where pause() stopped, paced from now. Never fails. */
static abp_status fifo_resume(abp_sink *s)
{
    pthread_mutex_lock(&s->lock);
    if (s->state == FIFO_PAUSED) {
        s->restart_clock = 1;
        set_state(s, FIFO_RUNNING);
    }
    pthread_mutex_unlock(&s->lock);
    return ABP_OK;
}

/* Frames pulled but not heard: unread in the pipe, held by us, and `delay-ms` while playing.
 * Any thread; blocks for the lock only. Never negative. */
static int64_t fifo_latency(abp_sink *s)
{
    int queued = 0;
    int64_t frames;

    pthread_mutex_lock(&s->lock);
    if (ioctl(s->fd, FIONREAD, &queued) != 0)
        queued = 0;
    frames = (int64_t)(((size_t)queued + s->held_bytes) / s->frame_bytes);
    if (s->state == FIFO_RUNNING || s->state == FIFO_PAUSED || s->state == FIFO_DRAINING)
        frames += s->delay_frames;
    pthread_mutex_unlock(&s->lock);
    return frames;
}

/* Writes until pull() comes up short, blocks until the reader has read the pipe empty and
 * `delay-ms` has passed, and stops.
 * errors: ABP_ERR_DEVICE (the reader went, or read nothing for DRAIN_STALL_MS: the end was not
 *         heard) */
static abp_status fifo_drain(abp_sink *s)
{
    abp_status status = ABP_OK;
    int64_t progress = now_ns();
    int queued, last = -1;
    struct timespec delay;

    pthread_mutex_lock(&s->lock);
    if (s->state == FIFO_RUNNING || s->state == FIFO_PAUSED) {
        s->restart_clock = s->state == FIFO_PAUSED;
        set_state(s, FIFO_DRAINING);
    }
    while (s->state == FIFO_DRAINING && !s->lost)
        pthread_cond_wait(&s->cond, &s->lock);
    /* all of it is in the pipe, which the reader empties in real time */
    while (s->state == FIFO_DRAINED && !s->lost && ioctl(s->fd, FIONREAD, &queued) == 0 &&
           queued > 0) {
        if (queued != last) {
            last = queued;
            progress = now_ns();
        } else if (now_ns() - progress > DRAIN_STALL_MS * MS) {
            status = set_error(s->error, sizeof(s->error), ABP_ERR_DEVICE,
                               "nothing read %s for %d s: the end was not heard", s->path,
                               DRAIN_STALL_MS / 1000);
            break;
        }
        wait_until(s, now_ns() + 5 * MS);
    }
    if (s->lost)
        status = set_error(s->error, sizeof(s->error), ABP_ERR_DEVICE,
                           "nothing reads %s any more: the end was not heard", s->path);
    if (s->state == FIFO_DRAINING || s->state == FIFO_DRAINED) {
        set_state(s, FIFO_STOPPED);
        while (s->busy)
            pthread_cond_wait(&s->cond, &s->lock);
        drop_held(s);
    }
    pthread_mutex_unlock(&s->lock);
    delay.tv_sec = s->delay_frames / s->format.rate;
    delay.tv_nsec = (long)(frames_ns(s->delay_frames, s->format.rate) % 1000000000);
    while (status == ABP_OK && nanosleep(&delay, &delay) != 0 && errno == EINTR) {
    }
    return status;
}

/* Stops now, dropping what we hold (what is in the pipe is the reader's). When it returns,
 * pull() is not running and is not called until start(). Never fails. */
static abp_status fifo_stop(abp_sink *s)
{
    pthread_mutex_lock(&s->lock);
    set_state(s, FIFO_STOPPED);
    while (s->busy)
        pthread_cond_wait(&s->cond, &s->lock);
    drop_held(s);
    pthread_mutex_unlock(&s->lock);
    return ABP_OK;
}

static const char *fifo_last_error(abp_sink *s)
{
    return s->error;
}

/* Ends the writer and closes the pipe (its reader sees the end of the stream). pull() is never
 * called after it returns. Never fails. */
static void fifo_close(abp_sink *s)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    set_state(s, FIFO_EXITING);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    free_sink(s);
}

/* ---- descriptor --------------------------------------------------------------------------- */

static const abp_option_spec fifo_options[] = {
    { "path", ABP_OPTION_PATH, "/tmp/snapfifo", "the named pipe to write to (snapserver's pipe source)" },
    { "rate", ABP_OPTION_INT, "48000", "frames per second written; the host resamples to it" },
    { "channels", ABP_OPTION_INT, "2", "channels written, interleaved (1..8)" },
    { "create", ABP_OPTION_BOOL, "false", "make the pipe (mode 0644) when it does not exist" },
    { "delay-ms", ABP_OPTION_INT, "0", "the reader's own delay, added to the latency (snapserver: its buffer, 1000)" },
};

static const abp_sink_ops fifo_ops = {
    .struct_size = sizeof(abp_sink_ops),
    .open = fifo_open,
    .start = fifo_start,
    .pause = fifo_pause,
    .resume = fifo_resume,
    .latency = fifo_latency,
    .drain = fifo_drain,
    .stop = fifo_stop,
    .last_error = fifo_last_error,
    .close = fifo_close,
};

static const abp_plugin fifo_plugin = {
    .struct_size = sizeof(abp_plugin),
    .abi_major = ABP_ABI_MAJOR,
    .abi_minor = ABP_API_LEVEL, /* the lowest host minor it needs (1.0) */
    .kind = ABP_KIND_SINK,
    .id = "fifo",
    .name = "Named pipe (s16le PCM, for snapserver)",
    .version = "1.0.0",
    .description = "Writes 16-bit PCM in real time to a named pipe, such as Snapcast's snapfifo",
    .capabilities = ABP_CAP_PAUSE | ABP_CAP_LATENCY | ABP_CAP_FIXED_RATE | ABP_CAP_REALTIME,
    .priority = 0, /* used only when named: it needs a reader, and never plays by itself */
    .options = fifo_options,
    .option_count = sizeof(fifo_options) / sizeof(*fifo_options),
    .sink = &fifo_ops,
    .argument_option = "path", /* `--output fifo:/tmp/snapfifo` */
};

ABP_EXPORT const abp_plugin *abplayer_plugin_entry(const abp_host_api *host)
{
    /* under another major the rest of *host may be laid out differently: do not log through it */
    if (host == NULL || host->abi_major != ABP_ABI_MAJOR)
        return NULL;
    return &fifo_plugin;
}
