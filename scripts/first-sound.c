/* first-sound: how long after a command starts its first sound is heard, by the sound's own
 * clock. For scripts/bench-first-sound.sh; built there with
 *     cc -O2 -o first-sound first-sound.c $(pkg-config --cflags --libs libpulse-simple)
 *
 * usage: first-sound SOURCE RATE CHANNELS THRESHOLD TIMEOUT_MS -- COMMAND [ARG...]
 *
 * Records SOURCE (a null sink's monitor) as s16le at the sink's own RATE and CHANNELS, in 5 ms
 * fragments, until 300 ms in a row were silent (no sample above THRESHOLD). Then it starts
 * COMMAND and counts the frames recorded from that moment to the first sample above THRESHOLD:
 * that count over RATE is the figure, in the sink's sample clock (a null sink renders by the
 * monotonic clock), so neither how late this process is scheduled nor how its reads are split
 * moves it. The moment counted from is the end of the last fragment received before COMMAND
 * starts; the same recording lag (one fragment, about 5 ms) is in every figure alike.
 *
 * Prints "MS" (a decimal) on standard output, or "-1" when no sound came within TIMEOUT_MS (or
 * the silence before never came). A COMMAND still running when the sound is found is sent
 * SIGTERM and waited for. Exit status 0 when a sound was found.
 */
#include <errno.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The index of the first frame of `frames` with a sample above `threshold`, or -1. */
static long first_loud(const int16_t *samples, long frames, int channels, int threshold) {
    for (long frame = 0; frame < frames; frame++) {
        for (int c = 0; c < channels; c++) {
            int value = samples[frame * channels + c];
            if (value > threshold || value < -threshold) return frame;
        }
    }
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 8 || strcmp(argv[6], "--") != 0) {
        fprintf(stderr, "usage: first-sound SOURCE RATE CHANNELS THRESHOLD TIMEOUT_MS -- COMMAND [ARG...]\n");
        return 2;
    }
    const char *source = argv[1];
    int rate = atoi(argv[2]), channels = atoi(argv[3]), threshold = atoi(argv[4]);
    double timeout = atof(argv[5]) / 1000.0;
    char **command = argv + 7;
    if (rate <= 0 || channels <= 0 || channels > 8 || threshold < 0) {
        fprintf(stderr, "first-sound: bad rate, channels or threshold\n");
        return 2;
    }

    pa_sample_spec spec = { .format = PA_SAMPLE_S16LE, .rate = (uint32_t)rate, .channels = (uint8_t)channels };
    /* 5 ms fragments. FIRST_SOUND_FRAGMENT_MS chooses another size (0: the server's default,
     * as parec and parecord ask without --latency-msec); FIRST_SOUND_ARRIVAL=1 times when the
     * sound reached this process instead (what a recording timestamped as it arrives shows).
     * Both are only for showing what a careless recording measures. */
    const char *fragment_setting = getenv("FIRST_SOUND_FRAGMENT_MS");
    int fragment_ms = fragment_setting ? atoi(fragment_setting) : 5;
    int arrival = getenv("FIRST_SOUND_ARRIVAL") && atoi(getenv("FIRST_SOUND_ARRIVAL")) == 1;
    uint32_t fragment = fragment_ms > 0 ? (uint32_t)(rate * fragment_ms / 1000) * (uint32_t)channels * 2 : (uint32_t)-1;
    pa_buffer_attr attributes = { .maxlength = (uint32_t)-1, .tlength = (uint32_t)-1, .prebuf = (uint32_t)-1,
                                  .minreq = (uint32_t)-1, .fragsize = fragment };
    int error = 0;
    pa_simple *stream = pa_simple_new(NULL, "first-sound", PA_STREAM_RECORD, source, "first sound", &spec, NULL,
                                      &attributes, &error);
    if (!stream) {
        fprintf(stderr, "first-sound: cannot record %s: %s\n", source, pa_strerror(error));
        return 1;
    }
    /* Reads of one fragment: the count of frames is exact whatever the size. */
    long chunk = rate / 200;
    int16_t *samples = malloc((size_t)chunk * (size_t)channels * sizeof(int16_t));
    if (!samples) return 1;

    /* Silence first, so that what is found is the command's sound and not the end of another. */
    long silent = 0, needed = rate * 3 / 10;
    double deadline = now_seconds() + timeout;
    while (silent < needed) {
        if (pa_simple_read(stream, samples, (size_t)chunk * (size_t)channels * 2, &error) < 0) {
            fprintf(stderr, "first-sound: read: %s\n", pa_strerror(error));
            return 1;
        }
        silent = first_loud(samples, chunk, channels, threshold) < 0 ? silent + chunk : 0;
        if (now_seconds() > deadline) {
            fprintf(stderr, "first-sound: %s never went silent\n", source);
            printf("-1\n");
            return 1;
        }
    }

    double triggered = now_seconds();
    /* For lining the figure up with a program's own timing log (CLOCK_MONOTONIC seconds). */
    if (getenv("FIRST_SOUND_DEBUG")) fprintf(stderr, "trigger %.6f\n", triggered);
    pid_t child = fork();
    if (child < 0) {
        perror("first-sound: fork");
        return 1;
    }
    if (child == 0) {
        execvp(command[0], command);
        fprintf(stderr, "first-sound: cannot run %s: %s\n", command[0], strerror(errno));
        _exit(127);
    }

    long counted = 0;
    double result = -1;
    deadline = now_seconds() + timeout;
    while (now_seconds() < deadline) {
        if (pa_simple_read(stream, samples, (size_t)chunk * (size_t)channels * 2, &error) < 0) {
            fprintf(stderr, "first-sound: read: %s\n", pa_strerror(error));
            break;
        }
        long loud = first_loud(samples, chunk, channels, threshold);
        if (loud >= 0) {
            result = (double)(counted + loud) * 1000.0 / rate;
            if (arrival) result = (now_seconds() - triggered) * 1000.0 - (double)(chunk - loud) * 1000.0 / rate;
            break;
        }
        counted += chunk;
    }
    if (waitpid(child, NULL, WNOHANG) == 0) {
        kill(child, SIGTERM);
        waitpid(child, NULL, 0);
    }
    pa_simple_free(stream);
    free(samples);
    if (result < 0) {
        fprintf(stderr, "first-sound: no sound within %.0f ms\n", timeout * 1000);
        printf("-1\n");
        return 1;
    }
    printf("%.1f\n", result);
    return 0;
}
