import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreTestSupport
import TestWaiting
import Testing

@testable import StoreServer

/// The endpoints described in `StoreAPI` are the routes the server answers, and every error —
/// expected, unknown route, unexpected — takes the one error path.
@Suite("Endpoints and the error path") struct ErrorPathTests {
    /// What the router says when no route matches (a missing product says something else).
    static let noRouteMessage = "No resource exists at this path."

    /// An empty JSON object for the methods that carry a body.
    static func body(for route: RouteEntry) -> String? {
        route.method == .get || route.method == .delete ? nil : "{}"
    }

    /// A path for the route's pattern, with `1` for its parameter.
    static func path(for route: RouteEntry) -> String {
        route.pattern.replacingOccurrences(of: #"\{[a-z_]+\}"#, with: "1", options: .regularExpression)
    }

    /// Every route in the table is routed: with made-up parameters it may answer "no such
    /// product", but never "no such route" or "wrong method".
    @Test(arguments: Backend.allCases)
    func everyRouteIsRouted(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            for route in store.server.routes where route.face == .api {
                let reply = try await store.send(
                    route.method.rawValue, Self.path(for: route), token: token, json: Self.body(for: route))
                #expect(reply.status != 405, "\(route)")
                #expect(!reply.text.contains(Self.noRouteMessage), "\(route): \(reply.text)")
            }
        }
    }

    /// Every route for shoppers (and for staff) says so with 401 and a challenge when called
    /// without a session, before its handler runs; and only those do.
    @Test(arguments: [Backend.sqlite])
    func shopperRoutesRequireASession(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            #expect(store.server.routes.contains { $0.access == .shopper })
            for route in store.server.routes where route.face == .api {
                let reply = try await store.send(
                    route.method.rawValue, Self.path(for: route), json: Self.body(for: route))
                switch route.access {
                case .shopper, .staff:
                    #expect(reply.status == 401, "\(route)")
                    #expect(reply.errorType == "unauthorized", "\(route)")
                    #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(route)")
                case .anyone:
                    #expect(reply.status != 401, "\(route)")
                }
            }
        }
    }

    /// The same unknown route, on every method, answers the store's JSON error; so do 405s.
    @Test(arguments: [Backend.sqlite])
    func unknownRoutesAnswerTheStoresError(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            for method in ["GET", "POST", "DELETE"] {
                let reply = try await store.send(method, "/api/no/such/thing")
                #expect(reply.status == 404)
                #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
                #expect(reply.errorType == "not_found")
                #expect(reply.text.contains(Self.noRouteMessage))
                #expect(reply.header("Cache-Control") == "no-store")
            }
            let wrongMethod = try await store.send("PATCH", Endpoints.basket.pattern)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.errorType == "method_not_allowed")
            #expect(wrongMethod.header("Allow") == "GET, HEAD")
            #expect(wrongMethod.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    /// A fault nobody expected (here: the database closed under the server) answers a generic
    /// 500 and leaves exactly one error line, with the request id of its access line, the route
    /// and the error's type (a database error's kind and code) — nothing from the request.
    @Test(arguments: Backend.allCases)
    func anUnexpectedErrorIsLoggedOnce(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            _ = try await store.basket(token)
            await store.database.close()
            let reply = try await store.send(Endpoints.basket, token: token)
            #expect(reply.status == 500 || reply.status == 503, "\(reply.status) \(reply.text)")
            let errors = store.log.all.filter { $0.contains(#""event":"unexpected_error""#) }
            try #require(errors.count == 1, "\(store.log.all)")
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data(errors[0].utf8)) as? [String: Any])
            #expect(line["level"] as? String == "error")
            #expect(line["route"] as? String == "/api/basket")
            #expect(line["method"] as? String == "GET")
            #expect(line["error_type"] as? String == "StoreSQL.DatabaseError")
            // A database error is named by its kind and code; its message is not logged.
            #expect(line["error_kind"] as? String == "misuse")
            #expect(line["error_code"] as? String == (backend == .sqlite ? "SQLITE_MISUSE (21)" : "misuse"))
            #expect(!errors[0].contains("closed"))
            let requestID = try #require(line["request_id"] as? String)
            let access = store.log.all.filter { $0.contains(requestID) && $0.contains(#""status":"#) }
            #expect(access.count == 1)
            #expect(!store.log.all.joined().contains(token))
        }
    }

    /// libmicrohttpd's own complaints join the JSON log instead of standard error.
    @Test(arguments: [Backend.sqlite])
    func libraryMessagesJoinTheLog(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let status = try await store.rawStatus(
                "POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 4242424242424242x\r\n\r\n", body: [])
            #expect(status == 400)
            let messages: [String] =
                try await eventuallyValue { () -> [String]? in
                    let lines = store.log.all.filter { $0.contains(#""event":"http_library""#) }
                    return lines.isEmpty ? nil : lines
                } ?? []
            #expect(!messages.isEmpty)
            for message in messages {
                let line = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
                #expect(line["level"] as? String == "warning")
                #expect(!message.contains("4242424242424242"))
            }
        }
    }

    /// A NUL or another control character in any text a client sends is bad input, never a 500
    /// (PostgreSQL cannot even store a NUL).
    @Test(arguments: Backend.allCases)
    func controlCharactersInTextAreBadInputNotFaults(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.newSession()
            #expect(try await store.setQuantity(1, of: 1, token: token).status == 200)
            let replies = [
                try await store.send(
                    Endpoints.applyPromotion, body: ApplyPromotionRequest(code: "RUN\u{0}10"), token: token),
                try await store.send(
                    "POST", "/api/checkout", token: token,
                    json: #"{"payment_method":{"type":"card","token":"tok_\u0000visa"},"expected_total":"26.85"}"#,
                    headers: [Endpoints.idempotencyKeyHeader: "nul-test"]),
                try await store.send(
                    "POST", "/api/checkout", token: token,
                    json: #"{"payment_method":{"type":"\u0000card"},"expected_total":"26.85"}"#,
                    headers: [Endpoints.idempotencyKeyHeader: "nul-test-2"]),
                try await store.login("pro@onlinestore.test", "pro-demo-\u{0}password"),
                try await store.send(Endpoints.categoryProducts, "hy\u{0}dration"),
                try await store.send(Endpoints.product, "1\u{0}"),
                try await store.send(Endpoints.order, "1\u{0}", token: token),
                try await store.send(FakeStoreEndpoints.category, "appa\u{0}rel"),
                try await store.send(FakeStoreEndpoints.user, "\u{0}"),
            ]
            for reply in replies.dropLast(2) {
                #expect(reply.status >= 400 && reply.status < 500, "\(reply.status) \(reply.text)")
            }
            // The Fake-Store API answers an unknown category with an empty list, and an unknown user
            // with 404.
            #expect(replies[replies.count - 2].text == "[]")
            #expect(replies[replies.count - 1].status == 404)
            #expect(
                !store.log.all.contains { $0.contains("unexpected_error") },
                "\(store.log.all.filter { $0.contains("error") })")
        }
    }

    /// `POST /api/logout` ends the bearer's session at once: the token stops working.
    @Test(arguments: Backend.allCases)
    func logoutEndsTheSession(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let token = try await store.login("pro@onlinestore.test", "pro-demo-password").decode(LoginResponse.self)
                .token
            #expect(try await store.send(Endpoints.profile, token: token).status == 200)
            #expect(try await store.send(Endpoints.logout, token: token).status == 204)
            #expect(try await store.send(Endpoints.profile, token: token).status == 401)
            #expect(try await store.send(Endpoints.logout, token: token).status == 401)
        }
    }
}
