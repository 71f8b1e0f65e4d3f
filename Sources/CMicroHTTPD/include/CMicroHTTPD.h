// libmicrohttpd for Swift, opened at first use (it loads GnuTLS and its dependencies, about 1.2 ms of
// every start of oceq when linked; now `oceq serve`, or a `url` that is a folder, opens it when it starts
// a daemon) through CSystem's loader: `oceq_mhd()` is the table of the functions below, typed by
// <microhttpd.h>, or NULL with `oceq_mhd_error()` saying why. The variadic MHD_start_daemon,
// MHD_get_daemon_info and MHD_get_connection_info are reached through the oceq_mhd_* wrappers below.
#pragma once
// The table fields are _Nonnull (Swift calls them without unwrapping); the rest of the header is not annotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-completeness-on-arrays"
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include "CSystem.h"

#define OCEQ_MHD_FUNCTIONS(F) \
    F(MHD_start_daemon) F(MHD_stop_daemon) F(MHD_get_daemon_info) F(MHD_get_connection_info) \
    F(MHD_get_connection_values) F(MHD_create_response_from_buffer) F(MHD_create_response_from_callback) \
    F(MHD_create_response_from_fd_at_offset64) F(MHD_add_response_header) F(MHD_queue_response) \
    F(MHD_destroy_response) F(MHD_suspend_connection) F(MHD_resume_connection)

OCEQ_LIBRARY_DECLARE(mhd, OCEQ_MHD_FUNCTIONS)

/// Starts an internal-polling daemon with a thread pool, bound to `addr` (IPv4 or IPv6).
/// `uri_log` sees the raw request target before MHD decodes it; its result becomes the request's context.
/// `notify` sees each connection open and close (the header deadline's watchdog keeps its socket).
/// Connections over `connection_limit`, or over `per_ip_limit` from one address, are accepted and
/// closed at once. The listening socket is not shared (no SO_REUSEPORT): a port another process
/// holds makes the start fail, as for any other program.
static inline struct MHD_Daemon *oceq_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *addr,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection), void *uri_log_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    unsigned int thread_pool_size, unsigned int connection_limit, unsigned int per_ip_limit,
    unsigned int listen_backlog, unsigned int connection_timeout, size_t memory_limit) {
    const struct oceq_mhd_api *api = oceq_mhd();
    if (!api) return NULL;
    return api->MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
        MHD_OPTION_END);
}

/// The port a daemon actually listens on (for `--port 0`).
static inline uint16_t oceq_mhd_bound_port(struct MHD_Daemon *d) {
    const struct oceq_mhd_api *api = oceq_mhd();
    const union MHD_DaemonInfo *info = api ? api->MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    return info ? info->port : 0;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *oceq_mhd_client_addr(struct MHD_Connection *c) {
    const struct oceq_mhd_api *api = oceq_mhd();
    const union MHD_ConnectionInfo *info = api ? api->MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS) : NULL;
    return info ? info->client_addr : NULL;
}

/// The socket of a connection, or -1.
static inline int oceq_mhd_socket(struct MHD_Connection *c) {
    const struct oceq_mhd_api *api = oceq_mhd();
    const union MHD_ConnectionInfo *info = api ? api->MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD) : NULL;
    return info ? info->connect_fd : -1;
}

#pragma clang diagnostic pop
