// Cover art: libchafa turns pixels into terminal symbols; libturbojpeg and libpng decode the
// pixels. Covers embedded in audio files (ID3 APIC, MP4 covr, FLAC/Vorbis pictures) are JPEG or
// PNG, so these two small libraries are all that is needed: gdk-pixbuf would bring the GObject
// runtime and loader modules for formats no cover uses.
#include <chafa.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

/// Decodes a JPEG into RGBA8 rows (width * 4 bytes each). Returns a malloc'd buffer the caller
/// frees, or NULL when the bytes are not a JPEG libturbojpeg can read.
static inline unsigned char *abp_jpeg_decode_rgba(const unsigned char *data, unsigned long size,
                                                  int *width, int *height) {
    tjhandle handle = tjInitDecompress();
    if (handle == NULL) return NULL;
    int subsampling = 0, colorspace = 0;
    unsigned char *pixels = NULL;
    if (tjDecompressHeader3(handle, data, size, width, height, &subsampling, &colorspace) == 0
        && *width > 0 && *height > 0) {
        pixels = malloc((size_t)*width * (size_t)*height * 4);
        if (pixels != NULL && tjDecompress2(handle, data, size, pixels, *width, 0, *height, TJPF_RGBA, 0) != 0) {
            free(pixels);
            pixels = NULL;
        }
    }
    tjDestroy(handle);
    return pixels;
}

/// Decodes a PNG into RGBA8 rows with libpng's simplified API. Same contract as above.
static inline unsigned char *abp_png_decode_rgba(const unsigned char *data, unsigned long size,
                                                 int *width, int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return NULL;
    image.format = PNG_FORMAT_RGBA;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        png_image_free(&image);
        return NULL;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return pixels;
}

/// The canvas text chafa prints (with colour sequences for `mode`), as a malloc'd C string the
/// caller frees. GString is a glib macro-heavy type: keep it on this side.
static inline char *abp_chafa_print(ChafaCanvas *canvas) {
    GString *text = chafa_canvas_print(canvas, NULL);
    return g_string_free(text, FALSE);
}
