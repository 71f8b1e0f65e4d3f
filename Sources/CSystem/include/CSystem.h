// The C that oceq needs from libc and the dynamic loader, in one place: helpers Swift cannot reach
// (glibc declares them only under _GNU_SOURCE or _XOPEN_SOURCE, or they are macros or variadic), and
// the one mechanism that opens a library at first use (see "Libraries opened at first use" below).
#pragma once
// The table fields are _Nonnull (Swift calls them without unwrapping); the rest of the header is not annotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-completeness-on-arrays"
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <dlfcn.h>

// MARK: - Libraries opened at first use
//
// A library that only some commands need is opened with dlopen when one of them first needs it, so
// that every other start of oceq does not load it and its dependencies. Each such shim (CSQLite,
// CMicroHTTPD, CArchive, CVips, CLibXML2, CChafa, CICU) lists the functions it calls once, in an X-macro
// `OCEQ_<LIB>_FUNCTIONS(F)`, and gets from it:
// - a table whose fields are declared `__typeof__(&function)` from the library's own header, so a
//   call through the table is checked by the compiler against the real prototype;
// - `oceq_<lib>()`: the table, filled on the first call from any thread, or NULL when the library or
//   one of its functions is missing; `oceq_<lib>_error()` then says which, for Swift to throw.
// No constant, type or structure is copied from a header, and nothing here exits the process.

/// A table field for library function `name`, typed by the library's header (never NULL once loaded).
#define OCEQ_LIBRARY_FIELD(name) __typeof__(&name) _Nonnull name;
/// The name of library function `name`, for dlsym.
#define OCEQ_LIBRARY_NAME(name) #name,

/// Declares the table `struct oceq_<prefix>_api` and its accessors (for a shim's public header).
#define OCEQ_LIBRARY_DECLARE(prefix, FUNCTIONS) \
    struct oceq_##prefix##_api { FUNCTIONS(OCEQ_LIBRARY_FIELD) }; \
    /** The library's functions, opened at first use; NULL when the library cannot be used. */ \
    const struct oceq_##prefix##_api *_Nullable oceq_##prefix(void); \
    /** Why oceq_<prefix>() is NULL (the loader's message), or NULL when it is not. */ \
    const char *_Nullable oceq_##prefix##_error(void);

/// Defines what OCEQ_LIBRARY_DECLARE declared, opening `soname` with dlopen `flags` (for the shim's
/// one .c file).
#define OCEQ_LIBRARY_DEFINE(prefix, soname, flags, FUNCTIONS) \
    static const char *const oceq_##prefix##_names[] = { FUNCTIONS(OCEQ_LIBRARY_NAME) }; \
    static struct oceq_##prefix##_api oceq_##prefix##_table; \
    _Static_assert(sizeof oceq_##prefix##_table == sizeof oceq_##prefix##_names, "one pointer per function"); \
    static pthread_once_t oceq_##prefix##_once = PTHREAD_ONCE_INIT; \
    static int oceq_##prefix##_status = -1; \
    static char oceq_##prefix##_message[512]; \
    static void oceq_##prefix##_load(void) { \
        oceq_##prefix##_status = oceq_library_open( \
            soname, flags, oceq_##prefix##_names, (void **)&oceq_##prefix##_table, \
            sizeof oceq_##prefix##_names / sizeof oceq_##prefix##_names[0], oceq_##prefix##_message, \
            sizeof oceq_##prefix##_message); \
    } \
    const struct oceq_##prefix##_api *oceq_##prefix(void) { \
        pthread_once(&oceq_##prefix##_once, oceq_##prefix##_load); \
        return oceq_##prefix##_status == 0 ? &oceq_##prefix##_table : NULL; \
    } \
    const char *oceq_##prefix##_error(void) { \
        pthread_once(&oceq_##prefix##_once, oceq_##prefix##_load); \
        return oceq_##prefix##_status == 0 ? NULL : oceq_##prefix##_message; \
    }

/// Opens `soname` with dlopen `flags` (RTLD_NOW | RTLD_LOCAL, say) and stores the address of each of the `count` functions in
/// `names` in `slots`. 0 on success; -1 when the library or a function is missing, with a one-line
/// reason in `error` (the library stays closed then).
int oceq_library_open(const char *_Nonnull soname, int flags, const char *_Nonnull const *_Nonnull names,
                      void *_Nullable *_Nonnull slots, size_t count, char *_Nonnull error, size_t error_size);

// MARK: - Files

/// sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE): starts write-back of a range without
/// waiting for it (Linux only; glibc declares it only under _GNU_SOURCE, hence the raw syscall).
/// Returns 0, or -1 with errno.
static inline int oceq_sync_file_range_write(int fd, long long offset, long long length) {
#ifdef SYS_sync_file_range
    return (int)syscall(SYS_sync_file_range, fd, (off_t)offset, (off_t)length, 2u /* SYNC_FILE_RANGE_WRITE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// syncfs(fd): writes out and commits the whole file system that holds fd, with one journal commit
/// and one disk cache flush (glibc declares it only under _GNU_SOURCE). Returns 0, or -1 with errno.
static inline int oceq_syncfs(int fd) {
#ifdef SYS_syncfs
    return (int)syscall(SYS_syncfs, fd);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// O_DIRECT, which glibc names only under _GNU_SOURCE (its value, __O_DIRECT, always): a file opened
/// with it is written straight from the caller's memory to the disk, past the page cache.
#if defined(O_DIRECT)
#define OCEQ_O_DIRECT O_DIRECT
#elif defined(__O_DIRECT)
#define OCEQ_O_DIRECT __O_DIRECT
#else
#define OCEQ_O_DIRECT 0
#endif
static inline int oceq_o_direct(void) { return OCEQ_O_DIRECT; }

/// Turns O_DIRECT off on an open file, so that its next writes go through the page cache (they
/// need no alignment then). Returns 0, or -1 with errno.
static inline int oceq_stop_direct(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags & ~OCEQ_O_DIRECT);
}

/// sync_file_range(fd, 0, 0, WAIT_BEFORE | WRITE | WAIT_AFTER): writes a file's dirty pages and
/// waits for them, reporting that file's write-back errors (no journal commit, no cache flush).
static inline int oceq_sync_file_range_wait(int fd) {
#ifdef SYS_sync_file_range
    return (int)syscall(SYS_sync_file_range, fd, (off_t)0, (off_t)0, 7u);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC | extra, 0644): a new file in `folder`'s file system with
/// no name yet (Linux 3.11; O_TMPFILE is named only under _GNU_SOURCE). Creating it takes no lock on
/// the folder, as naming a file does; `oceq_link_open_file` names it once it is complete. Returns the
/// descriptor, or -1 with errno (EOPNOTSUPP or EISDIR: the file system or kernel has no O_TMPFILE).
int oceq_open_tmpfile(const char *_Nonnull folder, int extra);

/// Gives the file open as `fd` (opened with `oceq_open_tmpfile`, or any file with links left) the name
/// `path`: linkat with AT_EMPTY_PATH, or through /proc/self/fd where that is refused (before Linux
/// 6.10 it needs CAP_DAC_READ_SEARCH). Never replaces anything at `path` and never follows a link
/// there (EEXIST). Returns 0, or -1 with errno.
int oceq_link_open_file(int fd, const char *_Nonnull path);

/// openat2(AT_FDCWD, path, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS): opens `path` without reading
/// it, only when no component of it is a symbolic link (Linux 5.6; glibc has no wrapper). Returns the
/// descriptor, or -1 with errno (ELOOP: a link on the way; ENOSYS or EPERM: no openat2 here).
static inline int oceq_open_path_without_links(const char *path) {
#ifdef SYS_openat2
    struct {
        unsigned long long flags, mode, resolve;
    } how = {010000000ull /* O_PATH */ | O_CLOEXEC, 0, 0x04ull /* RESOLVE_NO_SYMLINKS */};
    return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// fsetxattr(2) with no flags.
static inline long oceq_fsetxattr(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}
/// getxattr(2).
static inline long oceq_getxattr(const char *path, const char *name, void *value, size_t size) {
    return getxattr(path, name, value, size);
}
/// fremovexattr(2).
static inline long oceq_fremovexattr(int fd, const char *name) { return fremovexattr(fd, name); }
/// removexattr(2).
static inline long oceq_removexattr(const char *path, const char *name) { return removexattr(path, name); }

// MARK: - Memory (`oceq serve` only)

/// Returns freed heap pages to the system (glibc keeps them otherwise); the server calls it once
/// after loading, which frees far more than it keeps.
static inline void oceq_release_free_memory(void) { malloc_trim(0); }

/// Caps glibc's per-thread heaps (mallopt M_ARENA_MAX): a server loading in parallel and serving from
/// a pool otherwise keeps one fragmented arena per thread. A process-wide setting, so only `oceq
/// serve`'s start-up calls it, never a library that the REPL also uses.
static inline void oceq_limit_heap_arenas(int count) { mallopt(M_ARENA_MAX, count); }

/// Keeps the client's freed heap for reuse (mallopt: M_MMAP_THRESHOLD 1 MiB, M_TRIM_THRESHOLD 8 MiB).
/// glibc's defaults map each block of 128 KiB or more (libcurl's 512 KiB receive buffer per transfer)
/// on its own and give back the top of a heap past 128 KiB, so a download of many files faulted
/// the same pages in again and again: 500 files, 4,600 page faults, and 2,600 with these (CPU 1-12 %
/// less, depending on the round). A process-wide setting that stops glibc's own adjusting of both thresholds, so only
/// the executable calls it, for the client; `oceq serve` keeps the defaults (its RSS is a goal).
/// Also M_TOP_PAD 8 MiB, which sets how much of a thread's new heap is made writable at once: a heap
/// of a thread other than the main one otherwise grows a page or two at a time, each step an
/// `mprotect` that splits the mapping (a download of 74 files made 242 `mprotect` calls, 48 with
/// this; the pages are still touched only when used, so the RSS is the same).
static inline void oceq_keep_freed_heap(void) {
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    mallopt(M_TOP_PAD, 8 << 20);
}

// MARK: - Terminal

/// The display width of a character (wcwidth(3): -1 for non-printable, 0 for combining, 2 for wide).
/// Declared here because glibc declares it only under _XOPEN_SOURCE, which the Glibc module lacks.
int wcwidth(wchar_t character);

/// Writes a string to stdout (the FILE libedit writes to) and flushes it (Swift 6 rejects the C
/// global `stdout`).
static inline void oceq_el_stdout_write(const char *s) {
    fputs(s, stdout);
    fflush(stdout);
}

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

// MARK: - Child processes (the tests' ChildProcess)

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, so a child another thread starts
/// meanwhile never holds them (pipe2 needs _GNU_SOURCE). Returns 0, or -1 with errno.
int oceq_pipe_cloexec(int fds[_Nonnull 2]);

/// posix_spawn_file_actions_addchdir_np: the child changes to `path` at this point of its file
/// actions (glibc 2.29; declared only under _GNU_SOURCE). Returns 0 or an error number.
int oceq_spawn_addchdir(posix_spawn_file_actions_t *_Nonnull actions, const char *_Nonnull path);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `lowest` up at
/// this point of its file actions (glibc 2.34; declared only under _GNU_SOURCE). Returns 0 or an
/// error number.
int oceq_spawn_addclosefrom(posix_spawn_file_actions_t *_Nonnull actions, int lowest);

/// The executable's zero-initialised data (its `.bss`, the Swift runtime's caches included), rounded out
/// to whole pages.
void oceq_static_zero_data(void *_Nullable *_Nonnull start, size_t *_Nonnull length);

/// Makes every page of the executable's `.bss` present and writable now (madvise MADV_POPULATE_WRITE,
/// Linux 5.14 and later), for a process about to start threads. Until written, such a page maps the
/// kernel's shared zero page once read; its first write then replaces it, and once a second thread
/// runs on another CPU that replacement flushes that CPU's TLB with an inter-processor interrupt the
/// writer waits for, costly in a VM. The Swift runtime reads, then fills, its metadata and
/// `swift_once` caches there as each type and global is first used: about 30 such writes after the
/// engine thread starts, every run. Returns madvise's result (-1 with errno EINVAL on an older
/// kernel, where nothing changes).
int oceq_populate_static_zero_data(void);

/// Makes a thread created with `attributes` start on a CPU other than the calling thread's, when the
/// caller may run on two or more: Linux otherwise often queues a new thread behind its creator on the
/// creator's CPU while another CPU is idle (on the 2-vCPU VM the engine thread waited 1.1 ms there,
/// delaying every one-shot's first request). The new thread lifts this with `oceq_thread_run_anywhere`.
/// Returns 1 when set, else 0 (one CPU, or the calls failed: the thread starts as it would have).
int oceq_thread_attr_elsewhere(pthread_attr_t *_Nonnull attributes);

/// Lets the calling thread run on every CPU the process's main thread may run on (what a thread
/// started with `oceq_thread_attr_elsewhere` calls first).
void oceq_thread_run_anywhere(void);

/// How many CPUs the calling thread may run on (0 when that cannot be read).
int oceq_thread_cpu_count(void);

/// accept4(fd, address, length, SOCK_CLOEXEC): a connection of a listening socket, closed on exec;
/// `address` is a `struct sockaddr_storage`.
int oceq_accept_cloexec(int fd, void *address, socklen_t *length);

#pragma clang diagnostic pop
