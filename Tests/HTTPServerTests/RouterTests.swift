import Foundation
import Testing

@testable import HTTPServer

private func text(_ response: Response) -> String {
    String(decoding: response.body, as: UTF8.self)
}

/// The `{"error": {...}}` body as a dictionary.
private func errorBody(_ response: Response) throws -> [String: String] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    let root = try #require(object as? [String: Any])
    let error = try #require(root["error"] as? [String: String])
    #expect(root.count == 1)
    return error
}

private enum UserKey: ContextKey {
    typealias Value = String
}

/// Appends its tag to `X-Trace` on the way in (request) and on the way out (response).
private struct Tagging: Middleware {
    let tag: String

    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        var request = request
        request.headers.add(name: "X-Trace", value: "in:\(tag)")
        var response = try await next(request, context)
        response.headers.add(name: "X-Trace", value: "out:\(tag)")
        return response
    }
}

@Suite struct RouterTests {
    @Test func pathParametersAndRoutePattern() async throws {
        var router = Router()
        router.get("/api/products/{id}/reviews/{review}") { _, context in
            .text("\(context.parameters["id"] ?? "-") \(context.parameters["review"] ?? "-") \(context.route ?? "-")")
        }
        let response = await router.respond(to: Request(method: .get, target: "/api/products/42/reviews/7?x=1"))
        #expect(response.status == .ok)
        #expect(text(response) == "42 7 /api/products/{id}/reviews/{review}")
    }

    @Test func literalSegmentWinsAndEncodedSlashStaysInSegment() async throws {
        var router = Router()
        router.get("/files/new", .immediate { _, _ in .text("literal") })
        router.get("/files/{name}", .immediate { _, context in .text(context.parameters["name"] ?? "-") })
        #expect(text(await router.respond(to: Request(method: .get, target: "/files/new"))) == "literal")
        #expect(text(await router.respond(to: Request(method: .get, target: "/files/a%2Fb%20c"))) == "a/b c")
        #expect(await router.respond(to: Request(method: .get, target: "/files/a/b")).status == .notFound)
        #expect(text(await router.respond(to: Request(method: .get, target: "//files//new/"))) == "literal")
    }

    @Test func literalRoutesAnswerAlikeWhateverTheSpelling() async throws {
        var router = Router()
        router.get("/api/products", .immediate { _, context in .text("list \(context.route ?? "-")") })
        router.get("/", .immediate { _, _ in .text("home") })
        router.post("/api/{thing}", .immediate { _, _ in .text("post") })
        for target in ["/api/products", "/api/products/", "//api//products", "/api/%70roducts", "/api/products?x=1"] {
            #expect(text(await router.respond(to: Request(method: .get, target: target))) == "list /api/products")
        }
        #expect(text(await router.respond(to: Request(method: .head, target: "/api/products"))) == "")
        #expect(await router.respond(to: Request(method: .head, target: "/api/products")).status == .ok)
        #expect(text(await router.respond(to: Request(method: .get, target: "/"))) == "home")
        // The literal segment wins over the parameter, as in the tree: POST is not allowed there.
        let post = await router.respond(to: Request(method: .post, target: "/api/products"))
        #expect(post.status == .methodNotAllowed)
        #expect(text(await router.respond(to: Request(method: .post, target: "/api/orders"))) == "post")
        #expect(await router.respond(to: Request(method: .get, target: "/api/product")).status == .methodNotAllowed)
        #expect(await router.respond(to: Request(method: .get, target: "/nope")).status == .notFound)
    }

    @Test func typedParameterRejectsGarbage() async throws {
        var router = Router()
        router.get("/orders/{id}") { _, context in
            .text(String(try context.parameters.require("id", as: Int.self) * 2))
        }
        #expect(text(await router.respond(to: Request(method: .get, target: "/orders/21"))) == "42")
        let bad = await router.respond(to: Request(method: .get, target: "/orders/abc"))
        #expect(bad.status == .badRequest)
        #expect(try errorBody(bad)["type"] == "invalid_parameter")
    }

    @Test func unknownPathIs404WithJSONBody() async throws {
        var router = Router()
        router.get("/a", .immediate { _, _ in .text("a") })
        let response = await router.respond(to: Request(method: .get, target: "/b"))
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(try errorBody(response)["type"] == "not_found")
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        var router = Router()
        router.get("/cart", .immediate { _, _ in .text("cart") })
        router.post("/cart") { _, _ in .text("added") }
        router.delete("/cart") { _, _ in .text("emptied") }
        let response = await router.respond(to: Request(method: .put, target: "/cart"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST, DELETE")
        #expect(try errorBody(response)["type"] == "method_not_allowed")
        let unknown = await router.respond(to: Request(method: HTTPMethod(rawValue: "BREW"), target: "/cart"))
        #expect(unknown.status == .methodNotAllowed)
    }

    @Test func headRunsGetWithoutBody() async throws {
        var router = Router()
        router.get("/page", .immediate { _, _ in .html("<p>hello</p>") })
        let response = await router.respond(to: Request(method: .head, target: "/page"))
        #expect(response.status == .ok)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "12")
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
    }

    @Test func middlewareRunsInOrderAroundAsyncRoutes() async throws {
        var router = Router()
        router.use(Tagging(tag: "outer"))
        router.use(Tagging(tag: "inner"))
        router.get("/trace") { request, _ in
            .text(request.headers.values(for: "X-Trace").joined(separator: ","))
        }
        router.get("/quick", .immediate { request, _ in .text("\(request.headers.values(for: "X-Trace").count)") })
        let response = await router.respond(to: Request(method: .get, target: "/trace"))
        #expect(text(response) == "in:outer,in:inner")
        #expect(response.headers.values(for: "X-Trace") == ["out:inner", "out:outer"])
        let quick = await router.respond(to: Request(method: .get, target: "/quick"))
        #expect(text(quick) == "0")
        #expect(quick.headers.values(for: "X-Trace").isEmpty)
    }

    @Test func middlewareShortCircuitsAndPassesValuesDown() async throws {
        let calls = Counter()
        var router = Router()
        router.use { request, context, next in
            guard let user = request.headers["X-User"] else {
                throw HTTPError.unauthorized()
            }
            var context = context
            context[UserKey.self] = user
            return try await next(request, context)
        }
        router.get("/me") { _, context in
            calls.increment()
            return .text(context[UserKey.self] ?? "-")
        }
        let denied = await router.respond(to: Request(method: .get, target: "/me"))
        #expect(denied.status == .unauthorized)
        #expect(try errorBody(denied)["type"] == "unauthorized")
        #expect(calls.value == 0)
        let allowed = await router.respond(to: Request(method: .get, target: "/me", headers: ["X-User": "ada"]))
        #expect(text(allowed) == "ada")
        #expect(calls.value == 1)
    }

    @Test func httpErrorBecomesJSONBodyWithHeaders() async throws {
        var router = Router()
        router.post("/limited") { _, _ in
            throw HTTPError(
                .tooManyRequests, type: "rate_limited", message: "Slow down \"please\".",
                headers: ["Retry-After": "30"])
        }
        let response = await router.respond(to: Request(method: .post, target: "/limited"))
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "30")
        #expect(try errorBody(response) == ["type": "rate_limited", "message": "Slow down \"please\"."])
    }

    @Test func otherErrorsBecomeGeneric500AndAreReported() async throws {
        let reported = Counter()
        var router = Router()
        router.errorReporter = { error, _, context in
            if String(describing: error) == "secret-card-4111" && context.route == "/pay" {
                reported.increment()
            }
        }
        router.post("/pay") { _, _ in throw Boom() }
        router.get("/pay-now", .immediate { _, _ in throw Boom() })
        for request in [Request(method: .post, target: "/pay"), Request(method: .get, target: "/pay-now")] {
            let response = await router.respond(to: request)
            #expect(response.status == .internalServerError)
            #expect(try errorBody(response)["type"] == "internal_error")
            #expect(!text(response).contains("secret"))
        }
        #expect(reported.value == 1)
    }

    @Test func decodeJSONDistinguishesMalformedFromWrongShape() throws {
        let good = Request(method: .post, target: "/", body: Array(#"{"name":"tea","quantity":2}"#.utf8))
        #expect(try good.decodeJSON(Echo.self) == Echo(name: "tea", quantity: 2))

        let malformed = Request(method: .post, target: "/", body: Array(#"{"name":"secret-4111"#.utf8))
        let malformedError = #expect(throws: HTTPError.self) { try malformed.decodeJSON(Echo.self) }
        #expect(malformedError?.status == .badRequest)
        #expect(malformedError?.type == "malformed_json")
        #expect(malformedError?.message.contains("secret") == false)

        let empty = Request(method: .post, target: "/")
        #expect(throws: HTTPError.self) { try empty.decodeJSON(Echo.self) }

        let wrongType = Request(method: .post, target: "/", body: Array(#"{"name":"secret-4111","quantity":"x"}"#.utf8))
        let wrongTypeError = #expect(throws: HTTPError.self) { try wrongType.decodeJSON(Echo.self) }
        #expect(wrongTypeError?.status == .unprocessableContent)
        #expect(wrongTypeError?.type == "invalid_body")
        #expect(wrongTypeError?.message.contains("quantity") == true)
        #expect(wrongTypeError?.message.contains("secret") == false)

        let missing = Request(method: .post, target: "/", body: Array(#"{"name":"tea"}"#.utf8))
        let missingError = #expect(throws: HTTPError.self) { try missing.decodeJSON(Echo.self) }
        #expect(missingError?.type == "invalid_body")

        let keyed = Request(method: .post, target: "/", body: Array(#"{"secret@mail.example":"x"}"#.utf8))
        let keyedError = #expect(throws: HTTPError.self) { try keyed.decodeJSON([String: Int].self) }
        #expect(keyedError?.type == "invalid_body")
        #expect(keyedError?.message.contains("secret") == false)
    }

    @Test func requestParsesTargetQueryAndCookies() {
        let request = Request(
            method: .get, target: "/search/caf%C3%A9?q=red+shoes&size=42&empty&q=second&bad=%zz",
            headers: ["Cookie": "sid=abc; theme=\"dark\"; sid=other; note=a%20b"])
        #expect(request.path == "/search/café")
        #expect(request.query("q") == "red shoes")
        #expect(request.query("size") == "42")
        #expect(request.query("empty") == "")
        #expect(request.query("bad") == "%zz")
        #expect(request.queryItems.count == 5)
        #expect(request.cookies == ["sid": "abc", "theme": "dark", "note": "a b"])
        #expect(request.cookie("sid") == "abc")
        #expect(request.cookie("missing") == nil)
    }

    @Test func cookieHeaderValue() {
        #expect(
            Cookie(name: "sid", value: "abc", maxAge: 3600).headerValue
                == "sid=abc; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax")
        #expect(
            Cookie(name: "n", value: "a b;c", path: nil, httpOnly: false, secure: false, sameSite: .strict).headerValue
                == "n=a%20b%3Bc; SameSite=Strict")
        #expect(Cookie.expired(name: "sid").headerValue.contains("Max-Age=0"))
        let encoded = Cookie(name: "n", value: "a b;c%").headerValue
        let value = String(encoded.split(separator: ";")[0])
        let request = Request(method: .get, target: "/", headers: ["Cookie": value])
        #expect(request.cookie("n") == "a b;c%")
    }

    @Test func headersAreOrderedAndCaseInsensitive() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1", "content-type": "text/plain"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        headers["Set-Cookie"] = "c=3"
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        #expect(headers.fields.map(\.name) == ["Set-Cookie", "content-type"])
        headers["content-type"] = nil
        #expect(!headers.contains("Content-Type"))
    }

    @Test func jsonResponseHelper() throws {
        let response = try Response.json(Echo(name: "tea", quantity: 1), status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(try JSONDecoder().decode(Echo.self, from: Data(response.body)) == Echo(name: "tea", quantity: 1))
    }
}

/// A thread-safe counter for closures that run inside the router.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
