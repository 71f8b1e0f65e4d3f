// libcurl for Swift, linked normally (every client command transfers: see Package.swift for the
// figures). Only the variadic curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt need help:
// Swift cannot call a C variadic, so each argument type gets a typed wrapper here.
#pragma once
// Each wrapper passes one argument type for many options, which curl's compile-time type check (a
// macro over curl_easy_setopt) cannot follow; the wrappers' own prototypes type them instead.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

static inline CURLcode oceq_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode oceq_curl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode oceq_curl_setopt_header_fn(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode oceq_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode oceq_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

// CURLMsg keeps its result in a union; read it here rather than through Swift's union import.
static inline CURLcode oceq_curl_msg_result(CURLMsg *m) { return m->data.result; }
static inline int oceq_curl_msg_is_done(CURLMsg *m) { return m->msg == CURLMSG_DONE; }
