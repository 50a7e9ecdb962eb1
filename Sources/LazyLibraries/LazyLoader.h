// The shared part of the lazy loaders: open a library, resolve a list of symbols into pointers,
// and say in one line what was missing.
#ifndef ABPLAYER_LAZY_LOADER_H
#define ABPLAYER_LAZY_LOADER_H

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

/// The X-macro helpers: a pointer for each function, a table entry to resolve it, and a
/// definition under the function's own name that calls through the pointer.
#define ABP_LAZY_POINTER(ret, name, params, args) static __typeof__(name) *name##_loaded;
#define ABP_LAZY_POINTER_VOID(name, params, args) static __typeof__(name) *name##_loaded;
#define ABP_LAZY_ENTRY(ret, name, params, args) {#name, (void **)&name##_loaded},
#define ABP_LAZY_ENTRY_VOID(name, params, args) {#name, (void **)&name##_loaded},
#define ABP_LAZY_FORWARD(ret, name, params, args) ret name params { return name##_loaded args; }
#define ABP_LAZY_FORWARD_VOID(name, params, args) void name params { name##_loaded args; }

#endif
