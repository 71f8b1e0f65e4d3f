// libvips through CSystem's loader: the table is typed by <vips/vips.h>, and the constants are its own.
#include <vips/vips.h>

#include "CSystem.h"
#include "CVips.h"

#define OCEQ_VIPS_FUNCTIONS(F) \
    F(vips_version) F(vips_init) F(vips_image_new_from_file) F(vips_image_get_width) F(vips_image_get_height) \
    F(vips_thumbnail) F(vips_image_write_to_file) F(vips_error_buffer) F(vips_error_clear) F(g_object_unref) \
    F(g_object_ref) F(vips_colourspace) F(vips_image_hasalpha) F(vips_bandjoin_const1) F(vips_cast) \
    F(vips_image_get_bands) F(vips_image_write_to_memory) F(g_free)

OCEQ_LIBRARY_DECLARE(vips, OCEQ_VIPS_FUNCTIONS)
// RTLD_GLOBAL, as the shim before this one opened it: libvips's format modules, which GModule loads
// into the process, then see the symbols of the libvips already open.
OCEQ_LIBRARY_DEFINE(vips, "libvips.so.42", RTLD_NOW | RTLD_GLOBAL, OCEQ_VIPS_FUNCTIONS)

int oceq_vips_init(void) {
    const struct oceq_vips_api *api = oceq_vips();
    if (!api) return -1;
    if (api->vips_version(0) != VIPS_MAJOR_VERSION) return -1;
    return api->vips_init("oceq");
}

int oceq_vips_probe(const char *path, int *width, int *height) {
    const struct oceq_vips_api *api = oceq_vips();
    if (!api) return -1;
    VipsImage *image = api->vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) {
        api->vips_error_clear();
        return -1;
    }
    *width = api->vips_image_get_width(image);
    *height = api->vips_image_get_height(image);
    api->g_object_unref(image);
    return 0;
}

int oceq_vips_render(const char *in, int width, int height, const char *out, char *error, size_t error_size) {
    const struct oceq_vips_api *api = oceq_vips();
    if (!api) {
        if (error && error_size) snprintf(error, error_size, "%s", oceq_vips_error());
        return -1;
    }
    VipsImage *image = NULL;
    int failed = api->vips_thumbnail(in, &image, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
    if (!failed) failed = api->vips_image_write_to_file(image, out, NULL);
    if (image) api->g_object_unref(image);
    if (failed && error && error_size) {
        snprintf(error, error_size, "%s", api->vips_error_buffer());
        api->vips_error_clear();
    }
    return failed ? -1 : 0;
}

unsigned char *oceq_vips_rgba(const char *in, int max_width, int max_height, int *width, int *height, char *error,
                              size_t error_size) {
    const struct oceq_vips_api *api = oceq_vips();
    if (!api) {
        if (error && error_size) snprintf(error, error_size, "%s", oceq_vips_error());
        return NULL;
    }
    VipsImage *thumb = NULL, *srgb = NULL, *alpha = NULL, *bytes = NULL;
    unsigned char *pixels = NULL;
    size_t size = 0;
    const char *reason = NULL;
    int failed = api->vips_thumbnail(in, &thumb, max_width, "height", max_height, "size", VIPS_SIZE_DOWN, NULL);
    if (!failed) failed = api->vips_colourspace(thumb, &srgb, VIPS_INTERPRETATION_sRGB, NULL);
    if (!failed) {
        if (api->vips_image_hasalpha(srgb)) {
            alpha = srgb;
            (api->g_object_ref)(alpha);  // parenthesised: glib also defines g_object_ref as a macro
        } else {
            failed = api->vips_bandjoin_const1(srgb, &alpha, 255.0, NULL);
        }
    }
    if (!failed) failed = api->vips_cast(alpha, &bytes, VIPS_FORMAT_UCHAR, NULL);
    if (!failed && api->vips_image_get_bands(bytes) != 4) {
        reason = "unexpected number of bands";
        failed = -1;
    }
    if (!failed) {
        pixels = (unsigned char *)api->vips_image_write_to_memory(bytes, &size);
        if (!pixels) failed = -1;
        *width = api->vips_image_get_width(bytes);
        *height = api->vips_image_get_height(bytes);
    }
    if (thumb) api->g_object_unref(thumb);
    if (srgb) api->g_object_unref(srgb);
    if (alpha) api->g_object_unref(alpha);
    if (bytes) api->g_object_unref(bytes);
    if (failed && error && error_size) snprintf(error, error_size, "%s", reason ? reason : api->vips_error_buffer());
    if (failed) api->vips_error_clear();
    return failed ? NULL : pixels;
}

void oceq_vips_free(void *memory) {
    const struct oceq_vips_api *api = oceq_vips();
    if (api && memory) api->g_free(memory);
}
