import Foundation
import TestSupport
import Testing

/// Sink plugins written in C against the published header, compiled with `cc` at test time from
/// one template: each define changes one thing (priority, whether open succeeds, which optional
/// functions are left NULL), so a test states exactly the plugin it needs.
enum TestSinkPlugin {
    static let template = #"""
    #include <pthread.h>
    #include <stdatomic.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <time.h>
    #include "abplayer/plugin.h"
    #ifndef ID
    #define ID "testsink"
    #endif
    #ifndef PRIORITY
    #define PRIORITY 5
    #endif
    #ifndef OPENS
    #define OPENS 1
    #endif
    #ifndef CAPS
    #define CAPS (ABP_CAP_PAUSE | ABP_CAP_REALTIME)
    #endif

    /* Pulls in real time on its own thread; counts what it pulled and writes the count to the
     * file named by the `count-file` option when closed. */
    struct abp_sink {
        const abp_audio_source *source;
        abp_format format;
        pthread_t thread;
        atomic_int running, pulling;
        atomic_llong pulled;
        char count_file[512];
    };

    static void *pull_thread(void *arg) {
        struct abp_sink *s = arg;
        float buffer[1024 * 8];
        while (atomic_load(&s->running)) {
            if (atomic_load(&s->pulling)) atomic_fetch_add(&s->pulled, (long long)s->source->pull(s->source->ctx, buffer, 1024));
            struct timespec nap = { 0, (long)(1024.0 / s->format.rate * 1e9) };
            nanosleep(&nap, NULL);
        }
        return NULL;
    }

    static abp_status open_(const abp_host_api *host, const abp_format *requested, const abp_option *options,
                            size_t count, const abp_audio_source *source, abp_sink **out, abp_format *actual,
                            char *error, size_t error_size) {
        (void)host;
        char seen[400] = "";
        struct abp_sink *s = calloc(1, sizeof *s);
        for (size_t i = 0; i < count; i++) {
            size_t used = strlen(seen);
            snprintf(seen + used, sizeof seen - used, "%s%s=%s", used ? " " : "", options[i].name, options[i].value);
            if (strcmp(options[i].name, "count-file") == 0) snprintf(s->count_file, sizeof s->count_file, "%s", options[i].value);
        }
        if (!OPENS) {
            free(s);
            snprintf(error, error_size, "refused with options [%s]", seen);
            return ABP_ERR_DEVICE;
        }
        s->source = source;
        s->format = *requested;
        *actual = *requested;
        *out = s;
        return ABP_OK;
    }
    static abp_status start(abp_sink *s) {
        atomic_store(&s->running, 1);
        atomic_store(&s->pulling, 1);
        return pthread_create(&s->thread, NULL, pull_thread, s) == 0 ? ABP_OK : ABP_ERR_INTERNAL;
    }
    static abp_status pause_(abp_sink *s) { atomic_store(&s->pulling, 0); return ABP_OK; }
    static abp_status resume(abp_sink *s) { atomic_store(&s->pulling, 1); return ABP_OK; }
    static int64_t latency(abp_sink *s) { (void)s; return 0; }
    static abp_status drain(abp_sink *s) { (void)s; return ABP_OK; }
    static abp_status stop(abp_sink *s) {
        if (atomic_exchange(&s->running, 0)) pthread_join(s->thread, NULL);
        return ABP_OK;
    }
    static const char *last_error(abp_sink *s) { (void)s; return ""; }
    static void close_(abp_sink *s) {
        stop(s);
        if (s->count_file[0]) {
            FILE *f = fopen(s->count_file, "w");
            if (f) { fprintf(f, "%lld\n", (long long)atomic_load(&s->pulled)); fclose(f); }
        }
        free(s);
    }
    #ifdef NO_LATENCY
    #define LATENCY NULL
    #else
    #define LATENCY latency
    #endif
    #ifdef NO_DRAIN
    #define DRAIN NULL
    #else
    #define DRAIN drain
    #endif
    #ifdef NO_LAST_ERROR
    #define LAST_ERROR NULL
    #else
    #define LAST_ERROR last_error
    #endif
    #ifdef NO_PAUSE
    #define PAUSE NULL
    #else
    #define PAUSE pause_
    #endif
    static const abp_sink_ops ops = { sizeof(abp_sink_ops), open_, start, PAUSE, resume, LATENCY, DRAIN, stop,
                                      LAST_ERROR, close_, {0} };
    static const abp_option_spec options[] = {
        { "device", ABP_OPTION_STRING, "default", "where to play" },
        { "rate", ABP_OPTION_INT, NULL, "a number" },
        { "count-file", ABP_OPTION_PATH, NULL, "where the pulled frame count goes at close" },
    };
    #ifdef EXTENSION
    static const char *const extensions[] = { EXTENSION, NULL };
    #define EXTENSIONS extensions
    #else
    #define EXTENSIONS NULL
    #endif
    static const abp_plugin plugin = {
        sizeof(abp_plugin), ABP_ABI_MAJOR, 0, ABP_KIND_SINK, ID, "Test sink", "0.1", "a test sink", CAPS, PRIORITY,
        EXTENSIONS, NULL, options, 3, NULL, &ops,
    #ifdef ARGUMENT
        ARGUMENT,
    #else
        "device",
    #endif
        {0} };
    __attribute__((visibility("default")))
    const abp_plugin *abplayer_plugin_entry(const abp_host_api *host) { (void)host; return &plugin; }
    """#

    /// Compiles the template with `defines` into `directory/name` (mode 0755: the host refuses
    /// plugins others can write).
    static func build(_ name: String, _ defines: [String], in directory: URL) throws -> URL {
        let source = directory.appendingPathComponent("test-sink.c")
        if !FileManager.default.fileExists(atPath: source.path) {
            try template.write(to: source, atomically: true, encoding: .utf8)
        }
        let output = directory.appendingPathComponent(name)
        let result = try Command.run("cc", ["-shared", "-fPIC", "-fvisibility=hidden", "-pthread", "-I", BuildProducts.sdkInclude.path]
            + defines.map { "-D" + $0 } + ["-o", output.path, source.path])
        #expect(result.status == 0, "cc failed: \(result.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: output.path)
        return output
    }
}
