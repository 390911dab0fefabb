import HTTPServer
import StoreAPI

extension Router {
    /// Registers `handler` for `endpoint`'s method and path pattern, as described in `StoreAPI`.
    mutating func on<Body, Answer>(_ endpoint: Endpoint<Body, Answer>, _ handler: RouteHandler) {
        on(HTTPMethod(rawValue: endpoint.method.rawValue), endpoint.pattern, handler)
    }

    /// Registers an asynchronous `handler` for `endpoint`.
    mutating func on<Body, Answer>(_ endpoint: Endpoint<Body, Answer>, _ handler: @escaping Router.Handler) {
        on(endpoint, .async(handler))
    }
}
