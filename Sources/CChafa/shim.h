// Chafa behind two plain functions: what the terminal can show (chafa's own term database reading
// TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, ...), and one RGBA image drawn as text.
#pragma once
#include <chafa.h>
#include <string.h>

/// The best pixel mode and canvas mode for the terminal described by `envp` (NULL-terminated
/// "NAME=value" strings), chosen as chafa's own tool does: kitty, then iTerm2, then sixels, else
/// symbols; direct colour, then 256 colours, else 16.
static inline void oceq_chafa_detect(char **envp, int *pixel_mode, int *canvas_mode) {
    ChafaTermDb *db = chafa_term_db_get_default();
    ChafaTermInfo *info = chafa_term_db_detect(db, envp);
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) {
        *pixel_mode = CHAFA_PIXEL_MODE_KITTY;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) {
        *pixel_mode = CHAFA_PIXEL_MODE_ITERM2;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS)) {
        *pixel_mode = CHAFA_PIXEL_MODE_SIXELS;
    } else {
        *pixel_mode = CHAFA_PIXEL_MODE_SYMBOLS;
    }
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT)) {
        *canvas_mode = CHAFA_CANVAS_MODE_TRUECOLOR;
    } else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_256)) {
        *canvas_mode = CHAFA_CANVAS_MODE_INDEXED_256;
    } else {
        *canvas_mode = CHAFA_CANVAS_MODE_INDEXED_16;
    }
    chafa_term_info_unref(info);
}

/// Draws `pixels` (RGBA, unassociated alpha, `rowstride` bytes a row) on `columns` x `rows`
/// cells in `pixel_mode` / `canvas_mode`, with every sequence chafa knows available (its fallback
/// term info), and returns the text (free with oceq_chafa_free), `length` bytes, or NULL.
/// Symbols mode uses block and half-block symbols, no dithering, one thread's worth of work, so
/// the same pixels always give the same text.
static inline char *oceq_chafa_draw(const unsigned char *pixels, int width, int height, int rowstride,
                                    int columns, int rows, int pixel_mode, int canvas_mode, size_t *length) {
    ChafaSymbolMap *symbols = chafa_symbol_map_new();
    chafa_symbol_map_add_by_tags(symbols, (ChafaSymbolTags)(CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_HALF));
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, columns, rows);
    chafa_canvas_config_set_pixel_mode(config, (ChafaPixelMode)pixel_mode);
    chafa_canvas_config_set_canvas_mode(config, (ChafaCanvasMode)canvas_mode);
    chafa_canvas_config_set_symbol_map(config, symbols);
    chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE);
    ChafaCanvas *canvas = chafa_canvas_new(config);
    char *out = NULL;
    if (canvas) {
        chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, rowstride);
        ChafaTermDb *db = chafa_term_db_get_default();
        ChafaTermInfo *info = chafa_term_db_get_fallback_info(db);
        GString *text = chafa_canvas_print(canvas, info);
        *length = text->len;
        out = g_string_free(text, FALSE);
        chafa_term_info_unref(info);
        chafa_canvas_unref(canvas);
    }
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(symbols);
    return out;
}

/// Frees what oceq_chafa_draw returned.
static inline void oceq_chafa_free(char *text) { g_free(text); }
