// libcurl for Swift, opened with dlopen at first use instead of linked.
//
// Linking libcurl made every start of oceq load some thirty libraries (OpenSSL, GnuTLS, Kerberos, LDAP,
// SSH, RTMP, ...) and resolve thousands of their symbols: about 4 ms of the 10 ms `oceq --version`
// took. Now the first transfer opens libcurl.so.4 (Debian's libcurl4, the ABI of the headers here).
//
// How: libcurl's prototypes for the functions oceq calls are renamed while <curl/curl.h> is read (so
// nothing refers to libcurl's symbols), and functions of the same names and signatures are defined
// below that call through a table filled by dlsym once per process. Swift code calls curl_easy_init()
// and the rest as before. The variadic curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are
// reached through the typed oceq_curl_* wrappers only. The Package.swift target declares no pkg-config
// module and the modulemap no link, so the linker never adds -lcurl.
#pragma once
#define curl_global_init oceq_prototype_curl_global_init
#define curl_version oceq_prototype_curl_version
#define curl_easy_init oceq_prototype_curl_easy_init
#define curl_easy_cleanup oceq_prototype_curl_easy_cleanup
#define curl_easy_reset oceq_prototype_curl_easy_reset
#define curl_easy_strerror oceq_prototype_curl_easy_strerror
#define curl_multi_init oceq_prototype_curl_multi_init
#define curl_multi_add_handle oceq_prototype_curl_multi_add_handle
#define curl_multi_remove_handle oceq_prototype_curl_multi_remove_handle
#define curl_multi_cleanup oceq_prototype_curl_multi_cleanup
#define curl_multi_info_read oceq_prototype_curl_multi_info_read
#define curl_multi_perform oceq_prototype_curl_multi_perform
#define curl_multi_poll oceq_prototype_curl_multi_poll
#define curl_multi_wakeup oceq_prototype_curl_multi_wakeup
#define curl_slist_append oceq_prototype_curl_slist_append
#define curl_slist_free_all oceq_prototype_curl_slist_free_all
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#undef curl_global_init
#undef curl_version
#undef curl_easy_init
#undef curl_easy_cleanup
#undef curl_easy_reset
#undef curl_easy_strerror
#undef curl_multi_init
#undef curl_multi_add_handle
#undef curl_multi_remove_handle
#undef curl_multi_cleanup
#undef curl_multi_info_read
#undef curl_multi_perform
#undef curl_multi_poll
#undef curl_multi_wakeup
#undef curl_slist_append
#undef curl_slist_free_all
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_multi_setopt

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// The libcurl functions oceq calls, looked up once.
struct oceq_curl_api {
    CURLcode (*global_init)(long flags);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    void (*easy_reset)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd fds[], unsigned int count, int timeout, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
};

static inline struct oceq_curl_api *oceq_curl_table(void) {
    static struct oceq_curl_api table;
    return &table;
}

/// Looks `name` up in `library`; a missing function is an installation fault oceq cannot work around.
static inline void *oceq_curl_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol) {
        fprintf(stderr, "oceq: libcurl.so.4 has no %s; reinstall libcurl4 (apt-get install libcurl4)\n", name);
        exit(127);
    }
    return symbol;
}

/// How libcurl is opened. Deep binding makes its thirty-odd libraries find each other's symbols before
/// looking through oceq's own exports: an eighth fewer instructions for a one-shot `oceq -c 'list ...'`
/// (callgrind: 35.5M -> 31.3M). The sanitizers' runtimes refuse RTLD_DEEPBIND, so not under them.
static inline int oceq_curl_open_flags(void) {
    int flags = RTLD_NOW | RTLD_LOCAL;
    if (!dlsym(NULL, "__asan_init") && !dlsym(NULL, "__tsan_init")) flags |= RTLD_DEEPBIND;
    return flags;
}

static void oceq_curl_load(void) {
    void *library = dlopen("libcurl.so.4", oceq_curl_open_flags());
    if (!library) {
        fprintf(stderr, "oceq: cannot open libcurl: %s (apt-get install libcurl4)\n", dlerror());
        exit(127);
    }
    struct oceq_curl_api *api = oceq_curl_table();
    *(void **)&api->global_init = oceq_curl_symbol(library, "curl_global_init");
    *(void **)&api->version = oceq_curl_symbol(library, "curl_version");
    *(void **)&api->easy_init = oceq_curl_symbol(library, "curl_easy_init");
    *(void **)&api->easy_cleanup = oceq_curl_symbol(library, "curl_easy_cleanup");
    *(void **)&api->easy_reset = oceq_curl_symbol(library, "curl_easy_reset");
    *(void **)&api->easy_strerror = oceq_curl_symbol(library, "curl_easy_strerror");
    *(void **)&api->easy_setopt = oceq_curl_symbol(library, "curl_easy_setopt");
    *(void **)&api->easy_getinfo = oceq_curl_symbol(library, "curl_easy_getinfo");
    *(void **)&api->multi_init = oceq_curl_symbol(library, "curl_multi_init");
    *(void **)&api->multi_add_handle = oceq_curl_symbol(library, "curl_multi_add_handle");
    *(void **)&api->multi_remove_handle = oceq_curl_symbol(library, "curl_multi_remove_handle");
    *(void **)&api->multi_cleanup = oceq_curl_symbol(library, "curl_multi_cleanup");
    *(void **)&api->multi_info_read = oceq_curl_symbol(library, "curl_multi_info_read");
    *(void **)&api->multi_perform = oceq_curl_symbol(library, "curl_multi_perform");
    *(void **)&api->multi_poll = oceq_curl_symbol(library, "curl_multi_poll");
    *(void **)&api->multi_wakeup = oceq_curl_symbol(library, "curl_multi_wakeup");
    *(void **)&api->multi_setopt = oceq_curl_symbol(library, "curl_multi_setopt");
    *(void **)&api->slist_append = oceq_curl_symbol(library, "curl_slist_append");
    *(void **)&api->slist_free_all = oceq_curl_symbol(library, "curl_slist_free_all");
}

/// The table, filled on the first call from any thread (libcurl is opened then).
static inline const struct oceq_curl_api *oceq_curl(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_curl_load);
    return oceq_curl_table();
}

static inline CURLcode curl_global_init(long flags) { return oceq_curl()->global_init(flags); }
static inline char *curl_version(void) { return oceq_curl()->version(); }
static inline CURL *curl_easy_init(void) { return oceq_curl()->easy_init(); }
static inline void curl_easy_cleanup(CURL *curl) { oceq_curl()->easy_cleanup(curl); }
static inline void curl_easy_reset(CURL *curl) { oceq_curl()->easy_reset(curl); }
static inline const char *curl_easy_strerror(CURLcode code) { return oceq_curl()->easy_strerror(code); }
static inline CURLM *curl_multi_init(void) { return oceq_curl()->multi_init(); }
static inline CURLMcode curl_multi_add_handle(CURLM *multi, CURL *curl) {
    return oceq_curl()->multi_add_handle(multi, curl);
}
static inline CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *curl) {
    return oceq_curl()->multi_remove_handle(multi, curl);
}
static inline CURLMcode curl_multi_cleanup(CURLM *multi) { return oceq_curl()->multi_cleanup(multi); }
static inline CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
    return oceq_curl()->multi_info_read(multi, queued);
}
static inline CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return oceq_curl()->multi_perform(multi, running);
}
static inline CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd fds[], unsigned int count, int timeout, int *ready) {
    return oceq_curl()->multi_poll(multi, fds, count, timeout, ready);
}
static inline CURLMcode curl_multi_wakeup(CURLM *multi) { return oceq_curl()->multi_wakeup(multi); }
static inline struct curl_slist *curl_slist_append(struct curl_slist *list, const char *line) {
    return oceq_curl()->slist_append(list, line);
}
static inline void curl_slist_free_all(struct curl_slist *list) { oceq_curl()->slist_free_all(list); }

// Non-variadic wrappers over curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt.
static inline CURLcode oceq_curl_setopt_long(CURL *h, CURLoption o, long v) { return oceq_curl()->easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_string(CURL *h, CURLoption o, const char *v) {
    return oceq_curl()->easy_setopt(h, o, v);
}
static inline CURLcode oceq_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return oceq_curl()->easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return oceq_curl()->easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return oceq_curl()->easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode oceq_curl_setopt_header_fn(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return oceq_curl()->easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode oceq_curl_setopt_xferinfo(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return oceq_curl()->easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode oceq_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return oceq_curl()->easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return oceq_curl()->easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return oceq_curl()->easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return oceq_curl()->easy_getinfo(h, i, v); }
static inline CURLMcode oceq_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return oceq_curl()->multi_setopt(m, o, v);
}

// CURLMsg keeps its result in a union; read it here rather than through Swift's union import.
static inline CURLcode oceq_curl_msg_result(CURLMsg *m) { return m->data.result; }
static inline int oceq_curl_msg_is_done(CURLMsg *m) { return m->msg == CURLMSG_DONE; }

// Download file helpers (not libcurl, but this is the package's one C shim).
#include <errno.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

// sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE): starts write-back of a range without
// waiting for it (Linux only; glibc declares it only under _GNU_SOURCE, hence the raw syscall).
// Returns 0, or -1 with errno.
static inline int oceq_sync_file_range_write(int fd, long long offset, long long length) {
#ifdef SYS_sync_file_range
    return (int)syscall(SYS_sync_file_range, fd, (off_t)offset, (off_t)length, 2u /* SYNC_FILE_RANGE_WRITE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}
// syncfs(fd): writes out and commits the whole file system that holds fd, with one journal commit
// and one disk cache flush (glibc declares it only under _GNU_SOURCE). Returns 0, or -1 with errno.
static inline int oceq_syncfs(int fd) {
#ifdef SYS_syncfs
    return (int)syscall(SYS_syncfs, fd);
#else
    errno = ENOSYS;
    return -1;
#endif
}
// sync_file_range(fd, 0, 0, WAIT_BEFORE | WRITE | WAIT_AFTER): writes a file's dirty pages and
// waits for them, reporting that file's write-back errors (no journal commit, no cache flush).
static inline int oceq_sync_file_range_wait(int fd) {
#ifdef SYS_sync_file_range
    return (int)syscall(SYS_sync_file_range, fd, (off_t)0, (off_t)0, 7u);
#else
    errno = ENOSYS;
    return -1;
#endif
}
static inline long oceq_fsetxattr(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}
static inline long oceq_fgetxattr(int fd, const char *name, void *value, size_t size) {
    return fgetxattr(fd, name, value, size);
}
static inline long oceq_getxattr(const char *path, const char *name, void *value, size_t size) {
    return getxattr(path, name, value, size);
}
static inline long oceq_fremovexattr(int fd, const char *name) { return fremovexattr(fd, name); }
static inline long oceq_removexattr(const char *path, const char *name) { return removexattr(path, name); }
