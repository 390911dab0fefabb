#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

// libmicrohttpd needs these types declared before its own header.
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>

#include <microhttpd.h>

// Leaves the request target exactly as the client sent it, so that the path and the query are
// percent-decoded once, in Swift, where "%2F" inside a path segment can be kept apart from "/".
static size_t cmhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

// The options the Swift side sets, passed to the variadic MHD_start_daemon in one place.
// libmicrohttpd's own messages go to `logger` (with MHD_USE_ERROR_LOG), not to standard error.
// The listening socket is created, bound and put into listening state by the caller.
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                                   int listen_fd,
                                                   MHD_AccessHandlerCallback handler,
                                                   MHD_RequestCompletedCallback completed,
                                                   MHD_LogCallback logger,
                                                   MHD_NotifyConnectionCallback connections,
                                                   void *context,
                                                   unsigned int thread_pool_size,
                                                   unsigned int connection_limit,
                                                   unsigned int per_address_limit,
                                                   unsigned int connection_timeout,
                                                   size_t connection_memory_limit) {
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL},
        {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_address_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)connection_timeout, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    // The logger goes first, so that no message is written before it is in place.
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, connections, context,
                            MHD_OPTION_UNESCAPE_CALLBACK, cmhd_keep_escaped, NULL,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

// Atomic operations for the few values every request touches (the server's draining flag, a
// prepared response's libmicrohttpd handle, the request count, a connection's phase), so that
// they take no lock: a lock's every acquisition writes its memory, which the two network threads
// would pass back and forth between their cores on each request.
static inline void *cmhd_load_pointer(void *const *location) {
    return __atomic_load_n(location, __ATOMIC_ACQUIRE);
}

// Stores `value` where NULL was; false (nothing stored) when another value was there first.
static inline bool cmhd_publish_pointer(void **location, void *value) {
    void *expected = NULL;
    return __atomic_compare_exchange_n(location, &expected, value, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline uint64_t cmhd_load_word(const uint64_t *location) {
    return __atomic_load_n(location, __ATOMIC_ACQUIRE);
}

static inline void cmhd_store_word(uint64_t *location, uint64_t value) {
    __atomic_store_n(location, value, __ATOMIC_RELEASE);
}

// Stores `desired` if `expected` is there; whether it did.
static inline bool cmhd_replace_word(uint64_t *location, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(location, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// Adds `value` (wrapping) and answers the sum.
static inline uint64_t cmhd_add_word(uint64_t *location, uint64_t value) {
    return __atomic_add_fetch(location, value, __ATOMIC_ACQ_REL);
}

// Whether a connection notification says the connection opened (otherwise it closed).
static inline int cmhd_connection_opened(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

// The socket of a connection, or -1 when it cannot be told.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// The pointer the connection-notification callback stored for this connection, or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// The port the daemon listens on, or 0 when it cannot be told.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// Copies the client's IP address into `bytes` (4 bytes for IPv4, 16 for IPv6) and returns 4 or 6,
// or returns 0 when the address is unknown or of another family. Formatting it as text is left to
// whoever needs it, which most requests do not.
static inline int cmhd_client_address(struct MHD_Connection *connection, uint8_t bytes[16]) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return 0;
    }
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        memcpy(bytes, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 6;
    }
    return 0;
}

#endif
