// Chafa behind two plain functions: what the terminal can show (chafa's own term database reading
// TERM, COLORTERM, TERM_PROGRAM, KITTY_WINDOW_ID, ...), and one RGBA image drawn as text. libchafa is
// opened at first use through CSystem's loader: with glib and PCRE2 it cost every start of oceq about
// 0.35 ms when linked, and only `preview` and `read` with images draw. <chafa.h> needs glib's include
// paths, so only CChafa.c includes it (with the table typed by it); this header declares the wrappers
// and oceq's own names for the modes, which CChafa.c maps to chafa's.
#pragma once
#include <stddef.h>

/// How an image is drawn: chafa's symbols, sixels, kitty or iTerm2 pixel modes.
typedef enum { OCEQ_CHAFA_SYMBOLS, OCEQ_CHAFA_SIXELS, OCEQ_CHAFA_KITTY, OCEQ_CHAFA_ITERM2 } OceqChafaPixels;
/// Colours of a symbols drawing: chafa's truecolor, 256-colour or 16-colour canvas modes.
typedef enum { OCEQ_CHAFA_TRUECOLOR, OCEQ_CHAFA_INDEXED_256, OCEQ_CHAFA_INDEXED_16 } OceqChafaColours;

/// The best pixel mode and colours for the terminal described by `envp` (NULL-terminated
/// "NAME=value" strings), chosen as chafa's own tool does: kitty, then iTerm2, then sixels, else
/// symbols; direct colour, then 256 colours, else 16. Symbols in 16 colours when libchafa is missing.
void oceq_chafa_detect(char **envp, OceqChafaPixels *pixels, OceqChafaColours *colours);

/// Draws `pixels` (RGBA, unassociated alpha, `rowstride` bytes a row) on `columns` x `rows`
/// cells in `mode` / `colours`, with every sequence chafa knows available (its fallback
/// term info), and returns the text (free with oceq_chafa_free), `length` bytes, or NULL.
/// Symbols mode uses block and half-block symbols, no dithering, so the same pixels always give
/// the same text.
char *oceq_chafa_draw(const unsigned char *pixels, int width, int height, int rowstride, int columns, int rows,
                      OceqChafaPixels mode, OceqChafaColours colours, size_t *length);

/// Frees what oceq_chafa_draw returned.
void oceq_chafa_free(char *text);
