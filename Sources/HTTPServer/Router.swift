#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a route answers.
public enum RouteHandler: Sendable {
    /// A synchronous handler run directly on the server's network thread, for cheap work that
    /// never blocks (serving a cached document, a health check). It skips the middleware chain.
    /// It must not wait on I/O, locks held for long, or anything asynchronous: while it runs, every
    /// other connection served by that thread waits.
    case immediate(@Sendable (Request, RequestContext) throws -> Response)
    /// An asynchronous handler: the connection is parked, the middleware chain and the handler run
    /// in a `Task`, and the connection resumes with the reply.
    case async(@Sendable (Request, RequestContext) async throws -> Response)
    /// The first handler run as `.immediate` on the network thread; when it answers `nil`, the
    /// second as `.async`. For routes whose common case is served from memory (a page every
    /// visitor without a session sees alike) but whose other cases need to wait.
    case immediateOrAsync(
        @Sendable (Request, RequestContext) throws -> Response?,
        @Sendable (Request, RequestContext) async throws -> Response)
}

/// Maps a method and a path to a handler.
///
/// Patterns are paths whose segments are literals or `{name}` parameters:
/// `/api/products/{id}/reviews`. A literal segment wins over a parameter at the same place.
/// Empty segments are ignored, so `/a//b/` is `/a/b`. Matching splits the still-encoded path into
/// segments and then percent-decodes each one, so `%2F` never separates segments.
///
/// An unknown path answers 404 `not_found`; a known path with another method answers 405
/// `method_not_allowed` with an `Allow` field; `HEAD` on a path with a `GET` route runs the `GET`
/// handler and sends no body.
///
/// **Errors take one path.** Whatever answers with an error — a handler or middleware of either kind
/// of route throwing an ``HTTPErrorConvertible``, the router's own 404 and 405, the server's 413
/// and 503 — becomes an ``HTTPError`` written by ``errorResponder`` for that request, with the
/// error's header fields added. Any other error is unexpected: it is reported once to
/// ``errorReporter`` and answered as ``HTTPError/internalError``.
///
/// Build the router completely before giving it to ``HTTPServer``; the server keeps its own copy.
public struct Router: Sendable {
    /// An asynchronous handler.
    public typealias Handler = @Sendable (Request, RequestContext) async throws -> Response

    /// Writes the answer for an error, for the request it answers: the application decides the
    /// representation (JSON for an API, an HTML page for a browser). The router adds the error's
    /// header fields afterwards. Runs on the network threads for immediate routes and 404/405, so
    /// it must be quick and must not block. By default, plain text.
    public var errorResponder: @Sendable (HTTPError, Request, RequestContext) -> Response = { error, _, _ in
        error.plainTextResponse
    }

    /// Called once for every unexpected error — thrown by a handler or middleware and not an
    /// ``HTTPErrorConvertible`` — before it is answered as ``HTTPError/internalError``. For logging:
    /// the error may contain data from the request, so log what kind of error it was, not its text.
    /// Runs on whatever thread the handler ran on and must not block.
    public var errorReporter: (@Sendable (any Error, Request, RequestContext) -> Void)?

    private var root = Node()
    /// The routes of patterns made only of literal segments, by their canonical path (`/a/b`).
    private var literalRoutes = LiteralRoutes()
    private var middleware: [any Middleware] = []

    /// An empty router: every request gets 404.
    public init() {}

    /// Adds a middleware around every asynchronous route, inside those added before it.
    public mutating func use(_ middleware: some Middleware) {
        self.middleware.append(middleware)
    }

    /// Adds a middleware made of a closure.
    public mutating func use(
        _ body: @escaping @Sendable (Request, RequestContext, Responder) async throws -> Response
    ) {
        middleware.append(ClosureMiddleware(body))
    }

    /// Adds a route; a later route for the same method and pattern replaces the earlier one.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: RouteHandler) {
        var parameterNames: [String] = []
        var keys: [NodeKey] = []
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            if segment.first == "{" && segment.last == "}" && segment.count > 2 {
                parameterNames.append(String(segment.dropFirst().dropLast()))
                keys.append(.parameter)
            } else {
                keys.append(.literal(String(segment)))
            }
        }
        let route = Route(pattern: pattern, parameterNames: parameterNames, handler: handler)
        root.insert(route, for: method, at: keys[...])
        if parameterNames.isEmpty {
            let canonical =
                "/"
                + keys.compactMap { key -> String? in
                    if case .literal(let text) = key { return text }
                    return nil
                }.joined(separator: "/")
            literalRoutes.insert(route, for: method, at: canonical)
        }
    }

    /// Adds an asynchronous route.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        on(method, pattern, .async(handler))
    }

    /// Adds a `GET` route; `.immediate { … }` or `.async { … }`.
    public mutating func get(_ pattern: String, _ handler: RouteHandler) { on(.get, pattern, handler) }
    /// Adds an asynchronous `GET` route.
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { on(.get, pattern, handler) }
    /// Adds a `POST` route; `.immediate { … }` or `.async { … }`.
    public mutating func post(_ pattern: String, _ handler: RouteHandler) { on(.post, pattern, handler) }
    /// Adds an asynchronous `POST` route.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { on(.post, pattern, handler) }
    /// Adds a `PUT` route; `.immediate { … }` or `.async { … }`.
    public mutating func put(_ pattern: String, _ handler: RouteHandler) { on(.put, pattern, handler) }
    /// Adds an asynchronous `PUT` route.
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { on(.put, pattern, handler) }
    /// Adds a `PATCH` route; `.immediate { … }` or `.async { … }`.
    public mutating func patch(_ pattern: String, _ handler: RouteHandler) { on(.patch, pattern, handler) }
    /// Adds an asynchronous `PATCH` route.
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) { on(.patch, pattern, handler) }
    /// Adds a `DELETE` route; `.immediate { … }` or `.async { … }`.
    public mutating func delete(_ pattern: String, _ handler: RouteHandler) { on(.delete, pattern, handler) }
    /// Adds an asynchronous `DELETE` route.
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { on(.delete, pattern, handler) }

    /// Answers `request` in process, as the server would, without a socket: routing, middleware,
    /// error responses, and no body for `HEAD` (with `Content-Length` set to the body's size).
    /// The server's default headers and access log are not applied here.
    public func respond(to request: Request, context: RequestContext = RequestContext()) async -> Response {
        var context = context
        var response: Response
        switch match(request) {
        case .found(let route, let parameters):
            context.parameters = parameters
            context.route = route.pattern
            switch route.handler {
            case .immediate(let handler):
                response = runImmediate(handler, request, context)
            case .async(let handler):
                response = await runAsync(handler, request, context)
            case .immediateOrAsync(let immediate, let handler):
                if let answer = runImmediateIfItAnswers(immediate, request, context) {
                    response = answer
                } else {
                    response = await runAsync(handler, request, context)
                }
            }
        case .methodNotAllowed(let pattern, let allowed):
            context.route = pattern
            response = respond(to: .methodNotAllowed(allowed), request, context)
        case .notFound:
            response = respond(to: .notFound(), request, context)
        }
        if request.method == .head {
            response.headers["Content-Length"] = String(response.body.count)
            response.body = []
        }
        return response
    }

    // MARK: - Used by the server

    /// The result of routing a request.
    enum Match {
        case found(Route, Parameters)
        case methodNotAllowed(pattern: String, allowed: [HTTPMethod])
        case notFound
    }

    /// A registered route. A class: the router's tables, a match and a request's state share it,
    /// so passing it on is one reference rather than its three.
    final class Route: Sendable {
        let pattern: String
        let parameterNames: [String]
        let handler: RouteHandler

        init(pattern: String, parameterNames: [String], handler: RouteHandler) {
            self.pattern = pattern
            self.parameterNames = parameterNames
            self.handler = handler
        }
    }

    /// The route for the request from the table of literal routes alone: `nil` when the path is
    /// not spelled canonically, names no such route, or the route lacks the method.
    func literalRoute(for request: Request) -> Route? {
        literalRoutes.route(for: request.method, at: request.rawPath)
    }

    /// Finds the route for the request's method and path.
    func match(_ request: Request) -> Match {
        // Most requests name a route without parameters, spelled canonically (no escape, no empty
        // segment, no trailing slash): one look in a table keyed by the path's bytes finds it.
        // Anything else, or a method the route does not have, goes through the tree, which gives
        // the same answer slowly.
        if let route = literalRoute(for: request) {
            return .found(route, Parameters())
        }
        let segments = request.rawPath.utf8.split(separator: UInt8(ascii: "/")).map {
            Encoding.percentDecoded(Substring($0))
        }
        var captured: [String] = []
        guard let node = root.find(segments[...], captured: &captured) else {
            return .notFound
        }
        let route = node.routes[request.method] ?? (request.method == .head ? node.routes[.get] : nil)
        guard let route else {
            let pattern = node.routes.values.first?.pattern ?? request.path
            return .methodNotAllowed(pattern: pattern, allowed: Router.allowedMethods(node.routes.keys))
        }
        return .found(route, Parameters(Array(zip(route.parameterNames, captured))))
    }

    /// Runs a synchronous handler, turning thrown errors into responses.
    func runImmediate(
        _ handler: @Sendable (Request, RequestContext) throws -> Response, _ request: Request,
        _ context: RequestContext
    ) -> Response {
        do {
            return try handler(request, context)
        } catch {
            return errorResponse(for: error, request, context)
        }
    }

    /// Runs the immediate half of an `.immediateOrAsync` route: its answer (a thrown error becomes
    /// one), or `nil` when the asynchronous half must answer.
    func runImmediateIfItAnswers(
        _ handler: @Sendable (Request, RequestContext) throws -> Response?, _ request: Request,
        _ context: RequestContext
    ) -> Response? {
        do {
            return try handler(request, context)
        } catch {
            return errorResponse(for: error, request, context)
        }
    }

    /// Runs the middleware chain around an asynchronous handler, turning thrown errors into
    /// responses.
    func runAsync(_ handler: @escaping Handler, _ request: Request, _ context: RequestContext) async -> Response {
        do {
            return try await callChain(from: 0, request, context, endpoint: handler)
        } catch {
            return errorResponse(for: error, request, context)
        }
    }

    /// The response for an error thrown by a handler or middleware.
    func errorResponse(for error: any Error, _ request: Request, _ context: RequestContext) -> Response {
        if let known = error as? any HTTPErrorConvertible {
            return respond(to: known.httpError, request, context)
        }
        errorReporter?(error, request, context)
        return respond(to: .internalError, request, context)
    }

    /// The answer for `error`, written by ``errorResponder``, with the error's header fields.
    func respond(to error: HTTPError, _ request: Request, _ context: RequestContext) -> Response {
        var response = errorResponder(error, request, context)
        for field in error.headers {
            response.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return response
    }

    private func callChain(
        from index: Int, _ request: Request, _ context: RequestContext, endpoint: @escaping Handler
    )
        async throws -> Response
    {
        guard index < middleware.count else {
            return try await endpoint(request, context)
        }
        return try await middleware[index].handle(request, context: context) { request, context in
            try await self.callChain(from: index + 1, request, context, endpoint: endpoint)
        }
    }

    /// The methods for an `Allow` field, `HEAD` included where `GET` is, in a stable order.
    private static func allowedMethods(_ methods: some Sequence<HTTPMethod>) -> [HTTPMethod] {
        var set = Set(methods)
        if set.contains(.get) {
            set.insert(.head)
        }
        let order: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        return order.filter { set.contains($0) } + set.subtracting(order).sorted { $0.rawValue < $1.rawValue }
    }

    // MARK: - Routes without parameters

    /// The routes of patterns made only of literal segments, in an open-addressed table keyed by
    /// the canonical path's bytes: a request's path is hashed and checked as it is read, without a
    /// `String` hash, and its methods are looked through (a path has a handful).
    private struct LiteralRoutes: Sendable {
        /// Each slot's path hash, 0 for a free slot (a hash of 0 is stored as 1); the slots'
        /// count is a power of two, at least twice the paths'.
        private var hashes: [UInt64] = Array(repeating: 0, count: 16)
        private var paths: [[UInt8]] = Array(repeating: [], count: 16)
        private var routes: [[(method: HTTPMethod, route: Route)]] = Array(repeating: [], count: 16)
        private var count = 0

        /// FNV-1a over the bytes, never 0.
        private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return max(hash, 1)
        }

        private static func same(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
            guard first.count == second.count else { return false }
            guard let one = first.baseAddress, let other = second.baseAddress else { return true }
            return memcmp(one, other, first.count) == 0
        }

        /// The slot holding `path`, or the free slot where it would go.
        private func slot(for path: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
            var index = Int(truncatingIfNeeded: hash) & (hashes.count - 1)
            while hashes[index] != 0 {
                if hashes[index] == hash && paths[index].withUnsafeBufferPointer({ Self.same($0, path) }) {
                    return index
                }
                index = (index + 1) & (hashes.count - 1)
            }
            return index
        }

        mutating func insert(_ route: Route, for method: HTTPMethod, at path: String) {
            let bytes = Array(path.utf8)
            let (hash, index) = bytes.withUnsafeBufferPointer { bytes in
                let hash = Self.hash(bytes)
                return (hash, slot(for: bytes, hash: hash))
            }
            if hashes[index] == 0 {
                hashes[index] = hash
                paths[index] = bytes
                count += 1
            }
            routes[index].removeAll { $0.method == method }
            routes[index].append((method, route))
            if count * 2 > hashes.count {
                let entries = hashes.indices.filter { hashes[$0] != 0 }.map { (hashes[$0], paths[$0], routes[$0]) }
                hashes = Array(repeating: 0, count: hashes.count * 2)
                paths = Array(repeating: [], count: hashes.count)
                routes = Array(repeating: [], count: hashes.count)
                for (hash, path, methods) in entries {
                    let index = path.withUnsafeBufferPointer { slot(for: $0, hash: hash) }
                    hashes[index] = hash
                    paths[index] = path
                    routes[index] = methods
                }
            }
        }

        /// The route for `method` (or `GET`'s for `HEAD`) at `rawPath` when the path is spelled
        /// canonically: no percent escape, no empty segment, no trailing slash (except `/` itself).
        func route(for method: HTTPMethod, at rawPath: Substring) -> Route? {
            var rawPath = rawPath
            let found = rawPath.withUTF8 { path -> Int? in
                var previous: UInt8 = 0
                for byte in path {
                    if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/")) {
                        return nil
                    }
                    previous = byte
                }
                guard previous != UInt8(ascii: "/") || path.count == 1 else { return nil }
                let index = slot(for: path, hash: Self.hash(path))
                return hashes[index] == 0 ? nil : index
            }
            guard let found else { return nil }
            var forGet: Route?
            for candidate in routes[found] {
                if candidate.method == method { return candidate.route }
                if candidate.method == .get { forGet = candidate.route }
            }
            return method == .head ? forGet : nil
        }
    }

    // MARK: - Route tree

    private enum NodeKey {
        case literal(String)
        case parameter
    }

    private struct Node: Sendable {
        var literals: [String: Node] = [:]
        /// Zero or one child matching any single segment.
        var parameter: [Node] = []
        var routes: [HTTPMethod: Route] = [:]

        mutating func insert(_ route: Route, for method: HTTPMethod, at keys: ArraySlice<NodeKey>) {
            guard let key = keys.first else {
                routes[method] = route
                return
            }
            switch key {
            case .literal(let text):
                literals[text, default: Node()].insert(route, for: method, at: keys.dropFirst())
            case .parameter:
                if parameter.isEmpty {
                    parameter.append(Node())
                }
                parameter[0].insert(route, for: method, at: keys.dropFirst())
            }
        }

        func find(_ segments: ArraySlice<String>, captured: inout [String]) -> Node? {
            guard let segment = segments.first else {
                return routes.isEmpty ? nil : self
            }
            if let child = literals[segment], let found = child.find(segments.dropFirst(), captured: &captured) {
                return found
            }
            if let child = parameter.first {
                captured.append(segment)
                if let found = child.find(segments.dropFirst(), captured: &captured) {
                    return found
                }
                captured.removeLast()
            }
            return nil
        }
    }
}
