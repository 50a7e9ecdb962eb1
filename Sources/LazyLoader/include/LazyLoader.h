// Loading a library with dlopen the first time it is needed instead of linking it: open it,
// resolve the functions we call into pointers, and say in one line what was missing. Used by the
// host (libdbus, libchafa: Sources/LazyLibraries) and by the plugins that wrap a large library
// (libpulse, libjack, libasound, libfaad, libopusfile), so a process maps only what it plays with.
//
// The functions are defined with their own names and forward to the loaded library, so the Swift
// code calls them as usual after a successful load. A plugin's forwarders stay private to it (the
// plugins export only their entry point: Plugins/exports.map).
#ifndef ABPLAYER_LAZY_LOADER_H
#define ABPLAYER_LAZY_LOADER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct abp_lazy_symbol {
    const char *name;
    void **pointer;
} abp_lazy_symbol;

/// Opens `soname` and resolves every symbol of `symbols` (searching its dependencies too). On
/// failure writes the reason to `error` and returns false; the library stays loaded on success
/// for the life of the process.
bool abp_lazy_open(const char *soname, const abp_lazy_symbol *symbols, size_t count,
                   char *error, size_t error_size);

/// What a lazily loaded library remembers: whether it was tried, and why it failed.
typedef enum abp_lazy_outcome { ABP_LAZY_UNTRIED = 0, ABP_LAZY_LOADED, ABP_LAZY_FAILED } abp_lazy_outcome;
typedef struct abp_lazy_state {
    pthread_mutex_t lock;
    abp_lazy_outcome outcome;
    char error[256];
} abp_lazy_state;
#define ABP_LAZY_STATE_INIT {PTHREAD_MUTEX_INITIALIZER, ABP_LAZY_UNTRIED, ""}

/// Runs `load` the first time it is called for `state` (thread-safe) and returns whether it
/// succeeded, then and on every later call. `load` fills `error` when it fails.
typedef bool (*abp_lazy_load_function)(char *error, size_t error_size);
bool abp_lazy_once(abp_lazy_state *state, abp_lazy_load_function load);
/// "" when loaded; else why not, in one line (loading first if it was never tried).
const char *abp_lazy_error(abp_lazy_state *state, abp_lazy_load_function load);

/// The X-macro helpers: a pointer for each function, a table entry to resolve it, and a
/// definition under the function's own name that calls through the pointer.
#define ABP_LAZY_POINTER(ret, name, params, args) static __typeof__(name) *name##_loaded;
#define ABP_LAZY_POINTER_VOID(name, params, args) static __typeof__(name) *name##_loaded;
#define ABP_LAZY_ENTRY(ret, name, params, args) {#name, (void **)&name##_loaded},
#define ABP_LAZY_ENTRY_VOID(name, params, args) {#name, (void **)&name##_loaded},
#define ABP_LAZY_FORWARD(ret, name, params, args) ret name params { return name##_loaded args; }
#define ABP_LAZY_FORWARD_VOID(name, params, args) void name params { name##_loaded args; }
#define ABP_LAZY_COUNT(array) (sizeof array / sizeof array[0])

#endif
