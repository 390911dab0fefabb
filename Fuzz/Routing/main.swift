// libFuzzer target: the router, with the store's own routes (the API's endpoints, the Fake Store's,
// the pages', and a few that overlap), finds for any method and request target what a slow reference
// finds: split the still-encoded path on `/`, drop empty segments, percent-decode each one; among the
// patterns of as many segments whose literals equal them, prefer a literal over a parameter from
// the left; then the method (HEAD may use GET), else 405, and 404 when no pattern fits.
import StoreAPI

@testable import HTTPServer

/// The endpoints' patterns as `StoreAPI` describes them (the server's own table is built by the
/// server, which this target does not compile), and a few that overlap.
let patterns: [(method: HTTPMethod, pattern: String)] = {
    func route<Body, Answer>(_ endpoint: Endpoint<Body, Answer>) -> (method: HTTPMethod, pattern: String) {
        (HTTPMethod(rawValue: endpoint.method.rawValue), endpoint.pattern)
    }
    var all = [
        route(Endpoints.products), route(Endpoints.product), route(Endpoints.categories),
        route(Endpoints.categoryProducts), route(Endpoints.image), route(Endpoints.createSession),
        route(Endpoints.login), route(Endpoints.logout), route(Endpoints.basket), route(Endpoints.setQuantity),
        route(Endpoints.removeLine), route(Endpoints.applyPromotion), route(Endpoints.removePromotion),
        route(Endpoints.checkout), route(Endpoints.orders), route(Endpoints.order), route(Endpoints.profile),
        route(FakeStoreEndpoints.products), route(FakeStoreEndpoints.product), route(FakeStoreEndpoints.categories),
        route(FakeStoreEndpoints.category), route(FakeStoreEndpoints.user), route(FakeStoreEndpoints.carts),
        route(FakeStoreEndpoints.login),
    ]
    all += [
        (.get, "/"), (.get, "/product/{id}"), (.get, "/basket"), (.post, "/basket/items/{id}"),
        (.get, "/orders/{id}"), (.get, "/a/{x}/c"), (.get, "/a/b/{y}"), (.put, "/a/b/d"), (.get, "/{any}"),
    ]
    return all
}()

let router: Router = {
    var router = Router()
    for (method, pattern) in patterns {
        router.on(method, pattern, .immediate { _, _ in Response(status: .ok) })
    }
    return router
}()

let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, HTTPMethod(rawValue: "BREW")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouting(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let method = methods[Int(data[0]) % methods.count]
    let target = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let request = Request(method: method, target: target)

    let expected = Reference.match(method, rawPath(of: target))
    switch (router.match(request), expected) {
    case (.found(let route, let parameters), .found(let pattern, let values)):
        check(route.pattern == pattern, "\(method) \(target): \(route.pattern), expected \(pattern)")
        check(
            parameters == Parameters(Array(zip(route.parameterNames, values))),
            "\(method) \(target): parameters \(parameters), expected \(values)")
    case (.methodNotAllowed(_, let allowed), .methodNotAllowed(let expectedAllowed)):
        check(Set(allowed) == expectedAllowed, "\(method) \(target): allowed \(allowed), expected \(expectedAllowed)")
    case (.notFound, .notFound):
        break
    case (let found, let expected):
        fail("\(method) \(target): the router says \(found), the reference \(expected)")
    }
    return 0
}

/// The path part of a target: before `#`, then before `?`.
func rawPath(of target: String) -> [UInt8] {
    let bytes = Array(target.utf8)
    let beforeFragment = bytes.prefix { $0 != UInt8(ascii: "#") }
    return Array(beforeFragment.prefix { $0 != UInt8(ascii: "?") })
}

enum Reference {
    enum Answer {
        case found(String, [String])
        case methodNotAllowed(Set<HTTPMethod>)
        case notFound
    }

    static func match(_ method: HTTPMethod, _ path: [UInt8]) -> Answer {
        let segments = path.split(separator: UInt8(ascii: "/")).map { referencePercentDecoded($0, plusAsSpace: false) }
        // The shapes (literal or parameter per segment) that fit, best first.
        var fitting: [(shape: [String?], pattern: String, method: HTTPMethod, values: [String])] = []
        for (routeMethod, pattern) in patterns {
            let parts = pattern.split(separator: "/").map(String.init)
            guard parts.count == segments.count else { continue }
            var shape: [String?] = []
            var values: [String] = []
            var fits = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                    shape.append(nil)
                    values.append(segment)
                } else if part == segment {
                    shape.append(part)
                } else {
                    fits = false
                    break
                }
            }
            if fits { fitting.append((shape, pattern, routeMethod, values)) }
        }
        // A literal beats a parameter at the first place two shapes differ.
        func better(_ a: [String?], _ b: [String?]) -> Bool {
            for (x, y) in zip(a, b) where (x == nil) != (y == nil) {
                return x != nil
            }
            return false
        }
        guard let best = fitting.map(\.shape).min(by: better) else { return .notFound }
        let candidates = fitting.filter { $0.shape == best }
        if let route = candidates.first(where: { $0.method == method })
            ?? (method == .head ? candidates.first(where: { $0.method == .get }) : nil)
        {
            return .found(route.pattern, route.values)
        }
        var allowed = Set(candidates.map(\.method))
        if allowed.contains(.get) { allowed.insert(.head) }
        return .methodNotAllowed(allowed)
    }
}
