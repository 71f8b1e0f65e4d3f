// libmicrohttpd for Swift, opened at first use (it loads GnuTLS and its dependencies, about 1.2 ms of
// every start of oceq when linked; now `oceq serve`, or a `url` that is a folder, opens it when it starts
// a daemon) through CSystem's loader: `oceq_mhd()` is the table of the functions below, typed by
// <microhttpd.h>, or NULL with `oceq_mhd_error()` saying why. The variadic MHD_start_daemon and
// MHD_get_connection_info are reached through the oceq_mhd_* wrappers below.
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
    F(MHD_start_daemon) F(MHD_stop_daemon) F(MHD_get_connection_info) \
    F(MHD_get_connection_values) F(MHD_create_response_from_buffer) F(MHD_create_response_from_callback) \
    F(MHD_create_response_from_fd_at_offset64) F(MHD_add_response_header) F(MHD_queue_response) \
    F(MHD_destroy_response) F(MHD_suspend_connection) F(MHD_resume_connection) F(MHD_add_connection)

OCEQ_LIBRARY_DECLARE(mhd, OCEQ_MHD_FUNCTIONS)

/// Starts a daemon with one internal thread (epoll) and no listening socket: connections reach it
/// through `oceq_mhd_add_connection` (the server's own accept loop hands them out, so that each of
/// several such daemons gets its share). `uri_log` sees the raw request target before MHD decodes
/// anything; its result becomes the request's context. `notify` sees each connection open and close
/// (the header deadline's watchdog keeps its socket; the accept loop uncounts it). The daemon closes
/// connections over `connection_limit` (the accept loop keeps the server's limits before that).
static inline struct MHD_Daemon *oceq_mhd_start_worker(
    unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection), void *uri_log_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    unsigned int connection_limit, unsigned int connection_timeout, size_t memory_limit) {
    const struct oceq_mhd_api *api = oceq_mhd();
    if (!api) return NULL;
    return api->MHD_start_daemon(
        flags | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
        MHD_OPTION_END);
}

/// Hands an accepted socket to a daemon started by `oceq_mhd_start_worker`: 1 on success, 0 when the
/// daemon refused it (it closed the socket), -1 when libmicrohttpd is not loaded (the socket is still
/// the caller's).
static inline int oceq_mhd_add_connection(
    struct MHD_Daemon *d, int fd, const struct sockaddr *addr, socklen_t addrlen) {
    const struct oceq_mhd_api *api = oceq_mhd();
    if (!api) return -1;
    return api->MHD_add_connection(d, fd, addr, addrlen) == MHD_YES ? 1 : 0;
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
