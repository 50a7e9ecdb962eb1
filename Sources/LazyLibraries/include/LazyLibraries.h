// Libraries abplayer needs only for some of what it does, loaded with dlopen the first time they
// are needed instead of linked: libdbus-1 (MPRIS), libchafa with libturbojpeg and libpng (cover
// art in the full screens), libsoxr with libgomp (a book at another rate than its output) and
// libebur128 (measuring a book's loudness).
// Linked, every command paid for them (and for glib and libsystemd, which they bring) at
// start-up and in memory, `remote status` and `--help` included.
//
// The functions of those libraries that abplayer calls are defined here with their own names and
// forward to the loaded library, so the Swift code calls them as usual, after a successful load.
#ifndef ABPLAYER_LAZY_LIBRARIES_H
#define ABPLAYER_LAZY_LIBRARIES_H

#include <stdbool.h>

/// Loads libdbus-1 once (thread-safe); true when its functions may be called. On false,
/// abp_dbus_load_error() says why, in one line.
bool abp_dbus_load(void);
const char *abp_dbus_load_error(void);

/// Loads libchafa, libturbojpeg and libpng once (thread-safe); true when the cover functions may
/// be called. On false, abp_cover_libraries_load_error() says why, in one line.
bool abp_cover_libraries_load(void);
const char *abp_cover_libraries_load_error(void);

/// Loads libsoxr once (thread-safe); true when the resampler's functions may be called. On
/// false, abp_soxr_load_error() says why, in one line.
bool abp_soxr_load(void);
const char *abp_soxr_load_error(void);

/// Loads libebur128 (EBU R128 loudness) once (thread-safe); true when its functions may be
/// called. On false, abp_ebur128_load_error() says why, in one line.
bool abp_ebur128_load(void);
const char *abp_ebur128_load_error(void);

#endif
