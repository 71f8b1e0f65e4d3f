// libchafa through CSystem's loader: the table is typed by <chafa.h>, and the constants are its own.
#include <chafa.h>

#include "CChafa.h"
#include "CSystem.h"

#define OCEQ_CHAFA_FUNCTIONS(F) \
    F(chafa_term_db_get_default) F(chafa_term_db_detect) F(chafa_term_db_get_fallback_info) \
    F(chafa_term_info_have_seq) F(chafa_term_info_unref) F(chafa_symbol_map_new) F(chafa_symbol_map_add_by_tags) \
    F(chafa_symbol_map_unref) F(chafa_canvas_config_new) F(chafa_canvas_config_set_geometry) \
    F(chafa_canvas_config_set_pixel_mode) F(chafa_canvas_config_set_canvas_mode) \
    F(chafa_canvas_config_set_symbol_map) F(chafa_canvas_config_set_dither_mode) F(chafa_canvas_config_unref) \
    F(chafa_canvas_new) F(chafa_canvas_draw_all_pixels) F(chafa_canvas_print) F(chafa_canvas_unref) \
    F(g_string_free) F(g_free)

OCEQ_LIBRARY_DECLARE(chafa, OCEQ_CHAFA_FUNCTIONS)
OCEQ_LIBRARY_DEFINE(chafa, "libchafa.so.0", RTLD_NOW | RTLD_LOCAL, OCEQ_CHAFA_FUNCTIONS)

void oceq_chafa_detect(char **envp, OceqChafaPixels *pixels, OceqChafaColours *colours) {
    *pixels = OCEQ_CHAFA_SYMBOLS;
    *colours = OCEQ_CHAFA_INDEXED_16;
    const struct oceq_chafa_api *api = oceq_chafa();
    if (!api) return;
    ChafaTermDb *db = api->chafa_term_db_get_default();
    ChafaTermInfo *info = api->chafa_term_db_detect(db, envp);
    if (api->chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) {
        *pixels = OCEQ_CHAFA_KITTY;
    } else if (api->chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) {
        *pixels = OCEQ_CHAFA_ITERM2;
    } else if (api->chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS)) {
        *pixels = OCEQ_CHAFA_SIXELS;
    }
    if (api->chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT)) {
        *colours = OCEQ_CHAFA_TRUECOLOR;
    } else if (api->chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_256)) {
        *colours = OCEQ_CHAFA_INDEXED_256;
    }
    api->chafa_term_info_unref(info);
}

static ChafaPixelMode oceq_chafa_pixel_mode(OceqChafaPixels mode) {
    switch (mode) {
    case OCEQ_CHAFA_SIXELS: return CHAFA_PIXEL_MODE_SIXELS;
    case OCEQ_CHAFA_KITTY: return CHAFA_PIXEL_MODE_KITTY;
    case OCEQ_CHAFA_ITERM2: return CHAFA_PIXEL_MODE_ITERM2;
    default: return CHAFA_PIXEL_MODE_SYMBOLS;
    }
}

static ChafaCanvasMode oceq_chafa_canvas_mode(OceqChafaColours colours) {
    switch (colours) {
    case OCEQ_CHAFA_TRUECOLOR: return CHAFA_CANVAS_MODE_TRUECOLOR;
    case OCEQ_CHAFA_INDEXED_256: return CHAFA_CANVAS_MODE_INDEXED_256;
    default: return CHAFA_CANVAS_MODE_INDEXED_16;
    }
}

char *oceq_chafa_draw(const unsigned char *pixels, int width, int height, int rowstride, int columns, int rows,
                      OceqChafaPixels mode, OceqChafaColours colours, size_t *length) {
    const struct oceq_chafa_api *api = oceq_chafa();
    if (!api) return NULL;
    ChafaSymbolMap *symbols = api->chafa_symbol_map_new();
    api->chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_HALF);
    ChafaCanvasConfig *config = api->chafa_canvas_config_new();
    api->chafa_canvas_config_set_geometry(config, columns, rows);
    api->chafa_canvas_config_set_pixel_mode(config, oceq_chafa_pixel_mode(mode));
    api->chafa_canvas_config_set_canvas_mode(config, oceq_chafa_canvas_mode(colours));
    api->chafa_canvas_config_set_symbol_map(config, symbols);
    api->chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE);
    ChafaCanvas *canvas = api->chafa_canvas_new(config);
    char *out = NULL;
    if (canvas) {
        api->chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, rowstride);
        ChafaTermDb *db = api->chafa_term_db_get_default();
        ChafaTermInfo *info = api->chafa_term_db_get_fallback_info(db);
        GString *text = api->chafa_canvas_print(canvas, info);
        *length = text->len;
        out = api->g_string_free(text, FALSE);
        api->chafa_term_info_unref(info);
        api->chafa_canvas_unref(canvas);
    }
    api->chafa_canvas_config_unref(config);
    api->chafa_symbol_map_unref(symbols);
    return out;
}

void oceq_chafa_free(char *text) {
    const struct oceq_chafa_api *api = oceq_chafa();
    if (api && text) api->g_free(text);
}
