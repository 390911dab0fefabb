import HTTPServer
import StoreAPI
import StoreServices

/// Sessions: a new anonymous shopper, a customer's login (keeping the anonymous basket), logout.
struct SessionRoutes: Sendable {
    let sessions: Sessions
    let login: Login

    func register(on routes: inout RouteTable) {
        routes.open(Endpoints.createSession) { request, _ in
            let token = try await sessions.createAnonymous(from: request.clientAddress)
            return try respond(SessionResponse(token: token.text), status: .created)
        }
        routes.open(Endpoints.login) { request, _ in
            let body = try request.decodeJSON(LoginRequest.self)
            let customer = try await login.authenticate(
                email: body.email, password: body.password, address: request.clientAddress)
            // Logging in keeps the basket of the anonymous session the caller had, if any, and
            // ends that session, whose shopper it carried into the account: an anonymous token
            // seen before login is worth nothing after. (A customer's token sent along is another
            // session of its own, on another device perhaps, and is left to its logout.)
            let previous = try await sessions.shopper(for: request)
            let anonymous = previous?.customerID == nil ? previous : nil
            let token = try await sessions.createForCustomer(customer.id, previous: anonymous)
            if anonymous != nil { try await sessions.end(request) }
            return try respond(
                LoginResponse(
                    token: token.text,
                    customer: CustomerBody(
                        email: customer.email, firstName: customer.firstName, lastName: customer.lastName)))
        }
        routes.shopper(Endpoints.logout) { request, _ in
            try await sessions.end(request)
            return Response(status: .noContent)
        }
    }
}

/// A JSON response in the store's encoding, never cached by intermediaries.
func respond(_ value: some Encodable, status: HTTPStatus = .ok) throws -> Response {
    var response = try Response.json(value, status: status, encoder: StoreJSON.encoder)
    response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
    return response
}
