// Non-variadic wrappers over libcurl's curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt.
#pragma once
#include <curl/curl.h>

static inline CURLcode oceq_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode oceq_curl_setopt_header_fn(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode oceq_curl_setopt_xferinfo(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode oceq_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode oceq_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode oceq_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

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
