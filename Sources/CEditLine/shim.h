// Wrappers over libedit (histedit.h, not the readline emulation) for Swift: el_set, el_get and history are
// variadic, and Swift 6 rejects the C globals stdin, stdout and stderr, so each operation oceq uses gets a
// one-line static inline function here.
//
// libedit is opened with dlopen when the first line editor is made, not linked (as libcurl is: see
// Sources/CCurl/shim.h): only the interactive REPL edits lines, and linking libedit, libtinfo, libbsd
// and libmd cost every start of oceq, scripts and `--version` included, about 0.3 ms. The prototypes
// of the functions Swift calls are renamed while <histedit.h> is read, and functions of the same names
// call through a table filled by dlsym once per process.
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>
#define el_init oceq_prototype_el_init
#define el_end oceq_prototype_el_end
#define el_gets oceq_prototype_el_gets
#define el_set oceq_prototype_el_set
#define el_get oceq_prototype_el_get
#define el_source oceq_prototype_el_source
#define el_resize oceq_prototype_el_resize
#define el_line oceq_prototype_el_line
#define el_insertstr oceq_prototype_el_insertstr
#define el_deletestr oceq_prototype_el_deletestr
#define history_init oceq_prototype_history_init
#define history_end oceq_prototype_history_end
#define history oceq_prototype_history
#include <histedit.h>
#undef el_init
#undef el_end
#undef el_gets
#undef el_set
#undef el_get
#undef el_source
#undef el_resize
#undef el_line
#undef el_insertstr
#undef el_deletestr
#undef history_init
#undef history_end
#undef history
#include <dlfcn.h>
#include <pthread.h>

/// The libedit functions oceq calls, looked up once.
struct oceq_edit_api {
    EditLine *(*init)(const char *prog, FILE *in, FILE *out, FILE *err);
    void (*end)(EditLine *el);
    const char *(*gets)(EditLine *el, int *count);
    int (*set)(EditLine *el, int op, ...);
    int (*get)(EditLine *el, int op, ...);
    int (*source)(EditLine *el, const char *file);
    void (*resize)(EditLine *el);
    const LineInfo *(*line)(EditLine *el);
    int (*insertstr)(EditLine *el, const char *text);
    void (*deletestr)(EditLine *el, int count);
    History *(*history_init)(void);
    void (*history_end)(History *h);
    int (*history)(History *h, HistEvent *ev, int op, ...);
};

static inline struct oceq_edit_api *oceq_edit_table(void) {
    static struct oceq_edit_api table;
    return &table;
}

/// Looks `name` up in `library`; a missing function is an installation fault oceq cannot work around.
static inline void *oceq_edit_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol) {
        fprintf(stderr, "oceq: libedit.so.2 has no %s; reinstall libedit2\n", name);
        exit(127);
    }
    return symbol;
}

static void oceq_edit_load(void) {
    void *library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "oceq: cannot open libedit: %s (apt-get install libedit2)\n", dlerror());
        exit(127);
    }
    struct oceq_edit_api *api = oceq_edit_table();
    *(void **)&api->init = oceq_edit_symbol(library, "el_init");
    *(void **)&api->end = oceq_edit_symbol(library, "el_end");
    *(void **)&api->gets = oceq_edit_symbol(library, "el_gets");
    *(void **)&api->set = oceq_edit_symbol(library, "el_set");
    *(void **)&api->get = oceq_edit_symbol(library, "el_get");
    *(void **)&api->source = oceq_edit_symbol(library, "el_source");
    *(void **)&api->resize = oceq_edit_symbol(library, "el_resize");
    *(void **)&api->line = oceq_edit_symbol(library, "el_line");
    *(void **)&api->insertstr = oceq_edit_symbol(library, "el_insertstr");
    *(void **)&api->deletestr = oceq_edit_symbol(library, "el_deletestr");
    *(void **)&api->history_init = oceq_edit_symbol(library, "history_init");
    *(void **)&api->history_end = oceq_edit_symbol(library, "history_end");
    *(void **)&api->history = oceq_edit_symbol(library, "history");
}

/// The table, filled on the first call from any thread (libedit is opened then).
static inline const struct oceq_edit_api *oceq_edit(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_edit_load);
    return oceq_edit_table();
}

static inline void el_end(EditLine *el) { oceq_edit()->end(el); }
static inline const char *el_gets(EditLine *el, int *count) { return oceq_edit()->gets(el, count); }
static inline int el_source(EditLine *el, const char *file) { return oceq_edit()->source(el, file); }
static inline void el_resize(EditLine *el) { oceq_edit()->resize(el); }
static inline const LineInfo *el_line(EditLine *el) { return oceq_edit()->line(el); }
static inline int el_insertstr(EditLine *el, const char *text) { return oceq_edit()->insertstr(el, text); }
static inline void el_deletestr(EditLine *el, int count) { oceq_edit()->deletestr(el, count); }
static inline History *history_init(void) { return oceq_edit()->history_init(); }
static inline void history_end(History *h) { oceq_edit()->history_end(h); }

/// Signature of a prompt callback (EL_PROMPT, EL_PROMPT_ESC).
typedef char *(*oceq_el_prompt_fn)(EditLine *);
/// Signature of a named editor function (EL_ADDFN).
typedef unsigned char (*oceq_el_command_fn)(EditLine *, int);

/// el_init on the process's stdin, stdout and stderr.
static inline EditLine *oceq_el_init(const char *prog) { return oceq_edit()->init(prog, stdin, stdout, stderr); }

/// Writes a string to stdout (the FILE libedit writes to) and flushes it.
static inline void oceq_el_stdout_write(const char *s) {
    fputs(s, stdout);
    fflush(stdout);
}

/// Flushes stdout.
static inline void oceq_el_stdout_flush(void) { fflush(stdout); }

/// Stores the client data pointer (EL_CLIENTDATA).
static inline int oceq_el_set_clientdata(EditLine *el, void *data) { return oceq_edit()->set(el, EL_CLIENTDATA, data); }

/// Reads the client data pointer (EL_CLIENTDATA); NULL when unset or on error.
static inline void *oceq_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (oceq_edit()->get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

/// Lets libedit handle signals (EL_SIGNAL): restore the terminal on fatal ones, follow SIGWINCH and SIGCONT.
static inline int oceq_el_set_signal(EditLine *el, int on) { return oceq_edit()->set(el, EL_SIGNAL, on); }

/// Chooses the key bindings ("emacs" or "vi"); this reloads the default keymap.
static inline int oceq_el_set_editor(EditLine *el, const char *mode) { return oceq_edit()->set(el, EL_EDITOR, mode); }

/// Sets a prompt callback whose text may fence non-printing sequences between two `esc` characters.
static inline int oceq_el_set_prompt_esc(EditLine *el, oceq_el_prompt_fn fn, char esc) {
    return oceq_edit()->set(el, EL_PROMPT_ESC, fn, esc);
}

/// Registers a named editor function that key bindings can refer to (EL_ADDFN).
static inline int oceq_el_add_function(EditLine *el, const char *name, const char *help, oceq_el_command_fn fn) {
    return oceq_edit()->set(el, EL_ADDFN, name, help, fn);
}

/// Binds a key sequence (in `bind` notation, e.g. "^I") to a named editor function (EL_BIND).
static inline int oceq_el_bind(EditLine *el, const char *key, const char *function) {
    return oceq_edit()->set(el, EL_BIND, key, function, (const char *)NULL);
}

/// Attaches a history to the editor (EL_HIST) so that arrows and searches walk it.
static inline int oceq_el_set_history(EditLine *el, History *h) { return oceq_edit()->set(el, EL_HIST, oceq_edit()->history, h); }

/// Replaces libedit's read-a-character function (EL_GETCFN).
static inline int oceq_el_set_getcfn(EditLine *el, el_rfunc_t fn) { return oceq_edit()->set(el, EL_GETCFN, fn); }

/// Puts the terminal into libedit's editing mode now (on = 1) or back (on = 0) (EL_PREP_TERM). el_gets itself
/// switches only when it reads the first key, after it has drawn the prompt.
static inline int oceq_el_prep_term(EditLine *el, int on) { return oceq_edit()->set(el, EL_PREP_TERM, on); }

/// Takes an end of file that waits at the head of terminal `fd`'s input queue in canonical mode (Ctrl-D typed
/// on an empty line while no line was being edited): 1 when one was taken, else 0 with nothing read. Linux
/// queues it as a NUL byte that FIONREAD does not count; poll() still reports it readable.
static inline int oceq_take_pending_eof(int fd) {
    struct termios mode;
    if (tcgetattr(fd, &mode) != 0 || !(mode.c_lflag & ICANON)) return 0;
    struct pollfd ready = {fd, POLLIN, 0};
    if (poll(&ready, 1, 0) != 1 || !(ready.revents & POLLIN)) return 0;
    int queued = -1;
    if (ioctl(fd, FIONREAD, &queued) != 0 || queued != 0) return 0;
    char byte;
    return read(fd, &byte, 1) == 0;
}

/// Redraws the prompt and line (EL_REFRESH).
static inline int oceq_el_refresh(EditLine *el) { return oceq_edit()->set(el, EL_REFRESH); }

/// Caps the number of history entries (H_SETSIZE).
static inline int oceq_history_set_size(History *h, int size) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_SETSIZE, size);
}

/// Drops an entry equal to the one before it (H_SETUNIQUE).
static inline int oceq_history_set_unique(History *h, int unique) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_SETUNIQUE, unique);
}

/// Adds an entry as the newest (H_ENTER).
static inline int oceq_history_enter(History *h, const char *entry) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_ENTER, entry);
}

/// Forgets every entry (H_CLEAR).
static inline int oceq_history_clear(History *h) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_CLEAR);
}

/// Adds the entries of the history file `path` (libedit's own format; H_LOAD): how many, or -1 when the file
/// cannot be read or is not a libedit history file.
static inline int oceq_history_load(History *h, const char *path) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_LOAD, path);
}

/// Writes every entry to `path` in libedit's format (H_SAVE): how many, or -1 on failure.
static inline int oceq_history_save(History *h, const char *path) {
    HistEvent ev;
    return oceq_edit()->history(h, &ev, H_SAVE, path);
}

/// Moves to an entry and returns its text, or NULL when there is none: `op` is H_LAST (the oldest) or H_PREV
/// (the next newer one).
static inline const char *oceq_history_step(History *h, int op) {
    HistEvent ev;
    if (oceq_edit()->history(h, &ev, op) != 0) return NULL;
    return ev.str;
}

/// The terminal's width in columns on stdout, or 0 when it is not a terminal.
static inline int oceq_terminal_columns(void) {
    struct winsize size;
    if (ioctl(1, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

/// pipe() with both ends close-on-exec and non-blocking (pipe2 needs _GNU_SOURCE, which Swift doesn't see).
static inline int oceq_pipe_nonblocking(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[i], F_SETFL, O_NONBLOCK) != 0) {
            close(fds[0]);
            close(fds[1]);
            return -1;
        }
    }
    return 0;
}
