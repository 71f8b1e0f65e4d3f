// Wrappers over libedit (histedit.h, not the readline emulation) for Swift: el_set, el_get and history are
// variadic, and Swift 6 rejects the C globals stdin, stdout and stderr, so each operation oceq uses gets a
// one-line static inline function here; the rest (el_gets, el_line, history_init, ...) Swift calls directly.
//
// libedit is linked normally: the REPL, oceq's main command, always uses it, and it and its dependencies
// (libtinfo, libbsd, libmd) cost a start of oceq nothing measurable in wall time (about 0.2 ms of CPU with
// LD_PRELOAD beside the build that opened it at first use: see Package.swift).
#pragma once
#include <stdio.h>
#include <histedit.h>

/// Signature of a prompt callback (EL_PROMPT, EL_PROMPT_ESC).
typedef char *(*oceq_el_prompt_fn)(EditLine *);
/// Signature of a named editor function (EL_ADDFN).
typedef unsigned char (*oceq_el_command_fn)(EditLine *, int);

/// el_init on the process's stdin, stdout and stderr.
static inline EditLine *oceq_el_init(const char *prog) { return el_init(prog, stdin, stdout, stderr); }

/// Stores the client data pointer (EL_CLIENTDATA).
static inline int oceq_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }

/// Reads the client data pointer (EL_CLIENTDATA); NULL when unset or on error.
static inline void *oceq_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

/// Lets libedit handle signals (EL_SIGNAL): restore the terminal on fatal ones, follow SIGWINCH and SIGCONT.
static inline int oceq_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }

/// Chooses the key bindings ("emacs" or "vi"); this reloads the default keymap.
static inline int oceq_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }

/// Sets a prompt callback whose text may fence non-printing sequences between two `esc` characters.
static inline int oceq_el_set_prompt_esc(EditLine *el, oceq_el_prompt_fn fn, char esc) {
    return el_set(el, EL_PROMPT_ESC, fn, esc);
}

/// Registers a named editor function that key bindings can refer to (EL_ADDFN).
static inline int oceq_el_add_function(EditLine *el, const char *name, const char *help, oceq_el_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

/// Binds a key sequence (in `bind` notation, e.g. "^I") to a named editor function (EL_BIND).
static inline int oceq_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, (const char *)NULL);
}

/// Attaches a history to the editor (EL_HIST) so that arrows and searches walk it.
static inline int oceq_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }

/// Replaces libedit's read-a-character function (EL_GETCFN).
static inline int oceq_el_set_getcfn(EditLine *el, el_rfunc_t fn) { return el_set(el, EL_GETCFN, fn); }

/// Puts the terminal into libedit's editing mode now (on = 1) or back (on = 0) (EL_PREP_TERM). el_gets itself
/// switches only when it reads the first key, after it has drawn the prompt.
static inline int oceq_el_prep_term(EditLine *el, int on) { return el_set(el, EL_PREP_TERM, on); }

/// Redraws the prompt and line (EL_REFRESH).
static inline int oceq_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }

/// Caps the number of history entries (H_SETSIZE).
static inline int oceq_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

/// Drops an entry equal to the one before it (H_SETUNIQUE).
static inline int oceq_history_set_unique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}

/// Adds an entry as the newest (H_ENTER).
static inline int oceq_history_enter(History *h, const char *entry) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, entry);
}

/// Forgets every entry (H_CLEAR).
static inline int oceq_history_clear(History *h) {
    HistEvent ev;
    return history(h, &ev, H_CLEAR);
}

/// Adds the entries of the history file `path` (libedit's own format; H_LOAD): how many, or -1 when the file
/// cannot be read or is not a libedit history file.
static inline int oceq_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

/// Writes every entry to `path` in libedit's format (H_SAVE): how many, or -1 on failure.
static inline int oceq_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

/// Moves to an entry and returns its text, or NULL when there is none: `op` is H_LAST (the oldest) or H_PREV
/// (the next newer one).
static inline const char *oceq_history_step(History *h, int op) {
    HistEvent ev;
    if (history(h, &ev, op) != 0) return NULL;
    return ev.str;
}
