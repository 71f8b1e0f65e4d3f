// Non-variadic wrappers over libmicrohttpd for Swift.
#pragma once
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts an internal-polling daemon with a thread pool, bound to `addr` (IPv4 or IPv6).
/// `uri_log` sees the raw request target before MHD decodes it; its result becomes the request's context.
static inline struct MHD_Daemon *oceq_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *addr,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection), void *uri_log_cls,
    unsigned int thread_pool_size, unsigned int connection_limit,
    unsigned int connection_timeout, size_t memory_limit) {
    return MHD_start_daemon(
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
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *oceq_mhd_client_addr(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// The socket of a connection, or -1.
static inline int oceq_mhd_socket(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
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
