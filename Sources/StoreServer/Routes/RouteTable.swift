import CheckoutKit
import HTTPServer
import StoreAPI
import StoreCrypto
import StoreDatabase
import StoreServices

/// Who may call a route. The route table checks it before the handler runs, and the handler is
/// given what the check established: a handler can only be registered for the access its
/// endpoint declares.
enum Access: Hashable, Sendable, CustomStringConvertible {
    /// Anyone (a handler may still look for an optional session of its own).
    case anyone
    /// A shopper with a session: `Authorization: Bearer <token>`, 401 without.
    case shopper
    /// A member of staff with a staff session's bearer token (401 without — a customer's token is
    /// not one), whose role has the permission (403 without); any member of staff for `nil`.
    case staff(Permission?)

    var description: String {
        switch self {
        case .anyone: "anyone"
        case .shopper: "shopper"
        case .staff(let permission): "staff" + (permission.map { " (\($0.rawValue))" } ?? "")
        }
    }
}

/// Which of the store's faces a route belongs to, which decides how its errors are written: JSON
/// for the API (and the Fake-Store routes and images), a page in the store's layout for the
/// storefront.
enum Face: Hashable, Sendable {
    case api
    case storefront
    /// The back office's pages under `/admin`: errors are pages in the back office's layout.
    case backOffice
}

/// A route as registered: the list every test that walks "all routes" reads.
struct RouteEntry: Hashable, Sendable, CustomStringConvertible {
    let method: HTTPMethod
    let pattern: String
    let access: Access
    let face: Face

    var description: String { "\(method.rawValue) \(pattern)" }
}

/// What a shopper's handler is given: the request's context, and the shopper its session names.
struct ShopperContext: Sendable {
    let route: RequestContext
    let shopper: Shopper
    /// What pricing the shopper's basket needs, read with the session, for a route registered
    /// `readingBasket` whose session was not in the cache; `nil` otherwise.
    var basket: PricingInputs? = nil

    /// The route's path parameter, typed: see ``HTTPServer/RequestContext/parameter(_:)``.
    func parameter<Value: PathParameter>(_ type: Value.Type = Value.self) throws(HTTPError) -> Value {
        try route.parameter(type)
    }
}

/// What a staff handler is given: the request's context, and the member of staff its session names.
struct StaffContext: Sendable {
    let route: RequestContext
    let staff: StaffRecord
    /// The session's token, to end it.
    let token: SecretToken

    func parameter<Value: PathParameter>(_ type: Value.Type = Value.self) throws(HTTPError) -> Value {
        try route.parameter(type)
    }
}

/// A value a route reads from its path, such as the product in `/api/products/{id}`, and the
/// "not found" it answers when the segment cannot name one.
protocol PathParameter: Sendable {
    init?(pathSegment: String)
    static var notFound: HTTPError { get }
}

extension ProductID: PathParameter {
    init?(pathSegment: String) { self.init(parsing: pathSegment) }
    static var notFound: HTTPError { .productNotFound }
}

extension OrderID: PathParameter {
    init?(pathSegment: String) { self.init(parsing: pathSegment) }
    static var notFound: HTTPError { .orderNotFound }
}

extension CustomerID: PathParameter {
    init?(pathSegment: String) {
        guard let id = Int64(positiveDecimal: pathSegment) else { return nil }
        self.init(rawValue: id)
    }
    static var notFound: HTTPError { .userNotFound }
}

/// A category as a path names it (`/api/categories/{name}/products`).
struct CategoryName: PathParameter {
    let text: String
    init?(pathSegment: String) {
        guard !pathSegment.isEmpty else { return nil }
        text = pathSegment
    }
    static var notFound: HTTPError { .categoryNotFound }
}

/// An image file as a path names it (`/images/{file}`).
struct ImageFileName: PathParameter {
    let text: String
    init?(pathSegment: String) {
        guard !pathSegment.isEmpty else { return nil }
        text = pathSegment
    }
    static var notFound: HTTPError { .imageNotFound }
}

extension RequestContext {
    /// The matched route's one path parameter, read as `Value`, or `Value`'s "not found" when the
    /// segment cannot name one. Every route of the store has at most one parameter, so it is read
    /// by type, never by a name written again beside the pattern.
    func parameter<Value: PathParameter>(_ type: Value.Type = Value.self) throws(HTTPError) -> Value {
        guard parameters.count == 1, let value = parameters.values.first.flatMap(Value.init(pathSegment:)) else {
            throw Value.notFound
        }
        return value
    }
}

/// The store's routes, registered through the endpoints that describe them: each with the access
/// its endpoint declares, enforced here before its handler runs, and each recorded in ``entries``.
struct RouteTable {
    private(set) var router = Router()
    private(set) var entries: [RouteEntry] = []
    let sessions: Sessions
    let staff: StaffService
    /// Who may open a back-office page: the staff cookie, the page's permission, a form's CSRF token.
    let backOfficeGate: BackOfficeGate

    init(sessions: Sessions, staff: StaffService, backOfficeGate: BackOfficeGate) {
        self.sessions = sessions
        self.staff = staff
        self.backOfficeGate = backOfficeGate
    }

    /// An endpoint anyone may call.
    mutating func open<Body, Answer>(_ endpoint: Endpoint<Body, Answer>, _ handler: RouteHandler) {
        precondition(endpoint.access == .open, "\(endpoint) needs a session: register a shopper's handler")
        register(HTTPMethod(rawValue: endpoint.method.rawValue), endpoint.pattern, .anyone, .api, handler)
    }

    /// An endpoint anyone may call, answered asynchronously.
    mutating func open<Body, Answer>(
        _ endpoint: Endpoint<Body, Answer>,
        _ handler: @escaping @Sendable (Request, RequestContext) async throws -> Response
    ) {
        open(endpoint, .async(handler))
    }

    /// An endpoint for a shopper with a session: without a valid bearer token the answer is 401
    /// before the handler runs; with one, the handler is given the shopper. Its answers are never
    /// stored by caches.
    ///
    /// - Parameter readingBasket: the handler prices the basket first (a checkout): what pricing
    ///   needs is read with the session, in the same round trip on PostgreSQL, and given in
    ///   ``ShopperContext/basket``.
    mutating func shopper<Body, Answer>(
        _ endpoint: Endpoint<Body, Answer>, readingBasket: Bool = false,
        _ handler: @escaping @Sendable (Request, ShopperContext) async throws -> Response
    ) {
        precondition(endpoint.access == .session, "\(endpoint) is open to anyone: register an open handler")
        let sessions = self.sessions
        register(
            HTTPMethod(rawValue: endpoint.method.rawValue), endpoint.pattern, .shopper, .api,
            .async { request, context in
                let caller: ShopperContext
                if readingBasket {
                    guard let token = Sessions.bearerToken(of: request),
                        let read = try await sessions.shopperWithBasket(for: token)
                    else { throw HTTPError.unauthorized }
                    caller = ShopperContext(route: context, shopper: read.shopper, basket: read.basket)
                } else {
                    guard let shopper = try await sessions.shopper(for: request) else { throw HTTPError.unauthorized }
                    caller = ShopperContext(route: context, shopper: shopper)
                }
                var response = try await handler(request, caller)
                response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                return response
            })
    }

    /// An endpoint of the back office: without a staff session's bearer token the answer is 401,
    /// without the endpoint's permission 403, both before the handler runs; the handler is given
    /// the member of staff. Its answers are never stored by caches.
    mutating func staff<Body, Answer>(
        _ endpoint: Endpoint<Body, Answer>,
        _ handler: @escaping @Sendable (Request, StaffContext) async throws -> Response
    ) {
        guard case .staff(let permission) = endpoint.access else {
            preconditionFailure("\(endpoint) is not a staff endpoint: register it for its own callers")
        }
        let staff = self.staff
        register(
            HTTPMethod(rawValue: endpoint.method.rawValue), endpoint.pattern, .staff(permission), .api,
            .async { request, context in
                guard let token = Sessions.bearerToken(of: request), let member = try await staff.staff(for: token)
                else { throw HTTPError.staffSessionRequired }
                if let permission, !member.role.may(permission) { throw HTTPError.forbidden }
                var response = try await handler(request, StaffContext(route: context, staff: member, token: token))
                response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                return response
            })
    }

    /// A storefront page or form: anyone may ask for it (its forms check their own CSRF token or
    /// origin), and its errors are pages.
    mutating func page(_ method: HTTPMethod, _ pattern: String, _ handler: RouteHandler) {
        register(method, pattern, .anyone, .storefront, handler)
    }

    /// A storefront page or form answered asynchronously.
    mutating func page(
        _ method: HTTPMethod, _ pattern: String,
        _ handler: @escaping @Sendable (Request, RequestContext) async throws -> Response
    ) {
        page(method, pattern, .async(handler))
    }

    /// A back-office page or form for a member of staff whose role has `permission` (any member of
    /// staff for `nil`): ``BackOfficeGate`` admits the request before the handler runs — without a
    /// staff session the answer is the sign-in page's address, without the permission a 403 page, a
    /// form without its CSRF token a 403 "expired form" page — and the handler is given the member
    /// of staff and the page's context. Its answers are never stored by caches.
    mutating func staffPage(
        _ method: HTTPMethod, _ pattern: String, _ permission: Permission?,
        _ handler: @escaping @Sendable (StaffPage) async throws -> Response
    ) {
        let gate = backOfficeGate
        register(
            method, pattern, .staff(permission), .backOffice,
            .async { request, context in
                switch try await gate.admit(request, context, permission: permission) {
                case .admitted(let page):
                    var response = try await handler(page)
                    response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                    return response
                case .refused(let response):
                    return response
                }
            })
    }

    /// A back-office address anyone may open: the sign-in form and the stylesheet.
    mutating func openBackOfficePage(_ method: HTTPMethod, _ pattern: String, _ handler: RouteHandler) {
        register(method, pattern, .anyone, .backOffice, handler)
    }

    mutating func use(_ middleware: some Middleware) {
        router.use(middleware)
    }

    private mutating func register(
        _ method: HTTPMethod, _ pattern: String, _ access: Access, _ face: Face, _ handler: RouteHandler
    ) {
        router.on(method, pattern, handler)
        entries.append(RouteEntry(method: method, pattern: pattern, access: access, face: face))
    }

    /// The first path segments of the API's routes (`api`, `images`, `products`…): a path that
    /// begins with one is the API's even when no route matches it, and gets a JSON error.
    var apiFirstSegments: Set<Substring> {
        Set(entries.filter { $0.face == .api }.compactMap { $0.pattern.split(separator: "/").first })
    }
}
