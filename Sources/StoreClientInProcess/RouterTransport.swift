import HTTPServer
import StoreClient

/// A transport that answers in process, without a socket: each request goes straight to a
/// router's ``Router/respond(to:context:)`` — routing, middleware and error answers as the server
/// runs them (but not the server-wide header fields and access log, which the socket layer adds).
///
/// ```swift
/// let client = LiveStoreClient(transport: RouterTransport(router: router))
/// ```
public struct RouterTransport: HTTPTransport {
    private let respond: @Sendable (Request) async -> Response
    private let clientAddress: String?

    /// A transport answered by `router`, as if from `clientAddress`.
    public init(router: Router, clientAddress: String? = "127.0.0.1") {
        self.init(clientAddress: clientAddress) { request in await router.respond(to: request) }
    }

    /// A transport answered by `respond` (a server's router, however it is reached), as if from
    /// `clientAddress`.
    public init(clientAddress: String? = "127.0.0.1", respond: @escaping @Sendable (Request) async -> Response) {
        self.respond = respond
        self.clientAddress = clientAddress
    }

    /// Hands `request` to the router and returns its answer. Throws ``TransportError/cancelled``
    /// when the calling task was cancelled before the answer.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard request.path.hasPrefix("/") else { throw .invalidRequest(detail: "the path does not start with /") }
        var headers = HTTPHeaders()
        for field in request.headers.fields { headers.add(name: field.name, value: field.value) }
        let answer = await respond(
            Request(
                method: HTTPMethod(rawValue: request.method), target: request.path, headers: headers,
                body: request.body, clientAddress: clientAddress))
        if Task.isCancelled { throw .cancelled }
        var fields = HeaderFields()
        for field in answer.headers.fields { fields.append(name: field.name, value: field.value) }
        return TransportResponse(status: answer.status.code, headers: fields, body: answer.body)
    }
}
