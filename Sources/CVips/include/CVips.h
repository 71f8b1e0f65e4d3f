// The few libvips calls oceq makes (thumbnails for `oceq serve`'s renditions, pixels for terminal
// images), behind plain functions. libvips is opened at first use through CSystem's loader: it pulls in
// glib and some eighty image, font and X libraries, which made every start of oceq several times slower
// when linked. Its header needs glib's include paths, so only CVips.c includes it (with the table typed
// by it); this header declares the wrappers alone. Needs libvips42 at run time (libvips-dev pulls it in).
#pragma once
#include <stddef.h>

/// Why libvips cannot be used (the loader's message), or NULL when it can (opening it if need be).
const char *oceq_vips_error(void);

/// Opens and starts libvips once per process (what VIPS_INIT does, ABI check included); 0 on success.
int oceq_vips_init(void);

/// Reads only the header of an image file: its width and height. 0 on success.
int oceq_vips_probe(const char *path, int *width, int *height);

/// Scales `in` to exactly width x height (shrink-on-load where the format allows, so a huge
/// image is never decoded whole) and writes `out`, whose suffix picks the format and may carry
/// save options (`x.jpg[Q=80,strip]`). 0 on success; the error text is copied to `error`.
int oceq_vips_render(const char *in, int width, int height, const char *out, char *error, size_t error_size);

/// Decodes the image file `in` scaled to fit within max_width x max_height (shrink-on-load, so a
/// huge image is never decoded whole; never enlarged), as 8-bit sRGB with alpha: `*width` x
/// `*height` pixels, 4 bytes each, rows packed. Free the result with oceq_vips_free. NULL on failure,
/// the error text copied to `error`.
unsigned char *oceq_vips_rgba(const char *in, int max_width, int max_height, int *width, int *height, char *error,
                              size_t error_size);

/// Frees what oceq_vips_rgba returned.
void oceq_vips_free(void *memory);
