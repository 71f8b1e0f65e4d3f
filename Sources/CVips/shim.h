// Non-variadic wrappers over the few libvips calls oceq serve needs.
#pragma once
#include <vips/vips.h>

/// Starts libvips once per process; 0 on success.
static inline int oceq_vips_init(void) {
    return VIPS_INIT("oceq");
}

/// Reads only the header of an image file: its width and height. 0 on success.
static inline int oceq_vips_probe(const char *path, int *width, int *height) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) { vips_error_clear(); return -1; }
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

/// Scales `in` to exactly width x height (shrink-on-load where the format allows, so a huge
/// image is never decoded whole) and writes `out`, whose suffix picks the format and may carry
/// save options (`x.jpg[Q=80,strip]`). 0 on success; the error text is copied to `error`.
static inline int oceq_vips_render(const char *in, int width, int height, const char *out, char *error, size_t error_size) {
    VipsImage *image = NULL;
    int failed = vips_thumbnail(in, &image, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
    if (!failed) {
        failed = vips_image_write_to_file(image, out, NULL);
    }
    if (image) g_object_unref(image);
    if (failed && error && error_size) {
        g_strlcpy(error, vips_error_buffer(), error_size);
        vips_error_clear();
    }
    return failed ? -1 : 0;
}

/// Decodes the image file `in` scaled to fit within max_width x max_height (shrink-on-load, so a
/// huge image is never decoded whole; never enlarged), as 8-bit sRGB with alpha: `*width` x
/// `*height` pixels, 4 bytes each, rows packed. Free the result with g_free. NULL on failure, the
/// error text copied to `error`.
static inline unsigned char *oceq_vips_rgba(const char *in, int max_width, int max_height, int *width, int *height,
                                            char *error, size_t error_size) {
    VipsImage *thumb = NULL, *srgb = NULL, *alpha = NULL, *bytes = NULL;
    unsigned char *pixels = NULL;
    size_t size = 0;
    int failed = vips_thumbnail(in, &thumb, max_width, "height", max_height, "size", VIPS_SIZE_DOWN, NULL);
    if (!failed) failed = vips_colourspace(thumb, &srgb, VIPS_INTERPRETATION_sRGB, NULL);
    if (!failed) {
        if (vips_image_hasalpha(srgb)) {
            alpha = srgb;
            g_object_ref(alpha);
        } else {
            failed = vips_bandjoin_const1(srgb, &alpha, 255.0, NULL);
        }
    }
    if (!failed) failed = vips_cast(alpha, &bytes, VIPS_FORMAT_UCHAR, NULL);
    if (!failed && vips_image_get_bands(bytes) != 4) {
        vips_error("oceq", "unexpected %d bands", vips_image_get_bands(bytes));
        failed = -1;
    }
    if (!failed) {
        pixels = (unsigned char *)vips_image_write_to_memory(bytes, &size);
        if (!pixels) failed = -1;
        *width = vips_image_get_width(bytes);
        *height = vips_image_get_height(bytes);
    }
    if (thumb) g_object_unref(thumb);
    if (srgb) g_object_unref(srgb);
    if (alpha) g_object_unref(alpha);
    if (bytes) g_object_unref(bytes);
    if (failed && error && error_size) {
        g_strlcpy(error, vips_error_buffer(), error_size);
        vips_error_clear();
    }
    return failed ? NULL : pixels;
}
