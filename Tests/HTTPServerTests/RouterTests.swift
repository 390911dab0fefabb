import Foundation
import Testing

@testable import HTTPServer

private func text(_ response: Response) -> String {
    String(decoding: response.body, as: UTF8.self)
}

/// The router's default plain-text error answer, parsed.
private func plainError(_ response: Response) throws -> PlainError {
    let error = try #require(PlainError(response))
    #expect(error.status == response.status.code)
    #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    return error
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

    @Test func manyLiteralRoutesEachAnswerTheirOwnPath() async throws {
        // More paths than the literal table first holds, so it grows while routes are added.
        var router = Router()
        let paths = (0..<100).map { "/section\($0)/page" } + ["/", "/a", "/a/b", "/ab", "/b/a"]
        for path in paths {
            router.get(path, .immediate { _, _ in .text("get \(path)") })
        }
        router.get("/a", .immediate { _, _ in .text("replaced") })
        router.on(.head, "/a/b", .immediate { _, _ in .text("head of its own") })
        router.delete("/ab", .immediate { _, _ in .text("delete /ab") })
        for path in paths where path != "/a" {
            #expect(text(await router.respond(to: Request(method: .get, target: path))) == "get \(path)")
        }
        #expect(text(await router.respond(to: Request(method: .get, target: "/a"))) == "replaced")
        #expect(text(await router.respond(to: Request(method: .delete, target: "/ab"))) == "delete /ab")
        #expect(await router.respond(to: Request(method: .head, target: "/ab")).status == .ok)
        #expect(await router.respond(to: Request(method: .post, target: "/ab")).status == .methodNotAllowed)
        // The HEAD route of its own answers HEAD (its body dropped), not GET's.
        let head = await router.respond(to: Request(method: .head, target: "/a/b"))
        #expect(head.status == .ok && head.headers["Content-Length"] == "\("head of its own".utf8.count)")
        for missing in ["/section100/page", "/section1", "/b", "/a/b/c", "/section1/pag"] {
            #expect(await router.respond(to: Request(method: .get, target: missing)).status == .notFound)
        }
        // The table itself, not the tree behind it, finds each canonical path and its methods...
        for path in paths {
            #expect(router.literalRoute(for: Request(method: .get, target: path + "?q=1"))?.pattern == path)
        }
        #expect(router.literalRoute(for: Request(method: .head, target: "/section7/page"))?.pattern == "/section7/page")
        #expect(router.literalRoute(for: Request(method: .delete, target: "/ab"))?.pattern == "/ab")
        // ...and leaves every other spelling, and a method the path lacks, to the tree.
        for other in ["/section7/page/", "//section7/page", "/section7//page", "/%73ection7/page", "", "/b"] {
            #expect(router.literalRoute(for: Request(method: .get, target: other)) == nil)
        }
        #expect(router.literalRoute(for: Request(method: .post, target: "/ab")) == nil)
    }

    @Test func typedParameterRejectsGarbage() async throws {
        var router = Router()
        router.get("/orders/{id}") { _, context in
            .text(String(try context.parameters.require("id", as: Int.self) * 2))
        }
        #expect(text(await router.respond(to: Request(method: .get, target: "/orders/21"))) == "42")
        let bad = await router.respond(to: Request(method: .get, target: "/orders/abc"))
        #expect(bad.status == .badRequest)
        #expect(try plainError(bad).type == "invalid_parameter")
    }

    @Test func unknownPathIs404InPlainTextByDefault() async throws {
        var router = Router()
        router.get("/a", .immediate { _, _ in .text("a") })
        let response = await router.respond(to: Request(method: .get, target: "/b"))
        #expect(response.status == .notFound)
        #expect(try plainError(response).type == "not_found")
    }

    @Test func errorResponderWritesEveryErrorForTheRequest() async throws {
        let reported = Counter()
        var router = Router()
        router.errorResponder = { error, request, context in
            let kind = request.path.hasPrefix("/api/") ? "json" : "html"
            var response = Response.text(
                "\(kind) \(error.status.code) \(error.type) \(context.route ?? "-")", status: error.status)
            response.headers["X-Kind"] = kind
            return response
        }
        router.errorReporter = { _, _, _ in reported.increment() }
        router.get("/api/items", .immediate { _, _ in .text("items") })
        router.get("/api/fail") { _, _ in throw Boom() }
        router.get("/api/gone") { _, _ in throw HTTPError(.gone, type: "gone", message: "Gone.") }
        let cases: [(String, HTTPMethod, String)] = [
            ("/api/nothing", .get, "json 404 not_found -"),
            ("/nothing", .get, "html 404 not_found -"),
            ("/api/items", .post, "json 405 method_not_allowed /api/items"),
            ("/api/fail", .get, "json 500 internal_error /api/fail"),
            ("/api/gone", .get, "json 410 gone /api/gone"),
        ]
        for (target, method, expected) in cases {
            let response = await router.respond(to: Request(method: method, target: target))
            #expect(text(response) == expected, "\(target)")
        }
        let notAllowed = await router.respond(to: Request(method: .post, target: "/api/items"))
        #expect(
            notAllowed.headers["Allow"] == "GET, HEAD", "the error's own fields are added to the responder's answer")
        #expect(reported.value == 1, "only the unexpected error is reported")
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        var router = Router()
        router.get("/cart", .immediate { _, _ in .text("cart") })
        router.post("/cart") { _, _ in .text("added") }
        router.delete("/cart") { _, _ in .text("emptied") }
        let response = await router.respond(to: Request(method: .put, target: "/cart"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST, DELETE")
        #expect(try plainError(response).type == "method_not_allowed")
        let unknown = await router.respond(to: Request(method: HTTPMethod(rawValue: "BREW"), target: "/cart"))
        #expect(unknown.status == .methodNotAllowed)
    }

    @Test func immediateOrAsyncFallsBackToTheAsyncHandler() async throws {
        var router = Router()
        router.use(Tagging(tag: "chain"))
        router.get(
            "/page",
            .immediateOrAsync(
                { request, _ in
                    if request.query("fail") != nil { throw HTTPError(.gone, type: "gone", message: "Gone.") }
                    return request.queryItems.isEmpty ? .text("cached") : nil
                },
                { request, _ in .text("rendered \(request.headers.values(for: "X-Trace").count)") }))
        let cached = await router.respond(to: Request(method: .get, target: "/page"))
        #expect(text(cached) == "cached")
        #expect(cached.headers.values(for: "X-Trace").isEmpty, "the immediate half skips the middleware")
        let rendered = await router.respond(to: Request(method: .get, target: "/page?q=x"))
        #expect(text(rendered) == "rendered 1")
        #expect(await router.respond(to: Request(method: .get, target: "/page?fail=1")).status == .gone)
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

    @Test func middlewareShortCircuitsAndPassesRequestsDown() async throws {
        let calls = Counter()
        var router = Router()
        router.use { request, context, next in
            guard let user = request.headers["X-User"] else {
                throw HTTPError(.unauthorized, type: "unauthorized", message: "Who are you?")
            }
            var request = request
            request.headers["X-Verified-User"] = user
            return try await next(request, context)
        }
        router.get("/me") { request, _ in
            calls.increment()
            return .text(request.headers["X-Verified-User"] ?? "-")
        }
        let denied = await router.respond(to: Request(method: .get, target: "/me"))
        #expect(denied.status == .unauthorized)
        #expect(try plainError(denied).type == "unauthorized")
        #expect(calls.value == 0)
        let allowed = await router.respond(to: Request(method: .get, target: "/me", headers: ["X-User": "ada"]))
        #expect(text(allowed) == "ada")
        #expect(calls.value == 1)
    }

    @Test func httpErrorBecomesAnswerWithHeaders() async throws {
        var router = Router()
        router.post("/limited") { _, _ in
            throw HTTPError(
                .tooManyRequests, type: "rate_limited", message: "Slow down \"please\".",
                headers: ["Retry-After": "30"])
        }
        let response = await router.respond(to: Request(method: .post, target: "/limited"))
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "30")
        let error = try plainError(response)
        #expect(error.type == "rate_limited" && error.message == "Slow down \"please\".")
    }

    @Test func convertibleErrorsAnswerWhatTheyStandFor() async throws {
        struct OutOfTea: HTTPErrorConvertible {
            var httpError: HTTPError { HTTPError(.conflict, type: "out_of_tea", message: "No tea left.", field: "tea") }
        }
        let reported = Counter()
        var router = Router()
        router.errorReporter = { _, _, _ in reported.increment() }
        router.post("/tea") { _, _ in throw OutOfTea() }
        router.get("/tea", .immediate { _, _ in throw OutOfTea() })
        for method in [HTTPMethod.post, .get] {
            let response = await router.respond(to: Request(method: method, target: "/tea"))
            #expect(response.status == .conflict)
            #expect(try plainError(response).type == "out_of_tea")
        }
        #expect(reported.value == 0)
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
            #expect(try plainError(response).type == "internal_error")
            #expect(!text(response).contains("secret"))
        }
        #expect(reported.value == 1)
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

    /// Found by Fuzz/FormsAndCookies: a delimiter followed by a combining mark was read as one
    /// Character with the mark, so `&`, `=` and `;` stopped separating.
    @Test func delimitersFollowedByACombiningMarkStillSeparate() {
        let form = Request(method: .post, target: "/", body: Array("a=1&\u{301}b=2&~=\u{6E8}pp".utf8))
        #expect(
            form.formItems == [
                QueryItem(name: "a", value: "1"), QueryItem(name: "\u{301}b", value: "2"),
                QueryItem(name: "~", value: "\u{6E8}pp"),
            ])
        let query = Request(method: .get, target: "/s?q=\u{301}x&\u{301}y")
        #expect(query.queryItems == [QueryItem(name: "q", value: "\u{301}x"), QueryItem(name: "\u{301}y", value: "")])
        let cookies = Request(method: .get, target: "/", headers: ["Cookie": "sid=\u{301}a;\u{301}n=2; q=\"\u{301}\""])
        #expect(cookies.cookies == ["sid": "\u{301}a", "\u{301}n": "2", "q": "\u{301}"])
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
