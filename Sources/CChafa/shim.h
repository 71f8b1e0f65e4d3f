// Chafa behind two plain functions: what the terminal can show (chafa's own term database reading
// TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, ...), and one RGBA image drawn as text.
//
// libchafa is opened with dlopen at first use, not linked: with glib and PCRE2 it cost every start of
// oceq about 0.35 ms, and only `preview` and `read` with images draw. So this header does not include
// <chafa.h> (whose pkg-config entry would link -lchafa -lglib-2.0 into every program, and whose glib
// headers need include paths a system-library module cannot give without it): it declares the few
// types and constants it passes, which are part of libchafa's ABI (soname libchafa.so.0, 1.x; the
// values were read from chafa 1.12's headers), as Sources/CVips/shim.h does for libvips.
#pragma once
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct ChafaTermDb ChafaTermDb;
typedef struct ChafaTermInfo ChafaTermInfo;
typedef struct ChafaSymbolMap ChafaSymbolMap;
typedef struct ChafaCanvasConfig ChafaCanvasConfig;
typedef struct ChafaCanvas ChafaCanvas;
/// glib's GString, as chafa_canvas_print returns it.
typedef struct {
    char *str;
    size_t len;
    size_t allocated_len;
} OceqGString;

/// `ChafaPixelMode`.
typedef enum {
    CHAFA_PIXEL_MODE_SYMBOLS = 0,
    CHAFA_PIXEL_MODE_SIXELS = 1,
    CHAFA_PIXEL_MODE_KITTY = 2,
    CHAFA_PIXEL_MODE_ITERM2 = 3
} ChafaPixelMode;
/// `ChafaCanvasMode` (the modes oceq uses).
typedef enum {
    CHAFA_CANVAS_MODE_TRUECOLOR = 0,
    CHAFA_CANVAS_MODE_INDEXED_256 = 1,
    CHAFA_CANVAS_MODE_INDEXED_16 = 3
} ChafaCanvasMode;
/// `ChafaTermSeq` (the sequences oceq asks about).
enum {
    OCEQ_CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT = 33,
    OCEQ_CHAFA_TERM_SEQ_SET_COLOR_FGBG_256 = 36,
    OCEQ_CHAFA_TERM_SEQ_BEGIN_SIXELS = 40,
    OCEQ_CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1 = 43,
    OCEQ_CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE = 47
};
/// `ChafaSymbolTags` BLOCK, SPACE and HALF; `ChafaDitherMode` NONE; `ChafaPixelType` RGBA8_UNASSOCIATED.
enum {
    OCEQ_CHAFA_SYMBOL_TAG_SPACE = 1,
    OCEQ_CHAFA_SYMBOL_TAG_BLOCK = 8,
    OCEQ_CHAFA_SYMBOL_TAG_HALF = 768,
    OCEQ_CHAFA_DITHER_MODE_NONE = 0,
    OCEQ_CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4
};

/// The libchafa functions oceq calls, looked up once; `complete` is 0 when libchafa or one of them is missing.
struct oceq_chafa_api {
    int complete;
    ChafaTermDb *(*term_db_get_default)(void);
    ChafaTermInfo *(*term_db_detect)(ChafaTermDb *db, char **envp);
    ChafaTermInfo *(*term_db_get_fallback_info)(ChafaTermDb *db);
    int (*term_info_have_seq)(const ChafaTermInfo *info, int seq);
    void (*term_info_unref)(ChafaTermInfo *info);
    ChafaSymbolMap *(*symbol_map_new)(void);
    void (*symbol_map_add_by_tags)(ChafaSymbolMap *map, int tags);
    void (*symbol_map_unref)(ChafaSymbolMap *map);
    ChafaCanvasConfig *(*canvas_config_new)(void);
    void (*canvas_config_set_geometry)(ChafaCanvasConfig *config, int width, int height);
    void (*canvas_config_set_pixel_mode)(ChafaCanvasConfig *config, int mode);
    void (*canvas_config_set_canvas_mode)(ChafaCanvasConfig *config, int mode);
    void (*canvas_config_set_symbol_map)(ChafaCanvasConfig *config, const ChafaSymbolMap *map);
    void (*canvas_config_set_dither_mode)(ChafaCanvasConfig *config, int mode);
    void (*canvas_config_unref)(ChafaCanvasConfig *config);
    ChafaCanvas *(*canvas_new)(const ChafaCanvasConfig *config);
    void (*canvas_draw_all_pixels)(ChafaCanvas *canvas, int type, const unsigned char *pixels, int width, int height,
                                   int rowstride);
    OceqGString *(*canvas_print)(ChafaCanvas *canvas, ChafaTermInfo *info);
    void (*canvas_unref)(ChafaCanvas *canvas);
    char *(*string_free)(OceqGString *string, int free_segment);
    void (*free)(void *memory);
};

static inline struct oceq_chafa_api *oceq_chafa_table(void) {
    static struct oceq_chafa_api table;
    return &table;
}

static void oceq_chafa_load(void) {
    void *library = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct oceq_chafa_api *api = oceq_chafa_table();
    void **slots[] = {
        (void **)&api->term_db_get_default, (void **)&api->term_db_detect, (void **)&api->term_db_get_fallback_info,
        (void **)&api->term_info_have_seq, (void **)&api->term_info_unref, (void **)&api->symbol_map_new,
        (void **)&api->symbol_map_add_by_tags, (void **)&api->symbol_map_unref, (void **)&api->canvas_config_new,
        (void **)&api->canvas_config_set_geometry, (void **)&api->canvas_config_set_pixel_mode,
        (void **)&api->canvas_config_set_canvas_mode, (void **)&api->canvas_config_set_symbol_map,
        (void **)&api->canvas_config_set_dither_mode, (void **)&api->canvas_config_unref, (void **)&api->canvas_new,
        (void **)&api->canvas_draw_all_pixels, (void **)&api->canvas_print, (void **)&api->canvas_unref,
        (void **)&api->string_free, (void **)&api->free,
    };
    const char *names[] = {
        "chafa_term_db_get_default", "chafa_term_db_detect", "chafa_term_db_get_fallback_info",
        "chafa_term_info_have_seq", "chafa_term_info_unref", "chafa_symbol_map_new",
        "chafa_symbol_map_add_by_tags", "chafa_symbol_map_unref", "chafa_canvas_config_new",
        "chafa_canvas_config_set_geometry", "chafa_canvas_config_set_pixel_mode",
        "chafa_canvas_config_set_canvas_mode", "chafa_canvas_config_set_symbol_map",
        "chafa_canvas_config_set_dither_mode", "chafa_canvas_config_unref", "chafa_canvas_new",
        "chafa_canvas_draw_all_pixels", "chafa_canvas_print", "chafa_canvas_unref",
        "g_string_free", "g_free",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *slots[i] = dlsym(library, names[i]);
        if (!*slots[i]) return;
    }
    api->complete = 1;
}

/// The table, or NULL when libchafa cannot be used (then nothing is detected or drawn).
static inline const struct oceq_chafa_api *oceq_chafa(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_chafa_load);
    return oceq_chafa_table()->complete ? oceq_chafa_table() : NULL;
}

/// The best pixel mode and canvas mode for the terminal described by `envp` (NULL-terminated
/// "NAME=value" strings), chosen as chafa's own tool does: kitty, then iTerm2, then sixels, else
/// symbols; direct colour, then 256 colours, else 16.
static inline void oceq_chafa_detect(char **envp, int *pixel_mode, int *canvas_mode) {
    *pixel_mode = CHAFA_PIXEL_MODE_SYMBOLS;
    *canvas_mode = CHAFA_CANVAS_MODE_INDEXED_16;
    const struct oceq_chafa_api *api = oceq_chafa();
    if (!api) return;
    ChafaTermDb *db = api->term_db_get_default();
    ChafaTermInfo *info = api->term_db_detect(db, envp);
    if (api->term_info_have_seq(info, OCEQ_CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) {
        *pixel_mode = CHAFA_PIXEL_MODE_KITTY;
    } else if (api->term_info_have_seq(info, OCEQ_CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) {
        *pixel_mode = CHAFA_PIXEL_MODE_ITERM2;
    } else if (api->term_info_have_seq(info, OCEQ_CHAFA_TERM_SEQ_BEGIN_SIXELS)) {
        *pixel_mode = CHAFA_PIXEL_MODE_SIXELS;
    } else {
        *pixel_mode = CHAFA_PIXEL_MODE_SYMBOLS;
    }
    if (api->term_info_have_seq(info, OCEQ_CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT)) {
        *canvas_mode = CHAFA_CANVAS_MODE_TRUECOLOR;
    } else if (api->term_info_have_seq(info, OCEQ_CHAFA_TERM_SEQ_SET_COLOR_FGBG_256)) {
        *canvas_mode = CHAFA_CANVAS_MODE_INDEXED_256;
    } else {
        *canvas_mode = CHAFA_CANVAS_MODE_INDEXED_16;
    }
    api->term_info_unref(info);
}

/// Draws `pixels` (RGBA, unassociated alpha, `rowstride` bytes a row) on `columns` x `rows`
/// cells in `pixel_mode` / `canvas_mode`, with every sequence chafa knows available (its fallback
/// term info), and returns the text (free with oceq_chafa_free), `length` bytes, or NULL.
/// Symbols mode uses block and half-block symbols, no dithering, one thread's worth of work, so
/// the same pixels always give the same text.
static inline char *oceq_chafa_draw(const unsigned char *pixels, int width, int height, int rowstride,
                                    int columns, int rows, int pixel_mode, int canvas_mode, size_t *length) {
    const struct oceq_chafa_api *api = oceq_chafa();
    if (!api) return NULL;
    ChafaSymbolMap *symbols = api->symbol_map_new();
    api->symbol_map_add_by_tags(symbols, OCEQ_CHAFA_SYMBOL_TAG_BLOCK | OCEQ_CHAFA_SYMBOL_TAG_SPACE | OCEQ_CHAFA_SYMBOL_TAG_HALF);
    ChafaCanvasConfig *config = api->canvas_config_new();
    api->canvas_config_set_geometry(config, columns, rows);
    api->canvas_config_set_pixel_mode(config, pixel_mode);
    api->canvas_config_set_canvas_mode(config, canvas_mode);
    api->canvas_config_set_symbol_map(config, symbols);
    api->canvas_config_set_dither_mode(config, OCEQ_CHAFA_DITHER_MODE_NONE);
    ChafaCanvas *canvas = api->canvas_new(config);
    char *out = NULL;
    if (canvas) {
        api->canvas_draw_all_pixels(canvas, OCEQ_CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, rowstride);
        ChafaTermDb *db = api->term_db_get_default();
        ChafaTermInfo *info = api->term_db_get_fallback_info(db);
        OceqGString *text = api->canvas_print(canvas, info);
        *length = text->len;
        out = api->string_free(text, 0);
        api->term_info_unref(info);
        api->canvas_unref(canvas);
    }
    api->canvas_config_unref(config);
    api->symbol_map_unref(symbols);
    return out;
}

/// Frees what oceq_chafa_draw returned.
static inline void oceq_chafa_free(char *text) {
    const struct oceq_chafa_api *api = oceq_chafa();
    if (api && text) api->free(text);
}
