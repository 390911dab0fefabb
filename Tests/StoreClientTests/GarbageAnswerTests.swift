import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import Testing

/// docs/BEHAVIOUR.md §10: whatever arrives — an HTML page, a cut-off body, an empty 500, a closed
/// connection, nothing at all — the client answers with a typed error, never a crash.
@Suite("Answers the store never gives") struct GarbageAnswerTests {
    /// Runs `body` with a live client of a fake server that answers every request with `reply`.
    ///
    /// The fake server answers at once, so the client's deadline only matters to the tests about
    /// it, which set their own. The default is long: while the whole suite runs, CPU-bound tests
    /// can hold the two cores for tens of seconds, and a 10 s deadline then fired before the
    /// request was even sent (seen once: nothing received, after 49.9 s).
    func with(
        _ reply: FakeHTTPServer.Reply, timeout: Duration = .seconds(300),
        _ body: (LiveStoreClient, FakeHTTPServer) async throws -> Void
    ) async throws {
        let server = try FakeHTTPServer(always: reply)
        defer { server.stop() }
        try await body(LiveStoreClient(baseURL: server.base, timeout: timeout, token: "test-token"), server)
    }

    static let order = try? CheckoutRequest.card("tok_visa", total: eur(45_00))

    @Test("an HTML page with 200 is an unexpected answer")
    func htmlPage() async throws {
        try await with(FakeHTTPServer.html(200, "OK")) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.products() }
            guard case .unexpectedAnswer(let status, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(status == 200)
        }
    }

    @Test("an HTML 404 page, not the store's error body, is an unexpected answer")
    func htmlNotFound() async throws {
        try await with(FakeHTTPServer.html(404, "Not Found")) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.product(id: 1) }
            #expect(error == .unexpectedAnswer(status: 404, detail: "a 404 answer without the store's error body"))
        }
    }

    @Test("a proxy's HTML 503, 502 or 504 is unavailable", arguments: [502, 503, 504])
    func proxyUnavailable(status: Int) async throws {
        try await with(FakeHTTPServer.html(status, "Unavailable")) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            #expect(error == .unavailable)
        }
    }

    @Test("a truncated JSON body is an unexpected answer naming the endpoint, quoting nothing")
    func truncatedJSON() async throws {
        let cut = #"[{"id":1,"title":"Trail water bottle","price":{"amount":"10.2"#
        try await with(FakeHTTPServer.json(200, "OK", cut)) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.products() }
            guard case .unexpectedAnswer(let status, let detail) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(status == 200)
            #expect(detail.contains("GET /api/products"))
            #expect(!detail.contains("Trail"))
        }
    }

    @Test("a cut-off 201 to a checkout is an unexpected answer whose outcome is unknown: retry with the key")
    func truncatedOrder() async throws {
        try await with(FakeHTTPServer.json(201, "Created", #"{"id":"ord_1","status":"pa"#)) { client, _ in
            let request = try #require(Self.order)
            let key = try makeKey("k-1")
            let error = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            guard case .unexpectedAnswer(201, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error?.isOutcomeUnknown == true)
            #expect(error?.paymentMessage == CheckoutError.unavailable.message)
        }
    }

    @Test("a JSON body of another shape is an unexpected answer")
    func wrongShape() async throws {
        try await with(FakeHTTPServer.json(200, "OK", #"{"products":[]}"#)) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.products() }
            guard case .unexpectedAnswer(200, let detail) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(detail.contains("a value of the wrong type"))
        }
    }

    @Test("a money amount sent as a JSON number is refused, never read as floating point")
    func moneyAsNumber() async throws {
        let body = #"{"token":"t","customer":{"email":"a@b.c","first_name":"A","last_name":"B"}}"#
        try await with(FakeHTTPServer.json(200, "OK", body)) { client, _ in
            // A well-formed answer goes through…
            let login = try await client.login(Demo.free)
            #expect(login.token == "t")
        }
        let basket = #"{"items":[],"subtotal":{"amount":0.1,"currency":"EUR"}}"#
        try await with(FakeHTTPServer.json(200, "OK", basket)) { client, _ in
            // …but 0.1 as a number is not money.
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            guard case .unexpectedAnswer(200, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test("a 500 with no body is an unexpected answer")
    func emptyServerError() async throws {
        try await with(FakeHTTPServer.answer(500, "Internal Server Error")) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.orders() }
            #expect(error == .unexpectedAnswer(status: 500, detail: "a 500 answer without the store's error body"))
        }
    }

    @Test("a status the endpoint never gives, with the store's error body, is an unexpected answer")
    func wrongStatus() async throws {
        let body = #"{"error":{"type":"teapot","message":"I'm a teapot."}}"#
        try await with(FakeHTTPServer.json(418, "I'm a teapot", body)) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            #expect(error == .unexpectedAnswer(status: 418, detail: "a 418 answer of type teapot"))
        }
    }

    @Test("204 where a body was due is an unexpected answer")
    func noContent() async throws {
        try await with(FakeHTTPServer.answer(204, "No Content")) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.profile() }
            guard case .unexpectedAnswer(204, _) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test("a 429 without a body still says when to try again")
    func tooManyWithoutBody() async throws {
        try await with(FakeHTTPServer.answer(429, "Too Many Requests", headers: [("Retry-After", "7")])) {
            client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.login(Demo.free) }
            guard case .tooManyRequests(_, let retryAfter) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(retryAfter == .seconds(7))
        }
    }

    @Test("a 409 of a kind the app does not know is a conflict with its type")
    func otherConflict() async throws {
        let body = #"{"error":{"type":"promotion_unavailable","message":"The code RUN10 can no longer be used."}}"#
        try await with(FakeHTTPServer.json(409, "Conflict", body)) { client, _ in
            let request = try #require(Self.order)
            let key = try makeKey("k-1")
            let error = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            #expect(
                error == .conflict(type: "promotion_unavailable", message: "The code RUN10 can no longer be used."))
            #expect(error?.isOutcomeUnknown == false)
        }
    }

    @Test("a connection closed without an answer is unavailable")
    func closedConnection() async throws {
        try await with(.close) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            #expect(error == .unavailable)
        }
    }

    @Test("a connection closed halfway through the body is unavailable")
    func closedHalfway() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
        try await with(.bytes(Array((head + #"{"items":["#).utf8))) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            #expect(error == .unavailable)
        }
    }

    @Test("bytes that are not HTTP at all are a typed error")
    func notHTTP() async throws {
        try await with(.bytes(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))) { client, _ in
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            // Foundation on Linux calls it an unsupported answer, Apple's a bad server response:
            // either way a typed error, and for a payment one whose outcome is unknown.
            switch error {
            case .unexpectedAnswer(nil, _), .unavailable: break
            default: Issue.record("got \(String(describing: error))")
            }
            #expect(error?.isOutcomeUnknown == true)
        }
    }

    @Test("a server that never answers: the client's own deadline fires, and the request is given up")
    func neverAnswers() async throws {
        try await with(.hang, timeout: .milliseconds(300)) { client, server in
            let clock = ContinuousClock()
            let start = clock.now
            let error = await failure { () async throws(StoreClientError) in try await client.basket() }
            let elapsed = clock.now - start
            #expect(error == .unavailable)
            #expect(elapsed >= .milliseconds(300))
            // URLSession's own timeouts are 30 s later: an answer well before that is the deadline's
            // (the bound is loose, for a machine busy with every other suite at once).
            #expect(elapsed < .seconds(20), "the deadline is 300 ms, not URLSession's timeout")
            #expect(server.received.count == 1)
            // The request was cancelled, not left running: the client closed the connection.
            for _ in 0..<500 where server.givenUp == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.givenUp == 1)
        }
    }

    @Test("nothing listening: connection refused is unavailable")
    func connectionRefused() async throws {
        let port = try FakeHTTPServer.closedPort()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let client = LiveStoreClient(baseURL: base, timeout: .seconds(5))
        let error = await failure { () async throws(StoreClientError) in try await client.products() }
        #expect(error == .unavailable)
    }

    @Test("a cancelled call stops at once and is unavailable")
    func cancelled() async throws {
        try await with(.hang, timeout: .seconds(30)) { client, server in
            let call = Task { () async -> StoreClientError? in
                await failure { () async throws(StoreClientError) in try await client.basket() }
            }
            for _ in 0..<200 where server.received.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            call.cancel()
            #expect(await call.value == .unavailable)
            for _ in 0..<500 where server.givenUp == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.givenUp == 1)
        }
    }

    @Test("the request carries the bearer token, the key, and money as a decimal string")
    func requestShape() async throws {
        try await with(.close) { client, server in
            let request = try #require(Self.order)
            let key = try makeKey("key-1")
            _ = await failure { () async throws(StoreClientError) in
                try await client.checkout(request, idempotencyKey: key)
            }
            let received = try #require(server.received.first)
            #expect(received.requestLine == "POST /api/checkout HTTP/1.1")
            #expect(received.header("Authorization") == "Bearer test-token")
            #expect(received.header("Idempotency-Key") == "key-1")
            #expect(received.header("Content-Type") == "application/json")
            let body = String(decoding: received.body, as: UTF8.self)
            #expect(body.contains(#""expected_total":{"amount":"45.00","currency":"EUR"}"#))
            #expect(body.contains(#""payment_method":{"token":"tok_visa","type":"card"}"#))
        }
    }
}
