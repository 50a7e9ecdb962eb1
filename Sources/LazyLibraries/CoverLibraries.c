// libchafa (with glib), libturbojpeg and libpng, loaded when the first cover is drawn (see
// LazyLibraries.h).
#include "LazyLibraries.h"
#include <LazyLoader.h>

#include <chafa.h>
#include <png.h>
#include <stdio.h>
#include <turbojpeg.h>

// Every function of these libraries abplayer calls (F: with a result, V: void), checked by the
// compiler against each library's own declaration.
#define ABP_CHAFA_FUNCTIONS(F, V) \
    V(chafa_calc_canvas_geometry, \
      (gint src_width, gint src_height, gint *dest_width_inout, gint *dest_height_inout, gfloat font_ratio, \
       gboolean zoom, gboolean stretch), \
      (src_width, src_height, dest_width_inout, dest_height_inout, font_ratio, zoom, stretch)) \
    F(ChafaSymbolMap *, chafa_symbol_map_new, (void), ()) \
    V(chafa_symbol_map_add_by_tags, (ChafaSymbolMap *symbol_map, ChafaSymbolTags tags), (symbol_map, tags)) \
    V(chafa_symbol_map_unref, (ChafaSymbolMap *symbol_map), (symbol_map)) \
    F(ChafaCanvasConfig *, chafa_canvas_config_new, (void), ()) \
    V(chafa_canvas_config_set_geometry, (ChafaCanvasConfig *config, gint width, gint height), (config, width, height)) \
    V(chafa_canvas_config_set_symbol_map, (ChafaCanvasConfig *config, const ChafaSymbolMap *symbol_map), \
      (config, symbol_map)) \
    V(chafa_canvas_config_set_canvas_mode, (ChafaCanvasConfig *config, ChafaCanvasMode mode), (config, mode)) \
    V(chafa_canvas_config_unref, (ChafaCanvasConfig *config), (config)) \
    F(ChafaCanvas *, chafa_canvas_new, (const ChafaCanvasConfig *config), (config)) \
    V(chafa_canvas_unref, (ChafaCanvas *canvas), (canvas)) \
    V(chafa_canvas_draw_all_pixels, \
      (ChafaCanvas *canvas, ChafaPixelType src_pixel_type, const guint8 *src_pixels, gint src_width, \
       gint src_height, gint src_rowstride), \
      (canvas, src_pixel_type, src_pixels, src_width, src_height, src_rowstride)) \
    F(gunichar, chafa_canvas_get_char_at, (ChafaCanvas *canvas, gint x, gint y), (canvas, x, y)) \
    F(GString *, chafa_canvas_print, (ChafaCanvas *canvas, ChafaTermInfo *term_info), (canvas, term_info)) \
    /* glib's, found through libchafa's dependencies */ \
    F(gchar *, g_string_free, (GString *string, gboolean free_segment), (string, free_segment))

#define ABP_TURBOJPEG_FUNCTIONS(F, V) \
    F(tjhandle, tjInitDecompress, (void), ()) \
    F(int, tjDecompressHeader3, \
      (tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, int *width, int *height, \
       int *jpegSubsamp, int *jpegColorspace), \
      (handle, jpegBuf, jpegSize, width, height, jpegSubsamp, jpegColorspace)) \
    F(int, tjDecompress2, \
      (tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, unsigned char *dstBuf, int width, \
       int pitch, int height, int pixelFormat, int flags), \
      (handle, jpegBuf, jpegSize, dstBuf, width, pitch, height, pixelFormat, flags)) \
    F(int, tjDestroy, (tjhandle handle), (handle))

#define ABP_PNG_FUNCTIONS(F, V) \
    F(int, png_image_begin_read_from_memory, (png_imagep image, png_const_voidp memory, size_t size), \
      (image, memory, size)) \
    F(int, png_image_finish_read, \
      (png_imagep image, png_const_colorp background, void *buffer, png_int_32 row_stride, void *colormap), \
      (image, background, buffer, row_stride, colormap)) \
    V(png_image_free, (png_imagep image), (image))

ABP_CHAFA_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
ABP_TURBOJPEG_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)
ABP_PNG_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)

static const abp_lazy_symbol chafa_symbols[] = {ABP_CHAFA_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static const abp_lazy_symbol turbojpeg_symbols[] = {ABP_TURBOJPEG_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static const abp_lazy_symbol png_symbols[] = {ABP_PNG_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static bool load(char *error, size_t error_size) {
    return abp_lazy_open("libchafa.so.0", chafa_symbols, ABP_LAZY_COUNT(chafa_symbols), error, error_size)
        && abp_lazy_open("libturbojpeg.so.0", turbojpeg_symbols, ABP_LAZY_COUNT(turbojpeg_symbols), error, error_size)
        && abp_lazy_open("libpng16.so.16", png_symbols, ABP_LAZY_COUNT(png_symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_cover_libraries_load(void) { return abp_lazy_once(&state, load); }
const char *abp_cover_libraries_load_error(void) { return abp_lazy_error(&state, load); }

ABP_CHAFA_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
ABP_TURBOJPEG_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
ABP_PNG_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)
