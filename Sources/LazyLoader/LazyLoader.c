#include <LazyLoader.h>

#include <dlfcn.h>
#include <stdio.h>

bool abp_lazy_open(const char *soname, const abp_lazy_symbol *symbols, size_t count,
                   char *error, size_t error_size) {
    // RTLD_LOCAL: its symbols stay out of the global scope, so the plugins' own copies of these
    // libraries (libpulse links libdbus) never bind to this one or to our forwarders.
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot load %s: %s", soname, reason ? reason : "unknown error");
        return false;
    }
    for (size_t index = 0; index < count; index++) {
        void *symbol = dlsym(handle, symbols[index].name);
        if (symbol == NULL) {
            snprintf(error, error_size, "%s has no %s (too old?)", soname, symbols[index].name);
            dlclose(handle);
            return false;
        }
        *symbols[index].pointer = symbol;
    }
    return true;
}

bool abp_lazy_once(abp_lazy_state *state, abp_lazy_load_function load) {
    pthread_mutex_lock(&state->lock);
    if (state->outcome == ABP_LAZY_UNTRIED) {
        state->outcome = load(state->error, sizeof state->error) ? ABP_LAZY_LOADED : ABP_LAZY_FAILED;
    }
    bool loaded = state->outcome == ABP_LAZY_LOADED;
    pthread_mutex_unlock(&state->lock);
    return loaded;
}

const char *abp_lazy_error(abp_lazy_state *state, abp_lazy_load_function load) {
    // The error text is written once, under the lock, before the outcome says FAILED.
    return abp_lazy_once(state, load) ? "" : state->error;
}
