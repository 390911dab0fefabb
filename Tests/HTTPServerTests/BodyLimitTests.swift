import Foundation
import TestWaiting
import Testing

@testable import HTTPServer

/// Routes with a larger body limit than ``HTTPServer/Configuration/maxBodyBytes`` (uploads), and
/// the server-wide cap on how many large bodies it receives at once.
@Suite(.serialized)
struct BodyLimitTests {
    static let imageRoute = LargeBodyRoute(method: .post, pattern: "/admin/products/{id}/image", maxBodyBytes: 8 << 20)

    /// `count` bytes that are not all alike, so that a body received out of order or cut shows.
    static func payload(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return bytes
    }

    /// A server whose upload routes answer with the body they received; `/normal` and
    /// `/admin/products/{id}/image/x` keep the normal 1 MiB limit.
    static func server(largeBodiesInFlight: Int = 4, recorder: Recorder = Recorder()) throws -> HTTPServer {
        try makeServer(
            recorder: recorder,
            extraRoutes: { router in
                let echo: Router.Handler = { request, _ in
                    .bytes(request.body, contentType: "application/octet-stream")
                }
                router.post("/admin/products/{id}/image", echo)
                router.post("/admin/products/{id}/image/x", echo)
                router.post("/normal", echo)
            },
            configure: { configuration in
                configuration.largeBodies = [imageRoute]
                configuration.maxLargeBodiesInFlight = largeBodiesInFlight
            })
    }

    /// The head of a request with a declared length.
    static func head(_ target: String, length: Int) -> String {
        "POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(length)\r\n\r\n"
    }

    /// Sends `body` chunked, 64 KiB a chunk, and reads the answer.
    static func sendChunked(_ body: [UInt8], to target: String, on connection: RawConnection) throws -> WireResponse {
        try connection.send("POST \(target) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + (64 << 10))
            try connection.send(
                Array(String(end - offset, radix: 16).utf8) + [13, 10] + body[offset..<end] + [13, 10])
            offset = end
        }
        try connection.send("0\r\n\r\n")
        return try connection.readResponse()
    }

    /// Polls `condition` on a client thread for up to 10 s.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }

    @Test func aLargeUploadToALargeRouteIsReceivedWhole() async throws {
        let server = try Self.server()
        let body = Self.payload(3 << 20)
        let response = try await fetch(port: server.port, "/admin/products/12/image", method: "POST", body: body)
        #expect(response.status == 200)
        #expect(response.body == body)
        let port = server.port
        let chunked = try await onThread {
            try Self.sendChunked(body, to: "/admin/products/13/image", on: RawConnection(port: port))
        }
        #expect(chunked.status == 200)
        #expect(chunked.body == body)
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })
        await server.shutdown()
    }

    @Test func otherRoutesKeepTheNormalLimit() async throws {
        let server = try Self.server()
        let body = Self.payload(3 << 20)
        for target in ["/normal", "/admin/products/12/image/x", "/admin/products/image"] {
            let response = try await fetch(port: server.port, target, method: "POST", body: body)
            #expect(response.status == 413, "\(target)")
            #expect(response.text.contains("payload_too_large"))
        }
        // Just within the normal limit is fine anywhere.
        let small = Self.payload(1 << 20)
        #expect(try await fetch(port: server.port, "/normal", method: "POST", body: small).body == small)
        await server.shutdown()
    }

    @Test func aLargeRouteHasItsOwnLimit() async throws {
        let server = try Self.server()
        let port = server.port
        let body = Self.payload(9 << 20)
        let response = try await fetch(port: port, "/admin/products/12/image", method: "POST", body: body)
        #expect(response.status == 413)
        #expect(response.text.contains("payload_too_large"))
        let chunked = try await onThread {
            try Self.sendChunked(body, to: "/admin/products/12/image", on: RawConnection(port: port))
        }
        #expect(chunked.status == 413)
        let exact = Self.payload(8 << 20)
        #expect(try await fetch(port: port, "/admin/products/12/image", method: "POST", body: exact).body == exact)
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })
        await server.shutdown()
    }

    @Test func patternsMatchAsTheRouterDoes() {
        func limit(_ method: HTTPMethod, _ target: String) -> Int {
            var configuration = HTTPServer.Configuration()
            configuration.largeBodies = [
                Self.imageRoute,
                LargeBodyRoute(method: .post, pattern: "/admin/products/import", maxBodyBytes: 2 << 20),
            ]
            return BodyLimit(for: Request(method: method, target: target), configuration: configuration).bytes
        }
        #expect(limit(.post, "/admin/products/12/image") == 8 << 20)
        #expect(limit(.post, "/admin/products/12/image?replace=1") == 8 << 20)
        #expect(limit(.post, "//admin/products/12//image/") == 8 << 20)
        #expect(limit(.post, "/admin/products/a%2Fb/image") == 8 << 20)
        #expect(limit(.post, "/admin/%70roducts/12/image") == 8 << 20)
        #expect(limit(.post, "/admin/products/import") == 2 << 20)
        #expect(limit(.post, "/admin/products/12/image/x") == 1 << 20)
        #expect(limit(.post, "/admin/products/12") == 1 << 20)
        #expect(limit(.post, "/admin/products/image") == 1 << 20)
        #expect(limit(.post, "/Admin/products/12/image") == 1 << 20)
        #expect(limit(.put, "/admin/products/12/image") == 1 << 20)
        #expect(limit(.get, "/admin/products/12/image") == 1 << 20)
    }

    /// With one slot: while one large upload is in progress, a second gets 503 `server_busy` and its
    /// connection is closed; small requests to the same route never need the slot; once the first
    /// is over, the slot is free again.
    @Test func oneLargeBodyAtATime() async throws {
        let server = try Self.server(largeBodiesInFlight: 1)
        let port = server.port
        let body = Self.payload(3 << 20)
        let first = try RawConnection(port: port)
        try await onThread {
            try first.send(Self.head("/admin/products/1/image", length: body.count))
            try first.send(Array(body[..<(1 << 20)]))
        }
        #expect(try await eventually { server.core.largeBodiesInFlight == 1 })

        let busy = try await onThread { () -> (WireResponse, Bool) in
            let second = try RawConnection(port: port)
            try second.sendRequest("POST", "/admin/products/2/image", body: body)
            return (try second.readResponse(), second.isClosedByPeer())
        }
        #expect(busy.0.status == 503)
        #expect(busy.0.headers["Retry-After"] == "1")
        #expect(
            busy.0.text == "503 server_busy: The server is receiving too many large uploads; try again in a moment.\n")
        #expect(busy.0.headers["X-Content-Type-Options"] == "nosniff")
        #expect(busy.1, "the refused connection is closed")

        let busyChunked = try await onThread {
            try Self.sendChunked(body, to: "/admin/products/3/image", on: RawConnection(port: port))
        }
        #expect(busyChunked.status == 503)
        #expect(busyChunked.text.contains("server_busy"))

        // Small bodies on the large route, declared or chunked, take no slot.
        let small = Self.payload(1 << 20)
        #expect(try await fetch(port: port, "/admin/products/4/image", method: "POST", body: small).body == small)
        let smallChunked = try await onThread {
            try Self.sendChunked(small, to: "/admin/products/5/image", on: RawConnection(port: port))
        }
        #expect(smallChunked.body == small)
        #expect(server.core.largeBodiesInFlight == 1)

        let finished = try await onThread {
            try first.send(Array(body[(1 << 20)...]))
            return try first.readResponse()
        }
        #expect(finished.status == 200)
        #expect(finished.body == body)
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })
        let next = try await fetch(port: port, "/admin/products/6/image", method: "POST", body: body)
        #expect(next.status == 200 && next.body == body)
        await server.shutdown()
    }

    /// A client that goes away in the middle of its large body, declared or chunked, gives its slot
    /// back; so does one whose body turns out too large.
    @Test func theSlotIsReleasedWhenTheClientLeaves() async throws {
        let server = try Self.server(largeBodiesInFlight: 1)
        let port = server.port
        let body = Self.payload(3 << 20)

        // Each client sends part of its body, waits until the server holds its slot, and leaves.
        let core = server.core
        let declaredTookTheSlot = try await onThread {
            let leaving = try RawConnection(port: port)
            try leaving.send(Self.head("/admin/products/1/image", length: body.count))
            try leaving.send(Array(body[..<(2 << 20)]))
            return Self.waitUntil { core.largeBodiesInFlight == 1 }
        }
        #expect(declaredTookTheSlot)
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })
        #expect(try await fetch(port: port, "/admin/products/2/image", method: "POST", body: body).body == body)

        let chunkedTookTheSlot = try await onThread {
            let leaving = try RawConnection(port: port)
            try leaving.send("POST /admin/products/3/image HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let piece = Array(body[..<(64 << 10)])
            for _ in 0..<24 {
                try leaving.send(Array("10000\r\n".utf8) + piece + [13, 10])
            }
            return Self.waitUntil { core.largeBodiesInFlight == 1 }
        }
        #expect(chunkedTookTheSlot, "1.5 MiB chunked takes the slot")
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })

        let tooLarge = try await onThread {
            try Self.sendChunked(Self.payload(9 << 20), to: "/admin/products/4/image", on: RawConnection(port: port))
        }
        #expect(tooLarge.status == 413)
        #expect(try await eventually { server.core.largeBodiesInFlight == 0 })
        #expect(try await fetch(port: port, "/admin/products/5/image", method: "POST", body: body).body == body)
        await server.shutdown()
        #expect(server.core.liveRequests.withLock { $0 } == 0)
    }

    /// The slot is held until the request completes, its handler's time included, and given back
    /// when shutdown gives up on that handler.
    @Test func theSlotIsHeldWhileTheHandlerRuns() async throws {
        let recorder = Recorder()
        let server = try makeServer(
            recorder: recorder, grace: .milliseconds(200),
            extraRoutes: { router in
                router.post("/admin/products/{id}/image") { request, _ in
                    recorder.handlerStarted()
                    try await Task.sleep(for: .seconds(5))
                    return .text("\(request.body.count)")
                }
            },
            configure: { configuration in
                configuration.largeBodies = [Self.imageRoute]
                configuration.maxLargeBodiesInFlight = 1
            })
        let port = server.port
        async let slow = fetch(port: port, "/admin/products/1/image", method: "POST", body: Self.payload(2 << 20))
        try await recorder.waitForHandlers(1)
        #expect(server.core.largeBodiesInFlight == 1)
        let busy = try await fetch(port: port, "/admin/products/2/image", method: "POST", body: Self.payload(2 << 20))
        #expect(busy.status == 503)
        await server.shutdown()
        #expect(try await slow.status == 503)
        #expect(server.core.largeBodiesInFlight == 0)
    }
}
