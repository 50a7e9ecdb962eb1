// libedit's native API (histedit.h). el_set, el_get and history are variadic, which Swift cannot
// call: these static inline wrappers give each use a fixed signature.
#include <histedit.h>
#include <stdio.h>

typedef char *(*abp_prompt_fn)(EditLine *);
typedef unsigned char (*abp_command_fn)(EditLine *, int);

static inline int abp_el_set_prompt(EditLine *el, abp_prompt_fn fn) { return el_set(el, EL_PROMPT, fn); }
static inline int abp_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
static inline int abp_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }
static inline int abp_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }
static inline int abp_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
static inline void *abp_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
/// Adds a named editor function and binds `key` (e.g. "^I") to it.
static inline int abp_el_bind_function(EditLine *el, const char *name, const char *help,
                                       abp_command_fn fn, const char *key) {
    if (el_set(el, EL_ADDFN, name, help, fn) != 0) return -1;
    return el_set(el, EL_BIND, key, name, NULL);
}

static inline History *abp_history_new(int size) {
    History *h = history_init();
    if (h == NULL) return NULL;
    HistEvent ev;
    history(h, &ev, H_SETSIZE, size);
    history(h, &ev, H_SETUNIQUE, 1);
    return h;
}
static inline int abp_history_enter(History *h, const char *line) { HistEvent ev; return history(h, &ev, H_ENTER, line); }
static inline int abp_history_load(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_LOAD, path); }
static inline int abp_history_save(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_SAVE, path); }

/// Replaces libedit's character reader (one wide character into *c; 1, 0 at the end, -1 on error).
typedef int (*abp_getc_fn)(EditLine *, wchar_t *);
static inline int abp_el_set_getc(EditLine *el, abp_getc_fn fn) { return el_set(el, EL_GETCFN, fn); }
/// Redraws the prompt and the line being edited (after something else was written).
static inline int abp_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }

/* The terminal cells a character takes (what libedit itself measures lines with). glibc has
 * wcwidth, but declares it only under _XOPEN_SOURCE, which Swift's Glibc module does not set. */
#include <wchar.h>
extern int wcwidth(wchar_t c);
static inline int abp_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
