// The libedit table (see include/CEditLine.h) and the wrappers Swift calls: each answers as a failure
// when libedit could not be opened.
#include "CEditLine.h"

OCEQ_LIBRARY_DEFINE(editline, "libedit.so.2", RTLD_NOW | RTLD_LOCAL, OCEQ_EDITLINE_FUNCTIONS)

/// The table, or return `failure` from the calling wrapper when libedit is missing.
#define EDITLINE_OR(failure)                         \
    const struct oceq_editline_api *api = oceq_editline(); \
    if (!api) return failure

EditLine *oceq_el_init(const char *prog) {
    EDITLINE_OR(NULL);
    return api->el_init(prog, stdin, stdout, stderr);
}

void oceq_el_end(EditLine *el) {
    EDITLINE_OR();
    api->el_end(el);
}

int oceq_el_source(EditLine *el, const char *path) {
    EDITLINE_OR(-1);
    return api->el_source(el, path);
}

void oceq_el_resize(EditLine *el) {
    EDITLINE_OR();
    api->el_resize(el);
}

const char *oceq_el_gets(EditLine *el, int *count) {
    *count = -1;
    EDITLINE_OR(NULL);
    return api->el_gets(el, count);
}

const LineInfo *oceq_el_line(EditLine *el) {
    EDITLINE_OR(NULL);
    return api->el_line(el);
}

void oceq_el_deletestr(EditLine *el, int count) {
    EDITLINE_OR();
    api->el_deletestr(el, count);
}

int oceq_el_insertstr(EditLine *el, const char *text) {
    EDITLINE_OR(-1);
    return api->el_insertstr(el, text);
}

int oceq_el_set_clientdata(EditLine *el, void *data) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_CLIENTDATA, data);
}

void *oceq_el_get_clientdata(EditLine *el) {
    EDITLINE_OR(NULL);
    void *data = NULL;
    if (api->el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

int oceq_el_set_signal(EditLine *el, int on) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_SIGNAL, on);
}

int oceq_el_set_editor(EditLine *el, const char *mode) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_EDITOR, mode);
}

int oceq_el_set_prompt_esc(EditLine *el, oceq_el_prompt_fn fn, char esc) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_PROMPT_ESC, fn, esc);
}

int oceq_el_add_function(EditLine *el, const char *name, const char *help, oceq_el_command_fn fn) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_ADDFN, name, help, fn);
}

int oceq_el_bind(EditLine *el, const char *key, const char *function) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_BIND, key, function, (const char *)NULL);
}

int oceq_el_set_history(EditLine *el, History *h) {
    EDITLINE_OR(-1);
    // EL_HIST takes the history function itself: libedit's, from the table.
    return api->el_set(el, EL_HIST, api->history, h);
}

int oceq_el_set_getcfn(EditLine *el, el_rfunc_t fn) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_GETCFN, fn);
}

int oceq_el_prep_term(EditLine *el, int on) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_PREP_TERM, on);
}

int oceq_el_refresh(EditLine *el) {
    EDITLINE_OR(-1);
    return api->el_set(el, EL_REFRESH);
}

History *oceq_history_init(void) {
    EDITLINE_OR(NULL);
    return api->history_init();
}

void oceq_history_end(History *h) {
    EDITLINE_OR();
    api->history_end(h);
}

int oceq_history_set_size(History *h, int size) {
    EDITLINE_OR(-1);
    HistEvent ev;
    return api->history(h, &ev, H_SETSIZE, size);
}

int oceq_history_set_unique(History *h, int unique) {
    EDITLINE_OR(-1);
    HistEvent ev;
    return api->history(h, &ev, H_SETUNIQUE, unique);
}

int oceq_history_enter(History *h, const char *entry) {
    EDITLINE_OR(-1);
    HistEvent ev;
    return api->history(h, &ev, H_ENTER, entry);
}

int oceq_history_load(History *h, const char *path) {
    EDITLINE_OR(-1);
    HistEvent ev;
    return api->history(h, &ev, H_LOAD, path);
}

int oceq_history_save(History *h, const char *path) {
    EDITLINE_OR(-1);
    HistEvent ev;
    return api->history(h, &ev, H_SAVE, path);
}

const char *oceq_history_step(History *h, int op) {
    EDITLINE_OR(NULL);
    HistEvent ev;
    if (api->history(h, &ev, op) != 0) return NULL;
    return ev.str;
}
