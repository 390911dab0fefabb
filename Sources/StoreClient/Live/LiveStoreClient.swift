import CheckoutKit
import Foundation
import StoreAPI

/// The store's API for Swift apps (docs/BEHAVIOUR.md §9, §10): every client protocol of
/// ``StoreClients`` in one object, over an ``HTTPTransport``.
///
/// Each request is built from its `Endpoint` description in `StoreAPI` (method, path pattern,
/// whether it needs a session), the same one the server routes by, and each answer is decoded as
/// the endpoint's answer type or mapped to a ``StoreClientError`` (see that type's table) — never
/// a crash, whatever arrives.
///
/// The client keeps one bearer token:
/// - a request that needs a session, made while the client has none, first starts an anonymous
///   one (`POST /api/sessions`; concurrent requests share it);
/// - every request carries the token when there is one; ``login(_:)`` sends it so that the
///   server keeps the anonymous basket, and then speaks with the customer's token;
/// - ``logout()`` ends the session on the server and forgets the token;
/// - a 401 `unauthorized` (an expired or unknown session) forgets the token it was sent with, so
///   the next request starts a new anonymous session. Nothing is retried by itself.
///
/// ```swift
/// let client = LiveStoreClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let model = RootModel(dependencies: AppDependencies(clients: StoreClients(client), …))
/// ```
public final class LiveStoreClient: CatalogClient, BasketClient, CheckoutClient, OrdersClient, SessionClient,
    ProfileClient, Sendable
{
    /// What the client speaks through.
    public let transport: any HTTPTransport
    private let bearer: BearerToken

    /// A client over `transport`, speaking as the shopper whose session `token` is (`nil`: one is
    /// started when first needed).
    public init(transport: any HTTPTransport, token: String? = nil) {
        self.transport = transport
        bearer = BearerToken(token)
    }

    /// A client of the store at `baseURL` over a ``URLSessionTransport`` whose every exchange has
    /// the deadline `timeout`.
    public convenience init(baseURL: URL, timeout: Duration = .seconds(30), token: String? = nil) {
        self.init(transport: URLSessionTransport(baseURL: baseURL, timeout: timeout), token: token)
    }

    /// The bearer token the client speaks with now; `nil` before the first session.
    public var token: String? {
        get async { await bearer.current }
    }

    // MARK: - CatalogClient

    /// `GET /api/products`.
    public func products() async throws(StoreClientError) -> [ProductBody] {
        try await send(Endpoints.products)
    }

    /// `GET /api/products/{id}`.
    public func product(id: Int64) async throws(StoreClientError) -> ProductBody {
        try await send(Endpoints.product, parameters: [String(id)])
    }

    /// `GET /api/categories`.
    public func categories() async throws(StoreClientError) -> [String] {
        try await send(Endpoints.categories)
    }

    /// `GET /api/categories/{name}/products`.
    public func products(inCategory name: String) async throws(StoreClientError) -> [ProductBody] {
        try await send(Endpoints.categoryProducts, parameters: [name])
    }

    // MARK: - BasketClient

    /// `GET /api/basket`.
    public func basket() async throws(StoreClientError) -> BasketBody {
        try await send(Endpoints.basket)
    }

    /// `PUT /api/basket/items/{product_id}`.
    public func setQuantity(
        _ request: SetQuantityRequest, productID: Int64
    ) async throws(StoreClientError) -> BasketBody {
        try await send(Endpoints.setQuantity, parameters: [String(productID)], body: request)
    }

    /// `DELETE /api/basket/items/{product_id}`.
    public func removeLine(productID: Int64) async throws(StoreClientError) -> BasketBody {
        try await send(Endpoints.removeLine, parameters: [String(productID)])
    }

    /// `PUT /api/basket/promotion`.
    public func applyPromotion(_ request: ApplyPromotionRequest) async throws(StoreClientError) -> BasketBody {
        try await send(Endpoints.applyPromotion, body: request)
    }

    /// `DELETE /api/basket/promotion`.
    public func removePromotion() async throws(StoreClientError) -> BasketBody {
        try await send(Endpoints.removePromotion)
    }

    // MARK: - CheckoutClient

    /// `POST /api/checkout` with `Idempotency-Key: idempotencyKey`, sent once: a retry is the
    /// caller's, with the same key and the same request.
    public func checkout(
        _ request: CheckoutRequest, idempotencyKey: IdempotencyKey
    ) async throws(StoreClientError) -> OrderBody {
        try await send(
            Endpoints.checkout, body: request, headers: [Endpoints.idempotencyKeyHeader: idempotencyKey.rawValue])
    }

    // MARK: - OrdersClient

    /// `GET /api/orders`.
    public func orders() async throws(StoreClientError) -> [OrderBody] {
        try await send(Endpoints.orders)
    }

    /// `GET /api/orders/{id}`.
    public func order(id: String) async throws(StoreClientError) -> OrderBody {
        try await send(Endpoints.order, parameters: [id])
    }

    // MARK: - ProfileClient

    /// `GET /api/profile`.
    public func profile() async throws(StoreClientError) -> ProfileBody {
        try await send(Endpoints.profile)
    }

    // MARK: - SessionClient

    /// `POST /api/sessions`: a new anonymous shopper, whose token replaces the client's.
    public func startSession() async throws(StoreClientError) -> SessionResponse {
        let session = try await send(Endpoints.createSession)
        await bearer.set(session.token)
        return session
    }

    /// `POST /api/login` with the current token (so the anonymous basket is kept); the customer's
    /// token replaces it.
    public func login(_ request: LoginRequest) async throws(StoreClientError) -> LoginResponse {
        let answer = try await send(Endpoints.login, body: request)
        await bearer.set(answer.token)
        return answer
    }

    /// `POST /api/logout`, then the token is forgotten whatever the answer: the next request is a
    /// new anonymous shopper's.
    public func logout() async {
        guard let token = await bearer.current else { return }
        _ = try? await exchange(Endpoints.logout, parameters: [], body: [], headers: [:], token: token)
        await bearer.forget(token)
    }

    // MARK: - Any endpoint

    /// Sends `endpoint`, which takes a JSON body, and returns its answer.
    ///
    /// - Parameters:
    ///   - parameters: the values of the path's parameters, in order.
    ///   - headers: header fields to send besides the client's own.
    public func send<Body: Encodable, Answer: Decodable>(
        _ endpoint: Endpoint<Body, Answer>, parameters: [String] = [], body: Body, headers: HeaderFields = [:]
    ) async throws(StoreClientError) -> Answer {
        let bytes: [UInt8]
        do {
            bytes = Array(try StoreJSON.encoder.encode(body))
        } catch {
            throw .unexpectedAnswer(status: nil, detail: "the request body of \(endpoint) could not be encoded")
        }
        return try await send(endpoint, parameters: parameters, bytes: bytes, headers: headers)
    }

    /// Sends `endpoint`, which takes no body, and returns its answer.
    ///
    /// - Parameter parameters: the values of the path's parameters, in order.
    public func send<Answer: Decodable>(
        _ endpoint: Endpoint<NoBody, Answer>, parameters: [String] = [], headers: HeaderFields = [:]
    ) async throws(StoreClientError) -> Answer {
        try await send(endpoint, parameters: parameters, bytes: [], headers: headers)
    }

    // MARK: - Work

    private func send<Body, Answer: Decodable>(
        _ endpoint: Endpoint<Body, Answer>, parameters: [String], bytes: [UInt8], headers: HeaderFields
    ) async throws(StoreClientError) -> Answer {
        // Every request carries the token when there is one: logging in keeps the anonymous
        // basket of the session it is sent with, and the open endpoints ignore it.
        let token: String?
        switch endpoint.access {
        case .session:
            token = try await bearer.ensure { [weak self] in
                guard let self else { return .failure(.unavailable) }
                do throws(StoreClientError) {
                    return .success(try await self.send(Endpoints.createSession).token)
                } catch {
                    return .failure(error)
                }
            }
        case .open, .staff:
            // The shop's client holds a shopper's token: a staff endpoint answers it 401.
            token = await bearer.current
        }
        let response = try await exchange(
            endpoint, parameters: parameters, body: bytes, headers: headers, token: token)
        return try Self.answer(Answer.self, of: response, from: endpoint)
    }

    /// Sends one request and returns the answer if it is a success; a 401 `unauthorized` forgets
    /// the token it was sent with.
    private func exchange<Body, Answer>(
        _ endpoint: Endpoint<Body, Answer>, parameters: [String], body: [UInt8], headers extra: HeaderFields,
        token: String?
    ) async throws(StoreClientError) -> TransportResponse {
        var headers: HeaderFields = ["Accept": "application/json"]
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        for field in extra.fields { headers[field.name] = field.value }
        let request = TransportRequest(
            method: endpoint.method.rawValue, path: endpoint.path(parameters), headers: headers, body: body)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw StoreClientError(error)
        }
        guard (200...299).contains(response.status) else {
            let error = StoreClientError(response: response)
            if let token, case .unauthorized = error, Self.errorType(of: response) == "unauthorized" {
                await bearer.forget(token)
            }
            throw error
        }
        return response
    }

    /// A success's body as the endpoint's answer.
    static func answer<Body, Answer: Decodable>(
        _: Answer.Type, of response: TransportResponse, from endpoint: Endpoint<Body, Answer>
    ) throws(StoreClientError) -> Answer {
        // An endpoint that answers with no body (204) needs nothing read.
        if let none = NoBody() as? Answer { return none }
        do {
            return try StoreJSON.decoder.decode(Answer.self, from: Data(response.body))
        } catch {
            throw .unexpectedAnswer(
                status: response.status,
                detail: "the answer to \(endpoint) is not \(Answer.self): \(Self.describe(error))")
        }
    }

    /// The `type` of the store's error body, if the answer has one.
    private static func errorType(of response: TransportResponse) -> String? {
        (try? StoreJSON.decoder.decode(ErrorBody.self, from: Data(response.body)))?.error.type
    }

    /// A decoding failure in words that quote nothing of the body: what went wrong and where.
    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "unreadable" }
        let path: [any CodingKey]
        let what: String
        switch decoding {
        case .typeMismatch(_, let context):
            (what, path) = ("a value of the wrong type", context.codingPath)
        case .valueNotFound(_, let context):
            (what, path) = ("a missing value", context.codingPath)
        case .keyNotFound(let key, let context):
            (what, path) = ("no \(key.stringValue)", context.codingPath)
        case .dataCorrupted(let context):
            (what, path) = (context.codingPath.isEmpty ? "not JSON" : "a malformed value", context.codingPath)
        @unknown default:
            (what, path) = ("unreadable", [])
        }
        let location = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return location.isEmpty ? what : "\(what) at \(location)"
    }
}
