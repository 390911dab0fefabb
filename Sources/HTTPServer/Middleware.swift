/// The rest of the chain a middleware hands the request on to: the next middleware, and in the end
/// the route's handler.
public typealias Responder = @Sendable (Request, RequestContext) async throws -> Response

/// Code that runs around every asynchronous route, in the order it was added to the router.
///
/// A middleware can change the request or context before calling `next`, change the response
/// after, or answer on its own without calling `next` (a short-circuit). Errors thrown inside the
/// chain travel out through every middleware before they become an error response.
///
/// Middleware does not run for `.immediate` routes, nor for the 404 and 405 answers the router
/// gives on its own. The server's default headers and access log apply to all responses.
public protocol Middleware: Sendable {
    /// Handles `request`, usually by calling `next` with it (or a changed copy) and returning, or
    /// changing, what `next` returns.
    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response
}

/// A middleware made of a closure.
public struct ClosureMiddleware: Middleware {
    private let body: @Sendable (Request, RequestContext, Responder) async throws -> Response

    /// A middleware that runs `body`.
    public init(_ body: @escaping @Sendable (Request, RequestContext, Responder) async throws -> Response) {
        self.body = body
    }

    /// Runs the closure.
    public func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        try await body(request, context, next)
    }
}
