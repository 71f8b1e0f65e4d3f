// libedit for Swift (histedit.h, not the readline emulation), opened at first use through CSystem's
// loader: only the REPL on a terminal and the history file use it, so a script or a one-shot `oceq -c`
// never maps libedit and its dependencies (libtinfo, libbsd, libmd). Linking it cost every start of
// oceq about 450 symbol bindings and four more objects in every symbol lookup's path.
//
// Swift calls only the `oceq_el_*` and `oceq_history_*` functions below (el_set, el_get and history are
// variadic, and Swift 6 rejects the C globals stdin, stdout and stderr): each goes through the table
// and answers as a failure (-1, or NULL) when libedit could not be opened, which `oceq_editline_error()`
// then explains. Call `oceq_editline()` first to find out.
#pragma once
// The table fields are _Nonnull (the wrappers call them without checking); the rest of the header is not annotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-completeness-on-arrays"
#include <histedit.h>
#include "CSystem.h"

#define OCEQ_EDITLINE_FUNCTIONS(F) \
    F(el_init) F(el_end) F(el_set) F(el_get) F(el_source) F(el_resize) F(el_gets) F(el_line) F(el_deletestr) \
    F(el_insertstr) F(history_init) F(history_end) F(history)

OCEQ_LIBRARY_DECLARE(editline, OCEQ_EDITLINE_FUNCTIONS)

/// Signature of a prompt callback (EL_PROMPT, EL_PROMPT_ESC).
typedef char *(*oceq_el_prompt_fn)(EditLine *);
/// Signature of a named editor function (EL_ADDFN).
typedef unsigned char (*oceq_el_command_fn)(EditLine *, int);

// MARK: - The editor

/// el_init on the process's stdin, stdout and stderr; NULL when it fails or libedit is missing.
EditLine *_Nullable oceq_el_init(const char *_Nonnull prog);
/// el_end.
void oceq_el_end(EditLine *_Nonnull el);
/// el_source: reads `path`, or ~/.editrc when NULL.
int oceq_el_source(EditLine *_Nonnull el, const char *_Nullable path);
/// el_resize: measures the terminal again.
void oceq_el_resize(EditLine *_Nonnull el);
/// el_gets: reads a line; NULL at the end of input, on an error or interruption (`count` says which).
const char *_Nullable oceq_el_gets(EditLine *_Nonnull el, int *_Nonnull count);
/// el_line: the line being edited; NULL when libedit is missing.
const LineInfo *_Nullable oceq_el_line(EditLine *_Nonnull el);
/// el_deletestr: deletes `count` characters before the cursor.
void oceq_el_deletestr(EditLine *_Nonnull el, int count);
/// el_insertstr: inserts `text` at the cursor; 0 on success.
int oceq_el_insertstr(EditLine *_Nonnull el, const char *_Nonnull text);

/// Stores the client data pointer (EL_CLIENTDATA).
int oceq_el_set_clientdata(EditLine *_Nonnull el, void *_Nullable data);
/// Reads the client data pointer (EL_CLIENTDATA); NULL when unset or on error.
void *_Nullable oceq_el_get_clientdata(EditLine *_Nonnull el);
/// Lets libedit handle signals (EL_SIGNAL): restore the terminal on fatal ones, follow SIGWINCH and SIGCONT.
int oceq_el_set_signal(EditLine *_Nonnull el, int on);
/// Chooses the key bindings ("emacs" or "vi"); this reloads the default keymap.
int oceq_el_set_editor(EditLine *_Nonnull el, const char *_Nonnull mode);
/// Sets a prompt callback whose text may fence non-printing sequences between two `esc` characters.
int oceq_el_set_prompt_esc(EditLine *_Nonnull el, oceq_el_prompt_fn _Nonnull fn, char esc);
/// Registers a named editor function that key bindings can refer to (EL_ADDFN).
int oceq_el_add_function(EditLine *_Nonnull el, const char *_Nonnull name, const char *_Nonnull help,
                         oceq_el_command_fn _Nonnull fn);
/// Binds a key sequence (in `bind` notation, e.g. "^I") to a named editor function (EL_BIND).
int oceq_el_bind(EditLine *_Nonnull el, const char *_Nonnull key, const char *_Nonnull function);
/// Attaches a history to the editor (EL_HIST) so that arrows and searches walk it.
int oceq_el_set_history(EditLine *_Nonnull el, History *_Nonnull h);
/// Replaces libedit's read-a-character function (EL_GETCFN).
int oceq_el_set_getcfn(EditLine *_Nonnull el, el_rfunc_t _Nonnull fn);
/// Puts the terminal into libedit's editing mode now (on = 1) or back (on = 0) (EL_PREP_TERM). el_gets itself
/// switches only when it reads the first key, after it has drawn the prompt.
int oceq_el_prep_term(EditLine *_Nonnull el, int on);
/// Redraws the prompt and line (EL_REFRESH).
int oceq_el_refresh(EditLine *_Nonnull el);

// MARK: - History

/// history_init; NULL when it fails or libedit is missing.
History *_Nullable oceq_history_init(void);
/// history_end.
void oceq_history_end(History *_Nonnull h);
/// Caps the number of history entries (H_SETSIZE).
int oceq_history_set_size(History *_Nonnull h, int size);
/// Drops an entry equal to the one before it (H_SETUNIQUE).
int oceq_history_set_unique(History *_Nonnull h, int unique);
/// Adds an entry as the newest (H_ENTER).
int oceq_history_enter(History *_Nonnull h, const char *_Nonnull entry);
/// Adds the entries of the history file `path` (libedit's own format; H_LOAD): how many, or -1 when the file
/// cannot be read or is not a libedit history file.
int oceq_history_load(History *_Nonnull h, const char *_Nonnull path);
/// Writes every entry to `path` in libedit's format (H_SAVE): how many, or -1 on failure.
int oceq_history_save(History *_Nonnull h, const char *_Nonnull path);
/// Moves to an entry and returns its text, or NULL when there is none: `op` is H_LAST (the oldest) or H_PREV
/// (the next newer one).
const char *_Nullable oceq_history_step(History *_Nonnull h, int op);

#pragma clang diagnostic pop
