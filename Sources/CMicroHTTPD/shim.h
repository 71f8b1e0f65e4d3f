// libmicrohttpd for Swift, opened with dlopen at first use instead of linked (as libcurl is: see
// Sources/CCurl/shim.h). Linking it loaded GnuTLS and its dependencies into every start of oceq, about
// 1.2 ms; now `oceq serve` (or a `url` that is a folder) opens libmicrohttpd.so.12 when it starts a
// daemon. The prototypes of the functions oceq calls are renamed while <microhttpd.h> is read, and
// functions of the same names call through a table filled by dlsym once per process, so the Swift code
// calls MHD_queue_response() and the rest as before. The variadic MHD_start_daemon, MHD_get_daemon_info
// and MHD_get_connection_info are reached through the oceq_mhd_* wrappers below.
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#define MHD_add_response_header oceq_prototype_MHD_add_response_header
#define MHD_create_response_from_buffer oceq_prototype_MHD_create_response_from_buffer
#define MHD_create_response_from_callback oceq_prototype_MHD_create_response_from_callback
#define MHD_create_response_from_fd_at_offset64 oceq_prototype_MHD_create_response_from_fd_at_offset64
#define MHD_destroy_response oceq_prototype_MHD_destroy_response
#define MHD_get_connection_values oceq_prototype_MHD_get_connection_values
#define MHD_queue_response oceq_prototype_MHD_queue_response
#define MHD_stop_daemon oceq_prototype_MHD_stop_daemon
#include <microhttpd.h>
#undef MHD_add_response_header
#undef MHD_create_response_from_buffer
#undef MHD_create_response_from_callback
#undef MHD_create_response_from_fd_at_offset64
#undef MHD_destroy_response
#undef MHD_get_connection_values
#undef MHD_queue_response
#undef MHD_stop_daemon
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// The libmicrohttpd functions oceq calls, looked up once.
struct oceq_mhd_api {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                       MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *connection,
                                                           enum MHD_ConnectionInfoType type, ...);
    int (*get_connection_values)(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                 MHD_KeyValueIterator iterator, void *iterator_cls);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                          void *crc_cls, MHD_ContentReaderFreeCallback crfc);
    struct MHD_Response *(*create_response_from_fd_at_offset64)(uint64_t size, int fd, uint64_t offset);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status_code,
                                      struct MHD_Response *response);
    void (*destroy_response)(struct MHD_Response *response);
};

static inline struct oceq_mhd_api *oceq_mhd_table(void) {
    static struct oceq_mhd_api table;
    return &table;
}

/// Looks `name` up in `library`; a missing function is an installation fault oceq cannot work around.
static inline void *oceq_mhd_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol) {
        fprintf(stderr, "oceq: libmicrohttpd.so.12 has no %s; reinstall libmicrohttpd12\n", name);
        exit(127);
    }
    return symbol;
}

static void oceq_mhd_load(void) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "oceq: cannot open libmicrohttpd: %s (apt-get install libmicrohttpd12)\n", dlerror());
        exit(127);
    }
    struct oceq_mhd_api *api = oceq_mhd_table();
    *(void **)&api->start_daemon = oceq_mhd_symbol(library, "MHD_start_daemon");
    *(void **)&api->stop_daemon = oceq_mhd_symbol(library, "MHD_stop_daemon");
    *(void **)&api->get_daemon_info = oceq_mhd_symbol(library, "MHD_get_daemon_info");
    *(void **)&api->get_connection_info = oceq_mhd_symbol(library, "MHD_get_connection_info");
    *(void **)&api->get_connection_values = oceq_mhd_symbol(library, "MHD_get_connection_values");
    *(void **)&api->create_response_from_buffer = oceq_mhd_symbol(library, "MHD_create_response_from_buffer");
    *(void **)&api->create_response_from_callback = oceq_mhd_symbol(library, "MHD_create_response_from_callback");
    *(void **)&api->create_response_from_fd_at_offset64 =
        oceq_mhd_symbol(library, "MHD_create_response_from_fd_at_offset64");
    *(void **)&api->add_response_header = oceq_mhd_symbol(library, "MHD_add_response_header");
    *(void **)&api->queue_response = oceq_mhd_symbol(library, "MHD_queue_response");
    *(void **)&api->destroy_response = oceq_mhd_symbol(library, "MHD_destroy_response");
}

/// The table, filled on the first call from any thread (libmicrohttpd is opened then).
static inline const struct oceq_mhd_api *oceq_mhd(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_mhd_load);
    return oceq_mhd_table();
}

static inline void MHD_stop_daemon(struct MHD_Daemon *daemon) { oceq_mhd()->stop_daemon(daemon); }
static inline int MHD_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                            MHD_KeyValueIterator iterator, void *iterator_cls) {
    return oceq_mhd()->get_connection_values(connection, kind, iterator, iterator_cls);
}
static inline struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
                                                                   enum MHD_ResponseMemoryMode mode) {
    return oceq_mhd()->create_response_from_buffer(size, buffer, mode);
}
static inline struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
                                                                     MHD_ContentReaderCallback crc, void *crc_cls,
                                                                     MHD_ContentReaderFreeCallback crfc) {
    return oceq_mhd()->create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}
static inline struct MHD_Response *MHD_create_response_from_fd_at_offset64(uint64_t size, int fd, uint64_t offset) {
    return oceq_mhd()->create_response_from_fd_at_offset64(size, fd, offset);
}
static inline enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header,
                                                      const char *content) {
    return oceq_mhd()->add_response_header(response, header, content);
}
static inline enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                                 struct MHD_Response *response) {
    return oceq_mhd()->queue_response(connection, status_code, response);
}
static inline void MHD_destroy_response(struct MHD_Response *response) { oceq_mhd()->destroy_response(response); }

/// Starts an internal-polling daemon with a thread pool, bound to `addr` (IPv4 or IPv6).
/// `uri_log` sees the raw request target before MHD decodes it; its result becomes the request's context.
static inline struct MHD_Daemon *oceq_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *addr,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection), void *uri_log_cls,
    unsigned int thread_pool_size, unsigned int connection_limit,
    unsigned int connection_timeout, size_t memory_limit) {
    return oceq_mhd()->start_daemon(
        flags, port, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
        MHD_OPTION_END);
}

/// The port a daemon actually listens on (for `--port 0`).
static inline uint16_t oceq_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = oceq_mhd()->get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *oceq_mhd_client_addr(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = oceq_mhd()->get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The socket of a connection, or -1.
static inline int oceq_mhd_socket(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = oceq_mhd()->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

#include <malloc.h>
/// Returns freed heap pages to the system (glibc keeps them otherwise); the server calls it once
/// after loading, which frees far more than it keeps.
static inline void oceq_release_free_memory(void) {
    malloc_trim(0);
}

/// Caps glibc's per-thread heaps: a server loading in parallel and serving from a pool otherwise
/// keeps one fragmented arena per thread.
static inline void oceq_limit_heap_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}
