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
enum { OCEQ_VIPS_SIZE_FORCE = 3 };

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
    int complete = api->version && api->init && api->image_new_from_file && api->image_get_width
        && api->image_get_height && api->thumbnail && api->image_write_to_file && api->error_buffer
        && api->error_clear && api->object_unref;
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
