// Wrappers over libedit (histedit.h, not the readline emulation) for Swift: el_set, el_get and history are
// variadic, and Swift 6 rejects the C globals stdin, stdout and stderr, so each operation oceq uses gets a
// one-line static inline function here.
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <histedit.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/// Signature of a prompt callback (EL_PROMPT, EL_PROMPT_ESC).
typedef char *(*oceq_el_prompt_fn)(EditLine *);
/// Signature of a named editor function (EL_ADDFN).
typedef unsigned char (*oceq_el_command_fn)(EditLine *, int);

/// el_init on the process's stdin, stdout and stderr.
static inline EditLine *oceq_el_init(const char *prog) { return el_init(prog, stdin, stdout, stderr); }

/// Writes a string to stdout (the FILE libedit writes to) and flushes it.
static inline void oceq_el_stdout_write(const char *s) {
    fputs(s, stdout);
    fflush(stdout);
}

/// Flushes stdout.
static inline void oceq_el_stdout_flush(void) { fflush(stdout); }

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
