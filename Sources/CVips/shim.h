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
