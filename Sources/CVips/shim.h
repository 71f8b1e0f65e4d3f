// Non-variadic wrappers over the few libvips calls oceq serve needs.
//
// libvips is opened with dlopen on first use, not linked: it pulls in glib and some eighty image, font and
// X libraries, and loading them all made every start of oceq (`oceq --version` too) several times slower.
// So this header does not include <vips/vips.h> (whose pkg-config entry would link -lvips into every
// program): it declares the few types and constants it passes, which are part of libvips's ABI (soname
// libvips.so.42, major version 8). Needs the libvips42 package at run time (libvips-dev pulls it in).
#pragma once
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

/// An image of libvips, used only through pointers.
typedef struct _VipsImage VipsImage;
/// libvips's major version, checked at start.
enum { OCEQ_VIPS_MAJOR_VERSION = 8 };
/// `VipsAccess`: VIPS_ACCESS_RANDOM, VIPS_ACCESS_SEQUENTIAL, ...
enum { OCEQ_VIPS_ACCESS_SEQUENTIAL = 1 };
/// `VipsSize`: VIPS_SIZE_BOTH, VIPS_SIZE_UP, VIPS_SIZE_DOWN, VIPS_SIZE_FORCE.
enum { OCEQ_VIPS_SIZE_DOWN = 2, OCEQ_VIPS_SIZE_FORCE = 3 };
/// `VipsInterpretation` VIPS_INTERPRETATION_sRGB and `VipsBandFormat` VIPS_FORMAT_UCHAR.
enum { OCEQ_VIPS_INTERPRETATION_SRGB = 22, OCEQ_VIPS_FORMAT_UCHAR = 0 };

/// The libvips functions oceq calls. Looked up on each call (a header cannot keep state, and dlopen of a
/// library already open only counts a reference): microseconds beside the image work they do.
struct oceq_vips_api {
    int (*version)(int flag);
    int (*init)(const char *argv0);
    VipsImage *(*image_new_from_file)(const char *name, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*thumbnail)(const char *filename, VipsImage **out, int width, ...);
    int (*image_write_to_file)(VipsImage *image, const char *name, ...);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *object);
    void *(*object_ref)(void *object);
    int (*colourspace)(VipsImage *in, VipsImage **out, int space, ...);
    int (*image_hasalpha)(VipsImage *image);
    int (*bandjoin_const1)(VipsImage *in, VipsImage **out, double c, ...);
    int (*cast)(VipsImage *in, VipsImage **out, int format, ...);
    int (*image_get_bands)(const VipsImage *image);
    void *(*image_write_to_memory)(VipsImage *in, size_t *size);
    void (*free)(void *memory);
};

/// Opens libvips (once; later calls find it open) and fills `api`; 0 on success, -1 when it or a function
/// is missing.
static inline int oceq_vips(struct oceq_vips_api *api) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (!library) return -1;
    *(void **)&api->version = dlsym(library, "vips_version");
    *(void **)&api->init = dlsym(library, "vips_init");
    *(void **)&api->image_new_from_file = dlsym(library, "vips_image_new_from_file");
    *(void **)&api->image_get_width = dlsym(library, "vips_image_get_width");
    *(void **)&api->image_get_height = dlsym(library, "vips_image_get_height");
    *(void **)&api->thumbnail = dlsym(library, "vips_thumbnail");
    *(void **)&api->image_write_to_file = dlsym(library, "vips_image_write_to_file");
    *(void **)&api->error_buffer = dlsym(library, "vips_error_buffer");
    *(void **)&api->error_clear = dlsym(library, "vips_error_clear");
    *(void **)&api->object_unref = dlsym(library, "g_object_unref");
    *(void **)&api->object_ref = dlsym(library, "g_object_ref");
    *(void **)&api->colourspace = dlsym(library, "vips_colourspace");
    *(void **)&api->image_hasalpha = dlsym(library, "vips_image_hasalpha");
    *(void **)&api->bandjoin_const1 = dlsym(library, "vips_bandjoin_const1");
    *(void **)&api->cast = dlsym(library, "vips_cast");
    *(void **)&api->image_get_bands = dlsym(library, "vips_image_get_bands");
    *(void **)&api->image_write_to_memory = dlsym(library, "vips_image_write_to_memory");
    *(void **)&api->free = dlsym(library, "g_free");
    int complete = api->version && api->init && api->image_new_from_file && api->image_get_width
        && api->image_get_height && api->thumbnail && api->image_write_to_file && api->error_buffer
        && api->error_clear && api->object_unref && api->object_ref && api->colourspace && api->image_hasalpha
        && api->bandjoin_const1 && api->cast && api->image_get_bands && api->image_write_to_memory && api->free;
    return complete ? 0 : -1;
}

/// Opens and starts libvips once per process (what VIPS_INIT does, ABI check included); 0 on success.
static inline int oceq_vips_init(void) {
    struct oceq_vips_api functions, *api = &functions;
    if (oceq_vips(api) != 0) return -1;
    if (api->version(0) != OCEQ_VIPS_MAJOR_VERSION) return -1;
    return api->init("oceq");
}

/// Reads only the header of an image file: its width and height. 0 on success.
static inline int oceq_vips_probe(const char *path, int *width, int *height) {
    struct oceq_vips_api functions, *api = &functions;
    if (oceq_vips(api) != 0) return -1;
    VipsImage *image = api->image_new_from_file(path, "access", (int)OCEQ_VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) { api->error_clear(); return -1; }
    *width = api->image_get_width(image);
    *height = api->image_get_height(image);
    api->object_unref(image);
    return 0;
}

/// Scales `in` to exactly width x height (shrink-on-load where the format allows, so a huge
/// image is never decoded whole) and writes `out`, whose suffix picks the format and may carry
/// save options (`x.jpg[Q=80,strip]`). 0 on success; the error text is copied to `error`.
static inline int oceq_vips_render(const char *in, int width, int height, const char *out, char *error, size_t error_size) {
    struct oceq_vips_api functions, *api = &functions;
    if (oceq_vips(api) != 0) {
        if (error && error_size) snprintf(error, error_size, "libvips cannot be opened");
        return -1;
    }
    VipsImage *image = NULL;
    int failed = api->thumbnail(in, &image, width, "height", height, "size", (int)OCEQ_VIPS_SIZE_FORCE, NULL);
    if (!failed) {
        failed = api->image_write_to_file(image, out, NULL);
    }
    if (image) api->object_unref(image);
    if (failed && error && error_size) {
        snprintf(error, error_size, "%s", api->error_buffer());
        api->error_clear();
    }
    return failed ? -1 : 0;
}

/// Decodes the image file `in` scaled to fit within max_width x max_height (shrink-on-load, so a
/// huge image is never decoded whole; never enlarged), as 8-bit sRGB with alpha: `*width` x
/// `*height` pixels, 4 bytes each, rows packed. Free the result with oceq_vips_free. NULL on failure,
/// the error text copied to `error`.
static inline unsigned char *oceq_vips_rgba(const char *in, int max_width, int max_height, int *width, int *height,
                                            char *error, size_t error_size) {
    struct oceq_vips_api functions, *api = &functions;
    if (oceq_vips(api) != 0) {
        if (error && error_size) snprintf(error, error_size, "libvips cannot be opened");
        return NULL;
    }
    VipsImage *thumb = NULL, *srgb = NULL, *alpha = NULL, *bytes = NULL;
    unsigned char *pixels = NULL;
    size_t size = 0;
    const char *reason = NULL;
    int failed = api->thumbnail(in, &thumb, max_width, "height", max_height, "size", (int)OCEQ_VIPS_SIZE_DOWN, NULL);
    if (!failed) failed = api->colourspace(thumb, &srgb, (int)OCEQ_VIPS_INTERPRETATION_SRGB, NULL);
    if (!failed) {
        if (api->image_hasalpha(srgb)) {
            alpha = srgb;
            api->object_ref(alpha);
        } else {
            failed = api->bandjoin_const1(srgb, &alpha, 255.0, NULL);
        }
    }
    if (!failed) failed = api->cast(alpha, &bytes, (int)OCEQ_VIPS_FORMAT_UCHAR, NULL);
    if (!failed && api->image_get_bands(bytes) != 4) {
        reason = "unexpected number of bands";
        failed = -1;
    }
    if (!failed) {
        pixels = (unsigned char *)api->image_write_to_memory(bytes, &size);
        if (!pixels) failed = -1;
        *width = api->image_get_width(bytes);
        *height = api->image_get_height(bytes);
    }
    if (thumb) api->object_unref(thumb);
    if (srgb) api->object_unref(srgb);
    if (alpha) api->object_unref(alpha);
    if (bytes) api->object_unref(bytes);
    if (failed && error && error_size) snprintf(error, error_size, "%s", reason ? reason : api->error_buffer());
    if (failed) api->error_clear();
    return failed ? NULL : pixels;
}

/// Frees what oceq_vips_rgba returned (libvips is open by then, so only g_free is looked up).
static inline void oceq_vips_free(void *memory) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (!library) return;
    void (*free_memory)(void *);
    *(void **)&free_memory = dlsym(library, "g_free");
    if (free_memory) free_memory(memory);
}
