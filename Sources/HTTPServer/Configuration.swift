#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HTTPServer {
    /// How the server listens, its limits, and what it adds to every response.
    public struct Configuration: Sendable {
        /// The address to listen on: an IP address (`127.0.0.1`, `::1`, `0.0.0.0`) or a host name.
        public var host: String
        /// The TCP port; `0` picks a free one (read it back from ``HTTPServer/port``).
        public var port: Int
        /// The number of network threads; each serves its own share of the connections.
        public var threadPoolSize: Int
        /// The largest request body accepted on every route not listed in ``largeBodies``; a larger
        /// one is answered 413 `payload_too_large`.
        public var maxBodyBytes: Int
        /// The routes (method and path pattern) whose requests get a limit of their own instead of
        /// ``maxBodyBytes`` — uploads. The first route that matches a request decides its limit,
        /// when its header fields arrive, before any of its body is kept; a body over that limit is
        /// answered 413 `payload_too_large` as over ``maxBodyBytes`` elsewhere. Empty by default.
        public var largeBodies: [LargeBodyRoute]
        /// How many requests may be receiving (or be answering with) a body larger than
        /// ``maxBodyBytes`` at the same time, server-wide, so that the larger limits of
        /// ``largeBodies`` cannot make the server hold many large bodies at once. A request counts
        /// from when its declared `Content-Length` is over ``maxBodyBytes`` (or its chunked body
        /// grows past it) until it completes or its connection closes. One more is answered 503
        /// `server_busy` with `Retry-After: 1`, its body read and dropped (not kept), and its
        /// connection closed. A request whose body stays within ``maxBodyBytes`` never counts.
        /// 4 by default.
        public var maxLargeBodiesInFlight: Int
        /// The memory each connection may use for the request line, header fields and its read
        /// buffer; a request whose header fields do not fit is rejected by libmicrohttpd (431).
        /// libmicrohttpd clears this memory between requests, so a larger pool costs time on
        /// every request.
        public var connectionMemoryLimit: Int
        /// Seconds of inactivity after which a connection is closed; `0` for never. A request
        /// waiting for an asynchronous handler is not inactive.
        public var connectionTimeout: Int
        /// The most connections open at once; further ones are closed right after being accepted.
        public var connectionLimit: Int
        /// The most connections open at once from one client address (0: no limit of its own), so
        /// that one client cannot take every slot of ``connectionLimit``.
        public var connectionsPerAddress: Int
        /// 128: plenty for one browser or app, a small part of the default ``connectionLimit``.
        public static let defaultConnectionsPerAddress = 128
        /// How long a connection may take to send a request's header fields, counted from when it
        /// opened or its previous response was sent; then it is closed. Unlike
        /// ``connectionTimeout``, a client trickling a byte at a time does not reset it, and it also
        /// bounds how long an idle keep-alive connection is kept.
        public var headerDeadline: Duration
        /// The length of the kernel's queue of connections not yet accepted.
        public var listenBacklog: Int
        /// How long ``HTTPServer/shutdown()`` waits for requests in progress before answering
        /// those still waiting for a handler with 503 and closing every connection.
        public var shutdownGracePeriod: Duration
        /// Header fields added to every response that does not already have a field of that name,
        /// error responses and `.immediate` routes included (for example
        /// `X-Content-Type-Options: nosniff`).
        public var defaultHeaders: HTTPHeaders
        /// Called once for every response sent, on the network thread that sends it; it must be
        /// quick and must not block.
        public var accessLog: (@Sendable (AccessLogEntry) -> Void)?
        /// Receives libmicrohttpd's own messages (a malformed request line, a failed `accept`), one
        /// per call, so they can join the application's structured log; standard error when `nil`.
        /// A message may quote what a client sent: treat it as untrusted text.
        public var libraryMessages: (@Sendable (String) -> Void)?

        /// The defaults: loopback, a free port, one network thread per core, 1 MiB bodies (no
        /// route with a larger limit; 4 large bodies at once when there is), 32 KiB per connection, 30 s timeout, 1024 connections of which 128 per address, 15 s for
        /// the header fields, 30 s grace period.
        public init(
            host: String = "127.0.0.1", port: Int = 0,
            threadPoolSize: Int = ProcessInfo.processInfo.activeProcessorCount,
            maxBodyBytes: Int = 1 << 20, connectionMemoryLimit: Int = 32 << 10, connectionTimeout: Int = 30,
            connectionLimit: Int = 1024, connectionsPerAddress: Int = Configuration.defaultConnectionsPerAddress,
            headerDeadline: Duration = .seconds(15),
            listenBacklog: Int = 511, shutdownGracePeriod: Duration = .seconds(30),
            defaultHeaders: HTTPHeaders = [:], accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.threadPoolSize = threadPoolSize
            self.maxBodyBytes = maxBodyBytes
            self.largeBodies = []
            self.maxLargeBodiesInFlight = 4
            self.connectionMemoryLimit = connectionMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
            self.connectionsPerAddress = connectionsPerAddress
            self.headerDeadline = headerDeadline
            self.listenBacklog = listenBacklog
            self.shutdownGracePeriod = shutdownGracePeriod
            self.defaultHeaders = defaultHeaders
            self.accessLog = accessLog
        }
    }
}

/// One line of the access log. It holds no header, cookie, query string or body.
public struct AccessLogEntry: Sendable {
    /// The request's number in this process (``RequestContext/requestID``).
    public let requestID: UInt64
    /// The request method.
    public let method: HTTPMethod
    /// The matched route pattern (`/api/products/{id}`), or the decoded path when no route matched.
    public let route: String
    /// The response status.
    public let status: HTTPStatus
    /// From the arrival of the request's header fields to the queueing of the response.
    public let duration: Duration
    /// The number of body bytes sent (0 for `HEAD`).
    public let bodyBytes: Int

    /// An entry; the server makes one per request (and tests of a log make their own).
    public init(
        requestID: UInt64 = 0, method: HTTPMethod, route: String, status: HTTPStatus, duration: Duration,
        bodyBytes: Int
    ) {
        self.requestID = requestID
        self.method = method
        self.route = route
        self.status = status
        self.duration = duration
        self.bodyBytes = bodyBytes
    }
}

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// Another socket already listens on the address and port.
        case addressInUse
        /// The host could not be resolved to an address to listen on.
        case invalidAddress
        /// Creating, binding or listening on the socket failed for another reason.
        case socketFailed
        /// libmicrohttpd refused to start (details on standard error).
        case daemonFailed
        /// ``HTTPServer/start()`` was called on a server that was started before.
        case alreadyStarted
        /// A default header field has a name or value that cannot be sent.
        case invalidConfiguration
    }

    /// What went wrong.
    public let kind: Kind
    /// The error for people, with the address and the system's reason.
    public let message: String

    /// The message.
    public var description: String { message }
}
