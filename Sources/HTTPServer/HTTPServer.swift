import CMicroHTTPD
import Concurrency

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd that answers with a ``Router``.
///
/// ```swift
/// var router = Router()
/// router.get("/api/catalog", .immediate { _, _ in .bytes(cachedCatalog, contentType: "application/json") })
/// router.get("/api/products/{id}") { request, context in try await products.show(request, context) }
/// let server = HTTPServer(configuration: .init(port: 8080), router: router)
/// try server.start()
/// ```
///
/// Threads: libmicrohttpd runs ``Configuration/threadPoolSize`` network threads, each polling its
/// share of the connections with poll(). `.immediate` routes run on those threads. For an
/// asynchronous route the connection is suspended, the handler runs in a `Task`, and the
/// connection is resumed with the reply; the network thread serves other connections meanwhile.
///
/// Request bodies are read into memory up to a limit decided when the header fields arrive:
/// ``Configuration/maxBodyBytes`` (1 MiB by default), or the limit of the first
/// ``Configuration/largeBodies`` route (``LargeBodyRoute``: a method and a path pattern) the request
/// matches — uploads. A body over its limit is answered 413 `payload_too_large`: with a declared
/// `Content-Length` before any of it is kept, a chunked one when it grows past the limit. Either
/// way what remains is read and dropped (up to 4 limits' worth, past which the connection is cut
/// without an answer; a declared length beyond that is answered at once, and the connection closed
/// after the response), so that the client, still sending, is not reset before it reads the
/// answer.
///
/// Bodies larger than ``Configuration/maxBodyBytes`` are few at a time: at most
/// ``Configuration/maxLargeBodiesInFlight`` requests, server-wide, may hold one — counted from when
/// a declared `Content-Length` over ``Configuration/maxBodyBytes`` arrives (or a chunked body grows
/// past it) until the request completes or its connection closes. One more is answered 503
/// `server_busy` with `Retry-After: 1` and `Connection: close`, its body read and dropped like a
/// 413's.
///
/// A request whose framing is ambiguous or malformed (both `Content-Length` and
/// `Transfer-Encoding`, two different lengths, a missing or repeated `Host`, a control character
/// in a header field, an unknown transfer coding: `MessageFraming`) is answered 400 or 501 through
/// the router's error answer before its body is read, and its connection is closed.
///
/// Every response the router produces gets the default headers and an access-log entry. A few
/// requests never reach the router: libmicrohttpd itself answers a malformed request line or
/// `Content-Length` (400), a `Content-Length` too large to parse (413) and header fields larger than
/// ``Configuration/connectionMemoryLimit`` (431), with its own short HTML body and without the
/// default headers (version 0.9.75 has no hook to shape them), and reports them on standard error.
///
/// A server starts once; after ``shutdown()`` it cannot be started again. Call ``shutdown()``
/// before the last reference goes away: dropping a running server stops it abruptly.
public final class HTTPServer: Sendable {
    let core: ServerCore
    private let state = Locked(RunState.idle)

    /// A running libmicrohttpd daemon. The pointers are used by one caller at a time: whoever
    /// moved the state out of `.running`.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        let listenSocket: Int32
        let port: Int
        let context: Unmanaged<ServerCore>
        /// Closes connections that miss the header deadline.
        let watcher: Task<Void, Never>
    }

    private enum RunState: Sendable {
        case idle
        case running(Daemon)
        case stopping(port: Int)
        case stopped
    }

    /// A server that will answer with `router`; it listens once ``start()`` is called.
    public init(configuration: Configuration = Configuration(), router: Router) {
        core = ServerCore(router: router, configuration: configuration)
    }

    deinit {
        if case .running(let daemon) = state.withLock({ $0 }) {
            core.abandonParked()
            HTTPServer.stop(daemon, listeningSocketIsOurs: false)
        }
    }

    /// Connections open now (for metrics).
    public var openConnections: Int { core.openConnections }

    /// Requests being answered now (for metrics).
    public var requestsInFlight: Int { core.inFlight }

    /// The port the server listens on (the real one when the configuration asked for port 0), or
    /// `0` when it is not running.
    public var port: Int {
        state.withLock { state in
            switch state {
            case .running(let daemon): daemon.port
            case .stopping(let port): port
            case .idle, .stopped: 0
            }
        }
    }

    /// Binds the configured address and starts serving.
    ///
    /// - Throws: ``HTTPServerError`` with kind `.addressInUse` when another socket listens on the
    ///   address and port, `.invalidAddress` when the host does not resolve, and so on.
    public func start() throws(HTTPServerError) {
        try state.withLock { (state: inout RunState) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(kind: .alreadyStarted, message: "the server was already started")
            }
            let configuration = core.configuration
            guard core.defaultHeadersAreValid else {
                throw HTTPServerError(
                    kind: .invalidConfiguration, message: "a default header field has an invalid name or value")
            }
            let listenSocket = try Listener.open(
                host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
            let context = Unmanaged.passRetained(core)

            // libmicrohttpd's threads inherit this thread's signal mask: keep SIGINT and SIGTERM
            // away from them, so that they reach the thread that waits for them.
            var blocked = TerminationSignals.signals()
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &previous)
            // poll(), not epoll: with epoll, MHD_quiesce_daemon() races the network threads to take
            // the listening socket out of their epoll sets, and the loser aborts the process
            // ("Failed to remove listen FD from epoll set", libmicrohttpd 0.9.75; seen in 1 of 16
            // test runs). poll() has no such set, no descriptor limit, and serves as fast here.
            let flags =
                MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ERROR_LOG.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let daemon = cmhd_start_daemon(
                flags, listenSocket,
                { context, connection, url, method, version, uploadData, uploadDataSize, requestContext in
                    guard let context, let connection, let uploadDataSize, let requestContext else { return .NO }
                    return Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().handle(
                        connection: connection, url: url, method: method, version: version, uploadData: uploadData,
                        uploadDataSize: uploadDataSize, requestContext: requestContext)
                },
                { context, connection, requestContext, _ in
                    guard let context else { return }
                    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().completed(
                        connection: connection, requestContext: requestContext)
                },
                { context, format, arguments in
                    guard let context, let format, let arguments else { return }
                    var buffer = [CChar](repeating: 0, count: 512)
                    let written = vsnprintf(&buffer, buffer.count, format, arguments)
                    guard written > 0 else { return }
                    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().libraryMessage(
                        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                },
                { context, connection, socketContext, event in
                    guard let context, let connection, let socketContext else { return }
                    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
                    if cmhd_connection_opened(event) != 0 {
                        core.connectionOpened(connection, context: socketContext)
                    } else {
                        core.connectionClosed(connection, context: socketContext)
                    }
                },
                context.toOpaque(),
                UInt32(clamping: max(1, configuration.threadPoolSize)),
                UInt32(clamping: max(1, configuration.connectionLimit)),
                UInt32(clamping: max(0, configuration.connectionsPerAddress)),
                UInt32(clamping: max(0, configuration.connectionTimeout)),
                max(4096, configuration.connectionMemoryLimit))
            pthread_sigmask(SIG_SETMASK, &previous, nil)

            guard let daemon else {
                close(listenSocket)
                context.release()
                throw HTTPServerError(
                    kind: .daemonFailed, message: "libmicrohttpd could not start (see standard error)")
            }
            var port = Int(cmhd_bound_port(daemon))
            if port == 0 {
                port = Listener.localPort(of: listenSocket)
            }
            let watcher = Task.detached { [core] in await core.watchHeaderDeadline() }
            state = .running(
                Daemon(pointer: daemon, listenSocket: listenSocket, port: port, context: context, watcher: watcher))
        }
    }

    /// Stops the server gracefully, and returns once it has stopped.
    ///
    /// 1. Stops accepting connections; new ones are refused.
    /// 2. Lets the requests in progress finish, the asynchronous ones included, for up to
    ///    ``Configuration/shutdownGracePeriod``; their responses carry `Connection: close`.
    /// 3. Answers requests still waiting for a handler with 503 `shutting_down`.
    /// 4. Closes every connection and stops the network threads.
    ///
    /// Does nothing when the server is not running (or another call is already stopping it).
    public func shutdown() async {
        let daemon = state.withLock { state -> Daemon? in
            guard case .running(let daemon) = state else { return nil }
            state = .stopping(port: daemon.port)
            return daemon
        }
        guard let daemon else { return }

        core.beginDraining()
        let quiesced = MHD_quiesce_daemon(daemon.pointer) >= 0
        if quiesced {
            // libmicrohttpd no longer accepts on the socket, which must stay open until the daemon
            // stops; shutting it down makes the kernel refuse new connections meanwhile.
            Listener.refuseConnections(on: daemon.listenSocket)
        }
        await core.waitUntilIdle(before: .now + core.configuration.shutdownGracePeriod)
        core.abandonParked()
        await core.waitUntilIdle(before: .now + .seconds(1))
        HTTPServer.stop(daemon, listeningSocketIsOurs: quiesced)
        state.withLock { $0 = .stopped }
    }

    /// Stops the daemon: every suspended connection must have been resumed before.
    ///
    /// `MHD_quiesce_daemon` hands the listening socket back to the caller, who must close it;
    /// without it, `MHD_stop_daemon` closes the socket itself. Closing it a second time could close
    /// a descriptor another thread has just been given — another server's connection, which
    /// libmicrohttpd then fails to close and aborts ("Close socket failed").
    private static func stop(_ daemon: Daemon, listeningSocketIsOurs: Bool) {
        daemon.watcher.cancel()
        MHD_stop_daemon(daemon.pointer)
        if listeningSocketIsOurs {
            close(daemon.listenSocket)
        }
        daemon.context.release()
    }
}
