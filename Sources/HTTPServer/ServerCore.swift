import CMicroHTTPD
import Concurrency

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libmicrohttpd connection handle that crosses from the network thread to the task that
/// answers it. libmicrohttpd allows resuming a suspended connection from any thread; the handle is
/// only used while ``AsyncReply`` knows the connection to be suspended.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The answer to one request handled by an asynchronous route, shared by the network thread that
/// parked the connection, the task that computes the response, and shutdown.
final class AsyncReply: Sendable {
    enum Phase: Sendable {
        /// Created; the connection is not suspended yet.
        case starting
        /// The connection is suspended until the response is ready.
        case waiting
        /// The response is ready and the connection resumed.
        case ready(Response)
        /// Shutdown gave up on the handler; the connection answers 503.
        case abandoned
        /// The response was handed to libmicrohttpd.
        case delivered
    }

    private struct State: Sendable {
        var phase: Phase = .starting
        let connection: ConnectionHandle
    }

    private let state: Locked<State>

    init(connection: OpaquePointer) {
        state = Locked(State(connection: ConnectionHandle(pointer: connection)))
    }

    /// Suspends the connection (from the access handler). Returns `false` when shutdown abandoned
    /// the request first; the connection is then not suspended.
    func suspend() -> Bool {
        state.withLock { state in
            guard case .starting = state.phase else { return false }
            MHD_suspend_connection(state.connection.pointer)
            state.phase = .waiting
            return true
        }
    }

    /// Stores the response and resumes the connection, unless shutdown abandoned it.
    func complete(with response: Response) {
        state.withLock { state in
            guard case .waiting = state.phase else { return }
            state.phase = .ready(response)
            MHD_resume_connection(state.connection.pointer)
        }
    }

    /// Gives up waiting for the handler: a suspended connection is resumed to answer 503.
    func abandon() {
        state.withLock { state in
            switch state.phase {
            case .waiting:
                state.phase = .abandoned
                MHD_resume_connection(state.connection.pointer)
            case .starting:
                state.phase = .abandoned
            case .ready, .abandoned, .delivered:
                break
            }
        }
    }

    /// What to answer now that the connection is resumed — the handler's response, or the error
    /// of an abandoned request — or `nil` if there is nothing yet.
    func take() -> Result<Response, HTTPError>? {
        state.withLock { state in
            switch state.phase {
            case .ready(let response):
                state.phase = .delivered
                return .success(response)
            case .abandoned:
                state.phase = .delivered
                return .failure(.shuttingDown)
            case .starting, .waiting, .delivered:
                return nil
            }
        }
    }
}

/// The state of one request, touched only by the network thread serving its connection
/// (libmicrohttpd calls the access handler and the completion callback of a connection from one
/// thread at a time). It lives in `*con_cls`, retained once, released in the completion callback.
final class RequestState {
    let startTime: ContinuousClock.Instant
    /// The request's number in this process, for the log lines about it.
    let requestID: UInt64
    var request: Request
    let match: Router.Match
    /// The route pattern for the access log, or the path when no route matched (read for every
    /// response, so kept rather than taken out of ``match`` each time).
    let routeLabel: String
    /// The most body bytes accepted, decided when the header fields arrived.
    let bodyLimit: BodyLimit
    /// The answer for a body that is being read and dropped: 413 (over ``bodyLimit``) or 503
    /// (no large-body slot free); `nil` while the body is kept.
    var rejection: HTTPError?
    /// Whether this request holds one of the server's large-body slots, given back in the
    /// completion callback.
    var holdsLargeBodySlot = false
    /// Answered before its body was read (its framing was refused); the connection closes.
    var refused = false
    var discardedBytes = 0
    var reply: AsyncReply?
    /// Its connection's phase (``ServerCore``'s header-deadline entry), set back to waiting when
    /// the request completes; `nil` when the connection has no entry.
    let connectionPhase: AtomicWord?

    #if DEBUG
    /// The count of live request states of the server this one belongs to.
    private let live: Locked<Int>
    #endif

    init(
        startTime: ContinuousClock.Instant, requestID: UInt64, request: Request, match: Router.Match,
        bodyLimit: BodyLimit, connectionPhase: AtomicWord?, live: Locked<Int>
    ) {
        self.connectionPhase = connectionPhase
        self.startTime = startTime
        self.requestID = requestID
        routeLabel =
            switch match {
            case .found(let route, _): route.pattern
            case .methodNotAllowed(let pattern, _): pattern
            case .notFound: request.path
            }
        self.request = request
        self.match = match
        self.bodyLimit = bodyLimit
        #if DEBUG
        self.live = live
        live.withLock { $0 += 1 }
        #endif
    }

    #if DEBUG
    deinit {
        live.withLock { $0 -= 1 }
    }
    #endif

    /// The context of the request when no handler runs (an error the server answers itself).
    var context: RequestContext {
        RequestContext(route: routeLabel, startTime: startTime, requestID: requestID)
    }
}

/// What the network threads share: the router, the configuration and the lifecycle counters.
/// Handed to libmicrohttpd as the callbacks' context, retained once for the daemon's lifetime.
final class ServerCore: Sendable {
    let router: Router
    let configuration: HTTPServer.Configuration
    private let lifecycle = Locked(Lifecycle())
    /// 1 once responses carry `Connection: close`, so that keep-alive clients go away. Read by
    /// every response, without a lock.
    private let draining = AtomicWord(0)
    /// Counts the header-deadline watcher's rounds: the coarse clock connections are timed by.
    private let tick = AtomicWord(0)
    /// The number of the last request begun.
    private let requestCount = AtomicWord(0)
    /// Requests in progress on a connection that has no entry (its socket could not be told);
    /// the others are told by their connection's phase.
    private let untrackedInFlight = AtomicWord(0)

    private struct Lifecycle: Sendable {
        /// New asynchronous requests are answered 503 instead of being parked.
        var refusingParking = false
        /// Replies whose connection is (or is about to be) suspended.
        var parked: [ObjectIdentifier: AsyncReply] = [:]
        /// The open connections.
        var connections: [ObjectIdentifier: WatchedConnection] = [:]
        /// The requests holding a large-body slot (``HTTPServer/Configuration/maxLargeBodiesInFlight``).
        var largeBodies = 0
    }

    /// An open connection, for ``HTTPServer/Configuration/headerDeadline``. libmicrohttpd keeps it
    /// in the connection's socket context (retained once, released when the connection closes),
    /// so each request reaches its connection's entry without looking it up.
    private final class WatchedConnection: Sendable {
        /// Its socket, shut down when it misses the deadline; it stays open until libmicrohttpd
        /// closes the connection, which it does after removing it from here.
        let socket: Int32
        /// The watcher's round since which it has been waiting for a request's header fields;
        /// ``inRequest`` while a request is in progress; ``closing`` once shut down. Written by the
        /// network thread serving the connection and by the watcher, without a lock.
        let phase: AtomicWord

        static let inRequest = UInt64.max
        static let closing = UInt64.max - 1

        init(socket: Int32, waitingSince: UInt64) {
            self.socket = socket
            phase = AtomicWord(waitingSince)
        }

        /// The entry `connectionOpened` stored for `connection`, if any.
        static func of(_ connection: OpaquePointer) -> WatchedConnection? {
            cmhd_socket_context(connection).map { Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    /// ``HTTPServer/Configuration/defaultHeaders`` as C strings, converted once; only the valid
    /// fields (``HTTPServer/start()`` refuses to start with an invalid one).
    private let defaultHeaders: [(name: String, cName: ContiguousArray<CChar>, cValue: ContiguousArray<CChar>)]

    /// A number no other server of this process has, for responses prepared by this one.
    let identity = ServerCore.nextIdentity.withLock { next in
        defer { next += 1 }
        return next
    }
    private static let nextIdentity = Locked(0)

    /// The high half of this server's request ids: random, so that ids from servers that
    /// share a log do not collide; the low half counts requests.
    private let requestIDPrefix = UInt64(UInt32.random(in: 0...UInt32.max)) << 32

    /// The number of this server's request states alive (counted in debug builds), for tests that
    /// check each one is released.
    let liveRequests = Locked(0)

    init(router: Router, configuration: HTTPServer.Configuration) {
        self.router = router
        self.configuration = configuration
        defaultHeaders = configuration.defaultHeaders.filter(ServerCore.isValid).map {
            (name: $0.name, cName: $0.name.utf8CString, cValue: $0.value.utf8CString)
        }
    }

    /// Whether every default header field can be sent.
    var defaultHeadersAreValid: Bool {
        defaultHeaders.count == configuration.defaultHeaders.count
    }

    // MARK: - Lifecycle

    /// Requests whose header fields arrived and that have not completed: counted when asked (by
    /// a drain, a scrape), so that a request itself touches no shared counter for it.
    var inFlight: Int {
        let tracked = lifecycle.withLock { state in
            state.connections.values.reduce(0) { $0 + ($1.phase.load() == WatchedConnection.inRequest ? 1 : 0) }
        }
        return tracked + Int(truncatingIfNeeded: untrackedInFlight.load())
    }
    var openConnections: Int { lifecycle.withLock { $0.connections.count } }

    /// The number of requests holding a large-body slot.
    var largeBodiesInFlight: Int { lifecycle.withLock { $0.largeBodies } }

    /// Takes a large-body slot for `state` when one is free; `false` when all are taken.
    private func takeLargeBodySlot(for state: RequestState) -> Bool {
        let taken = lifecycle.withLock { lifecycle in
            guard lifecycle.largeBodies < configuration.maxLargeBodiesInFlight else { return false }
            lifecycle.largeBodies += 1
            return true
        }
        state.holdsLargeBodySlot = taken
        return taken
    }

    func beginDraining() {
        draining.store(1)
    }

    /// Refuses further parking and answers every parked request with 503.
    func abandonParked() {
        let parked = lifecycle.withLock { state in
            state.refusingParking = true
            return Array(state.parked.values)
        }
        for reply in parked {
            reply.abandon()
        }
    }

    // MARK: - Connections and the header deadline

    /// A connection opened: its header fields are awaited from now. Its entry goes into
    /// `context`, the connection's socket context.
    func connectionOpened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = cmhd_connection_fd(connection)
        guard socket >= 0 else { return }
        let watched = lifecycle.withLock { state in
            let watched = WatchedConnection(socket: socket, waitingSince: tick.load())
            state.connections[ObjectIdentifier(watched)] = watched
            return watched
        }
        context.pointee = Unmanaged.passRetained(watched).toOpaque()
    }

    /// A connection closed. libmicrohttpd says so before it closes the socket, so a socket found
    /// in ``closeLateConnections(after:)`` under the lock is still this connection's.
    func connectionClosed(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let stored = context.pointee else { return }
        context.pointee = nil
        let watched = Unmanaged<WatchedConnection>.fromOpaque(stored).takeRetainedValue()
        lifecycle.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(watched)) }
    }

    /// Starts a new round of the watcher and shuts down the socket of every connection that has
    /// waited more than `rounds` rounds for a request's header fields; libmicrohttpd then sees the
    /// end of the stream and closes the connection. Returns how many were shut down.
    @discardableResult
    func closeLateConnections(after rounds: UInt64) -> Int {
        lifecycle.withLock { state in
            let now = tick.add(1)
            var closed = 0
            for watched in state.connections.values {
                let since = watched.phase.load()
                // A request that begins meanwhile changes the phase first: then it is left alone.
                guard since < WatchedConnection.closing, since <= now, now - since > rounds,
                    watched.phase.replace(since, with: WatchedConnection.closing)
                else { continue }
                shutdown(watched.socket, Int32(SHUT_RDWR))
                closed += 1
            }
            return closed
        }
    }

    /// Runs ``closeLateConnections(after:)`` every quarter of the header deadline (at most every
    /// second) until cancelled: connections are timed in those rounds — a coarse clock no request
    /// has to read — so a deadline is enforced within one round after it passes.
    func watchHeaderDeadline() async {
        let interval = max(.milliseconds(10), min(.seconds(1), configuration.headerDeadline / 4))
        let rounds = UInt64(max(1, (configuration.headerDeadline / interval).rounded(.up)))
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            closeLateConnections(after: rounds)
        }
    }

    /// Waits until no request is in progress, or until `deadline`.
    func waitUntilIdle(before deadline: ContinuousClock.Instant) async {
        while inFlight > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    // MARK: - Callbacks from libmicrohttpd

    /// The access handler: called once when the header fields have arrived, once per piece of
    /// body, and once more (the final call, `*uploadDataSize == 0`) when the request is complete;
    /// again after a resume.
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let stored = requestContext.pointee else {
            return begin(
                connection: connection, url: url, method: method, version: version, requestContext: requestContext)
        }
        let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if state.refused {
            // Answered before its body was read; the connection closes after the answer.
            uploadDataSize.pointee = 0
            return .YES
        }
        if size > 0 {
            uploadDataSize.pointee = 0
            return receive(uploadData, count: size, into: state)
        }
        if let reply = state.reply {
            // Resumed after an asynchronous handler.
            switch reply.take() {
            case .success(let response): return send(response, to: connection, for: state)
            case .failure(let error): return send(error, to: connection, for: state)
            case nil: return send(HTTPError.internalError, to: connection, for: state)
            }
        }
        if let rejection = state.rejection {
            return send(rejection, to: connection, for: state)
        }
        return dispatch(state, on: connection)
    }

    /// A message of libmicrohttpd's own (a malformed request, a failed `accept`), handed to
    /// ``HTTPServer/Configuration/libraryMessages`` without its trailing newline, or written to
    /// standard error when none is set.
    func libraryMessage(_ text: String) {
        var message = Substring(text)
        while let last = message.last, last.isWhitespace { message = message.dropLast() }
        guard !message.isEmpty else { return }
        if let sink = configuration.libraryMessages {
            sink(String(message))
        } else {
            let line = Array("libmicrohttpd: \(message)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// The completion callback: the request is over (answered, failed or cut off); its
    /// large-body slot, if it held one, is free again; on a keep-alive connection the next
    /// request's header fields are awaited from now. libmicrohttpd calls it for every request
    /// whose access handler was called, also when the client goes away in the middle of its body
    /// and when the daemon stops.
    func completed(connection: OpaquePointer?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let requestContext, let stored = requestContext.pointee else { return }
        requestContext.pointee = nil
        let finished = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
        if finished.holdsLargeBodySlot {
            finished.holdsLargeBodySlot = false
            lifecycle.withLock { $0.largeBodies -= 1 }
        }
        if let phase = finished.connectionPhase {
            phase.store(tick.load())
        } else {
            untrackedInFlight.add(UInt64.max)  // minus one
        }
    }

    // MARK: - Steps of a request

    private func begin(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let startTime = ContinuousClock.now
        // No lock: the connection's phase is its own, and the count one atomic addition.
        let phase = WatchedConnection.of(connection)?.phase
        if let phase {
            phase.store(WatchedConnection.inRequest)
        } else {
            untrackedInFlight.add(1)
        }
        let count = requestCount.add(1)
        var request = Request(
            method: HTTPMethod(rawValue: method.map { String(cString: $0) } ?? ""),
            target: ServerCore.target(connection: connection, path: url),
            headers: ServerCore.headers(of: connection))
        request.address = ServerCore.clientAddress(of: connection)
        let match = router.match(request)
        let bodyLimit = BodyLimit(for: request, configuration: configuration)
        let problem = MessageFraming.problem(
            method: request.method.rawValue, version: version.map { String(cString: $0) } ?? "",
            headers: request.headers)
        let declared = request.headers["Content-Length"].flatMap { Int($0) }
        // The request's last use: moved into its state, not copied.
        let state = RequestState(
            startTime: startTime, requestID: requestIDPrefix | (count & 0xFFFF_FFFF), request: request,
            match: match, bodyLimit: bodyLimit, connectionPhase: phase, live: liveRequests)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()

        if let problem {
            state.refused = true
            return send(problem, to: connection, for: state)
        }
        if let declared {
            if declared > state.bodyLimit.bytes {
                state.rejection = .payloadTooLarge
                // Up to a few limits' worth, the body is read and dropped and the 413 follows it:
                // closing on a client still sending makes its kernel reset the connection, which can
                // lose the answer before the client reads it. A larger body is answered at once and
                // the connection closed after the response.
                if declared > state.bodyLimit.drainBytes {
                    return send(HTTPError.payloadTooLarge, to: connection, for: state)
                }
            } else if declared > configuration.maxBodyBytes && !takeLargeBodySlot(for: state) {
                // A large body and no slot free. The 503 could be queued now, but libmicrohttpd then
                // closes the connection without reading the body (the rest of a request answered
                // early is discarded), and a client still sending gets a reset that can lose the
                // answer. So the body is read and dropped like a 413's — it is within this route's
                // limit, so within the drain — and the 503 (`Connection: close`) queued at its end;
                // none of it is kept, so it takes no slot.
                state.rejection = .serverBusy
            }
            // Reserve the whole body only for a request that holds a slot: any other client may
            // declare a length it never sends.
            let reserve = state.holdsLargeBodySlot ? declared : min(max(0, declared), 64 << 10)
            state.request.body.reserveCapacity(reserve)
        }
        return .YES
    }

    private func receive(_ data: UnsafePointer<CChar>?, count: Int, into state: RequestState) -> MHD_Result {
        if state.rejection != nil {
            // A body refused (over the limit, declared or chunked and crossing it; or large with no
            // slot free): the rest is read and dropped, and the answer queued once the upload is
            // over — libmicrohttpd accepts no response while it hands over body data. Past the
            // drain limit the connection is closed without an answer.
            state.discardedBytes += count
            return state.discardedBytes > state.bodyLimit.drainBytes ? .NO : .YES
        }
        let total = state.request.body.count + count
        guard let data, total <= state.bodyLimit.bytes else {
            refuse(state, with: .payloadTooLarge, discarding: count)
            return .YES
        }
        if total > configuration.maxBodyBytes && !state.holdsLargeBodySlot && !takeLargeBodySlot(for: state) {
            // A chunked body on a large-body route growing past the normal limit, with no slot free.
            refuse(state, with: .serverBusy, discarding: count)
            return .YES
        }
        state.request.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return .YES
    }

    /// Drops what was kept of the body; the rest will be read and dropped, then `error` answered.
    private func refuse(_ state: RequestState, with error: HTTPError, discarding count: Int) {
        state.rejection = error
        state.request.body = []
        state.discardedBytes = count
    }

    private func dispatch(_ state: RequestState, on connection: OpaquePointer) -> MHD_Result {
        switch state.match {
        case .notFound:
            return send(HTTPError.notFound(), to: connection, for: state)
        case .methodNotAllowed(_, let allowed):
            return send(HTTPError.methodNotAllowed(allowed), to: connection, for: state)
        case .found(let route, let parameters):
            let context = RequestContext(
                parameters: parameters, route: route.pattern, startTime: state.startTime, requestID: state.requestID)
            switch route.handler {
            case .immediate(let handler):
                return send(router.runImmediate(handler, state.request, context), to: connection, for: state)
            case .async(let handler):
                return park(state, on: connection, handler: handler, context: context)
            case .immediateOrAsync(let immediate, let handler):
                if let response = router.runImmediateIfItAnswers(immediate, state.request, context) {
                    return send(response, to: connection, for: state)
                }
                return park(state, on: connection, handler: handler, context: context)
            }
        }
    }

    /// Suspends the connection and runs the handler in a task that resumes it with the reply.
    private func park(
        _ state: RequestState, on connection: OpaquePointer, handler: @escaping Router.Handler,
        context: RequestContext
    ) -> MHD_Result {
        let reply = AsyncReply(connection: connection)
        let key = ObjectIdentifier(reply)
        let admitted = lifecycle.withLock { lifecycle in
            guard !lifecycle.refusingParking else { return false }
            lifecycle.parked[key] = reply
            return true
        }
        guard admitted, reply.suspend() else {
            lifecycle.withLock { _ = $0.parked.removeValue(forKey: key) }
            return send(HTTPError.shuttingDown, to: connection, for: state)
        }
        state.reply = reply
        let request = state.request
        Task {
            let response = await self.router.runAsync(handler, request, context)
            reply.complete(with: response)
            self.lifecycle.withLock { _ = $0.parked.removeValue(forKey: key) }
        }
        return .YES
    }

    /// Answers with `error`, as the application writes it for this request.
    private func send(_ error: HTTPError, to connection: OpaquePointer, for state: RequestState) -> MHD_Result {
        send(router.respond(to: error, state.request, state.context), to: connection, for: state)
    }

    /// Hands the response to libmicrohttpd with the server-wide header fields, and logs it.
    private func send(_ response: Response, to connection: OpaquePointer, for state: RequestState) -> MHD_Result {
        guard (200..<600).contains(response.status.code),
            response.prepared != nil || response.headers.allSatisfy(ServerCore.isValid)
        else {
            // A handler bug (a status libmicrohttpd cannot send, a header field that would split
            // the response): answer a plain 500 instead.
            router.errorReporter?(InvalidResponseError(status: response.status.code), state.request, state.context)
            return send(HTTPError.internalError, to: connection, for: state)
        }

        let draining = self.draining.load() != 0
        let mhdResponse: OpaquePointer
        var destroyAfterQueueing = true
        if let prepared = response.prepared, !draining,
            let shared = prepared.native(for: identity, build: { build(response, draining: false) })
        {
            mhdResponse = shared
            destroyAfterQueueing = false
        } else {
            guard let built = build(response, draining: draining) else { return .NO }
            mhdResponse = built
        }
        defer { if destroyAfterQueueing { MHD_destroy_response(mhdResponse) } }

        let result = MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
        if let accessLog = configuration.accessLog {
            accessLog(
                AccessLogEntry(
                    requestID: state.requestID, method: state.request.method, route: state.routeLabel,
                    status: response.status,
                    duration: ContinuousClock.now - state.startTime,
                    bodyBytes: state.request.method == .head ? 0 : response.body.count))
        }
        return result
    }

    /// A libmicrohttpd response for `response` with the server-wide header fields (and
    /// `Connection: close` while draining); the body is copied once, into memory libmicrohttpd owns.
    private func build(_ response: Response, draining: Bool) -> OpaquePointer? {
        let mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return nil }
        var added = true
        for field in response.headers
        where !HTTPHeaders.namesEqual(field.name, "Content-Length")
            && !HTTPHeaders.namesEqual(field.name, "Transfer-Encoding")
        {
            added =
                added
                && field.name.withCString { name in
                    field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
                } == .YES
        }
        for field in defaultHeaders where !response.headers.contains(field.name) {
            added =
                added
                && field.cName.withUnsafeBufferPointer { name in
                    field.cValue.withUnsafeBufferPointer { value in
                        MHD_add_response_header(mhdResponse, name.baseAddress, value.baseAddress)
                    }
                } == .YES
        }
        if draining && !response.headers.contains("Connection") {
            added = added && MHD_add_response_header(mhdResponse, "Connection", "close") == .YES
        }
        guard added else {
            MHD_destroy_response(mhdResponse)
            return nil
        }
        return mhdResponse
    }

    // MARK: - Reading the request

    /// The target as sent: the path (left encoded by the unescape callback) and the query items
    /// libmicrohttpd split off, joined again. libmicrohttpd turns `+` into a space in query items
    /// before the unescape callback; a request target cannot contain a space, so every space was a
    /// `+` and is turned back.
    private static func target(connection: OpaquePointer, path: UnsafePointer<CChar>?) -> String {
        var target = path.map { String(cString: $0) } ?? "/"
        var query = ""
        withUnsafeMutablePointer(to: &query) { query in
            _ = MHD_get_connection_values_n(
                connection, .GET_ARGUMENT_KIND,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    let query = context.assumingMemoryBound(to: String.self)
                    if !query.pointee.isEmpty {
                        query.pointee += "&"
                    }
                    query.pointee += ServerCore.queryString(key, keySize)
                    if let value {
                        query.pointee += "=" + ServerCore.queryString(value, valueSize)
                    }
                    return .YES
                }, query)
        }
        if !query.isEmpty {
            target += "?" + query
        }
        return target
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { headers in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    let headers = context.assumingMemoryBound(to: HTTPHeaders.self)
                    headers.pointee.add(
                        name: ServerCore.string(key, keySize),
                        value: value.map { ServerCore.string($0, valueSize) } ?? "")
                    return .YES
                }, headers)
        }
        return headers
    }

    private static func clientAddress(of connection: OpaquePointer) -> ClientAddress? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer -> ClientAddress? in
            guard let base = buffer.baseAddress else { return nil }
            let family = cmhd_client_address(connection, base)
            return ClientAddress(bytes: UnsafeRawBufferPointer(buffer), family: family)
        }
    }

    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// A query key or value with the spaces libmicrohttpd made of `+` turned back into `+`.
    private static func queryString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
        guard bytes.contains(UInt8(ascii: " ")) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: bytes.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "+") : $0 }, as: UTF8.self)
    }

    /// A field libmicrohttpd can send as it is: a token for a name, no CR, LF or NUL in the value.
    static func isValid(_ field: HTTPHeaders.Field) -> Bool {
        !field.name.isEmpty
            && field.name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
            && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}

/// Reported to ``Router/errorReporter`` when a handler returned a response that cannot be sent.
struct InvalidResponseError: Error, CustomStringConvertible {
    let status: Int
    var description: String { "handler returned an invalid response (status \(status) or a malformed header field)" }
}
