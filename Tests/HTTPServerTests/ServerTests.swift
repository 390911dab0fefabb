import Concurrency
import Foundation
import TestWaiting
import Testing

@testable import HTTPServer

/// Collects what the hooks report, shared between the server's threads and the test.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [AccessLogEntry] = []
    private var errors: [String] = []
    private var messages: [String] = []
    private var started = 0

    func libraryMessage(_ message: String) {
        lock.withLock { messages.append(message) }
    }

    func log(_ entry: AccessLogEntry) {
        lock.withLock { entries.append(entry) }
    }

    func report(_ error: any Error) {
        lock.withLock { errors.append(String(describing: error)) }
    }

    func handlerStarted() {
        lock.withLock { started += 1 }
    }

    /// Waits (up to 10 s) until `count` slow handlers have started.
    func waitForHandlers(_ count: Int) async throws {
        guard try await eventually({ lock.withLock { started } >= count }) else {
            throw ClientError(description: "handlers did not start")
        }
    }

    var logged: [AccessLogEntry] { lock.withLock { entries } }
    var reported: [String] { lock.withLock { errors } }
    var libraryMessages: [String] { lock.withLock { messages } }
}

struct Echo: Codable, Equatable {
    var name: String
    var quantity: Int
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "secret-card-4111" }
}

let storeHeaders: HTTPHeaders = [
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "strict-origin-when-cross-origin",
]

func makeServer(
    recorder: Recorder = Recorder(), maxBodyBytes: Int = 1 << 20, grace: Duration = .seconds(10),
    extraRoutes: (inout Router) -> Void = { _ in }, configure: (inout HTTPServer.Configuration) -> Void = { _ in }
) throws -> HTTPServer {
    var router = Router()
    router.errorReporter = { error, _, _ in recorder.report(error) }
    router.get("/immediate", .immediate { _, _ in .text("fast") })
    router.get("/async") { _, _ in
        try await Task.sleep(for: .milliseconds(1))
        return .text("slow")
    }
    router.get("/sleep/{ms}") { _, context in
        recorder.handlerStarted()
        let milliseconds = try context.parameters.require("ms", as: Int.self)
        try await Task.sleep(for: .milliseconds(milliseconds))
        return .text("slept")
    }
    router.post("/echo") { request, _ in
        let echo = try request.decodeBody(Echo.self)
        return try .json(echo, status: .created)
    }
    router.get("/inspect") { request, _ in
        .text(
            "q=\(request.query("q") ?? "-") sid=\(request.cookie("sid") ?? "-") path=\(request.path)"
                + " ip=\(request.clientAddress ?? "-") target=\(request.target)")
    }
    router.get(
        "/login",
        .immediate { _, _ in
            Response.text("welcome").settingCookie(Cookie(name: "sid", value: "abc123", maxAge: 3600))
        })
    router.get("/fail") { _, _ in throw Boom() }
    extraRoutes(&router)
    var configuration = HTTPServer.Configuration(
        threadPoolSize: 2, maxBodyBytes: maxBodyBytes, shutdownGracePeriod: grace, defaultHeaders: storeHeaders)
    configuration.accessLog = { recorder.log($0) }
    configuration.libraryMessages = { recorder.libraryMessage($0) }
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, router: router)
    try server.start()
    return server
}

private func expectStoreHeaders(_ response: WireResponse, sourceLocation: SourceLocation = #_sourceLocation) {
    for field in storeHeaders {
        #expect(response.headers[field.name] == field.value, "\(field.name)", sourceLocation: sourceLocation)
    }
}

@Suite(.serialized)
struct ServerTests {
    @Test func immediateAndAsyncRoutes() async throws {
        let server = try makeServer()
        let fast = try await fetch(port: server.port, "/immediate")
        let slow = try await fetch(port: server.port, "/async")
        #expect(fast.status == 200 && fast.text == "fast")
        #expect(slow.status == 200 && slow.text == "slow")
        #expect(fast.headers["Content-Type"] == "text/plain; charset=utf-8")
        let head = try await fetch(port: server.port, "/immediate", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["Content-Length"] == "4")
        await server.shutdown()
    }

    @Test func preparedResponsesAreSentAgainAndAgainUntilChanged() async throws {
        let document = PreparedResponse(
            Response.bytes(Array(repeating: UInt8(ascii: "x"), count: 6_000), contentType: "application/json"))
        let server = try makeServer { router in
            router.get("/doc", .immediate { _, _ in Response(prepared: document) })
            router.get(
                "/doc-changed",
                .immediate { _, _ in
                    var response = Response(prepared: document)
                    response.headers.replaceOrAdd(name: "X-Changed", value: "yes")
                    return response
                })
        }
        for _ in 0..<20 {
            let response = try await fetch(port: server.port, "/doc")
            #expect(response.status == 200)
            #expect(response.body.count == 6_000)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["X-Changed"] == nil)
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        }
        let changed = try await fetch(port: server.port, "/doc-changed")
        #expect(changed.headers["X-Changed"] == "yes")
        #expect(changed.body.count == 6_000)
        let head = try await fetch(port: server.port, "/doc", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["Content-Length"] == "6000")
        // The same prepared response served by another server gets that server's own response.
        let other = try makeServer { router in router.get("/doc", .immediate { _, _ in Response(prepared: document) }) }
        #expect(try await fetch(port: other.port, "/doc").body.count == 6_000)
        await other.shutdown()
        await server.shutdown()
    }

    @Test func jsonEcho() async throws {
        let server = try makeServer()
        let response = try await fetch(
            port: server.port, "/echo", method: "POST", headers: [("Content-Type", "application/json")],
            body: Array(#"{"name":"tea","quantity":3}"#.utf8))
        #expect(response.status == 201)
        #expect(try JSONDecoder().decode(Echo.self, from: Data(response.body)) == Echo(name: "tea", quantity: 3))
        await server.shutdown()
    }

    @Test func thrownHTTPErrorIsAnsweredOverTheWire() async throws {
        let server = try makeServer()
        let malformed = try await fetch(
            port: server.port, "/echo", method: "POST", body: Array(#"{"name":"secret-4111","#.utf8))
        #expect(malformed.status == 400)
        #expect(malformed.text == "400 malformed_json: The request body is not the expected JSON.\n")
        #expect(malformed.headers["Content-Type"] == "text/plain; charset=utf-8")
        await server.shutdown()
    }

    @Test func queryCookiesAndSetCookie() async throws {
        let server = try makeServer()
        let response = try await fetch(
            port: server.port, "/inspect?q=red+shoes%21%2B&x=1", headers: [("Cookie", "theme=dark; sid=s%3D1")])
        #expect(
            response.text == "q=red shoes!+ sid=s=1 path=/inspect ip=127.0.0.1 target=/inspect?q=red+shoes%21%2B&x=1")
        let login = try await fetch(port: server.port, "/login")
        #expect(login.headers["Set-Cookie"] == "sid=abc123; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax")
        expectStoreHeaders(login)
        await server.shutdown()
    }

    @Test func defaultHeadersAndAccessLogOnEveryResponse() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder, maxBodyBytes: 1024)
        let port = server.port
        let ok = try await fetch(port: port, "/async")
        let immediate = try await fetch(port: port, "/immediate")
        let notFound = try await fetch(port: port, "/nowhere/secret-path")
        let notAllowed = try await fetch(port: port, "/immediate", method: "DELETE")
        let tooLarge = try await fetch(port: port, "/echo", method: "POST", body: [UInt8](repeating: 65, count: 2048))
        let failed = try await fetch(port: port, "/fail?token=secret-query")
        #expect(
            [ok, immediate, notFound, notAllowed, tooLarge, failed].map(\.status) == [200, 200, 404, 405, 413, 500])
        for response in [ok, immediate, notFound, notAllowed, tooLarge, failed] {
            expectStoreHeaders(response)
        }
        #expect(notAllowed.headers["Allow"] == "GET, HEAD")
        #expect(tooLarge.text.contains("payload_too_large"))
        #expect(failed.text.contains("internal_error") && !failed.text.contains("secret"))
        #expect(recorder.reported == ["secret-card-4111"])

        await server.shutdown()
        let entries = recorder.logged
        #expect(entries.map(\.status.code) == [200, 200, 404, 405, 413, 500])
        #expect(
            entries.map(\.route) == ["/async", "/immediate", "/nowhere/secret-path", "/immediate", "/echo", "/fail"])
        #expect(entries.map(\.method) == [.get, .get, .get, .delete, .post, .get])
        #expect(entries[0].bodyBytes == 4)
        #expect(entries.allSatisfy { $0.duration >= .zero && $0.duration < .seconds(5) })
    }

    @Test func oversizedBodyIsRejectedAndServerKeepsAnswering() async throws {
        let server = try makeServer()
        let port = server.port
        let response = try await onThread {
            let connection = try RawConnection(port: port)
            try connection.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(8 << 20)\r\n\r\n")
            // Keep sending until the server stops reading; it answers without reading it all.
            let chunk = [UInt8](repeating: 65, count: 64 << 10)
            var sent = 0
            while sent < 8 << 20, (try? connection.send(chunk)) != nil {
                sent += chunk.count
            }
            return try connection.readResponse()
        }
        #expect(response.status == 413)
        #expect(response.text.contains("payload_too_large"))
        expectStoreHeaders(response)
        let next = try await fetch(port: port, "/immediate")
        #expect(next.status == 200)
        await server.shutdown()
    }

    @Test func oversizedChunkedBodyIsRejected() async throws {
        let server = try makeServer(maxBodyBytes: 4096)
        let port = server.port
        let response = try await onThread {
            let connection = try RawConnection(port: port)
            try connection.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<3 {
                try connection.send("800\r\n" + String(repeating: "B", count: 2048) + "\r\n")
            }
            try connection.send("0\r\n\r\n")
            return try connection.readResponse()
        }
        #expect(response.status == 413)
        let next = try await fetch(port: port, "/immediate")
        #expect(next.status == 200)
        await server.shutdown()
    }

    @Test func malformedRequestsDoNotStopTheServer() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        let port = server.port
        let garbage = [
            "GARBAGE\r\n\r\n",
            "GET /%zz%ff%00 HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "GET /immediate HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "y", count: 200_000) + "\r\n\r\n",
            "\u{0}\u{1}\u{2}\r\n\r\n",
        ]
        for text in garbage {
            _ = try? await onThread {
                let connection = try RawConnection(port: port, timeoutSeconds: 2)
                try? connection.send(text)
                return try connection.readResponse().status
            }
        }
        let next = try await fetch(port: port, "/immediate")
        #expect(next.status == 200)
        // libmicrohttpd's own complaints reach the application's hook, one message per call.
        let messages = recorder.libraryMessages
        #expect(messages.contains { $0.contains("Content-Length") }, "\(messages)")
        #expect(messages.allSatisfy { !$0.isEmpty && !$0.hasSuffix("\n") })
        await server.shutdown()
    }

    @Test func manyConcurrentAsyncRequests() async throws {
        // 200 connections from one address: more than its default share.
        let server = try makeServer(configure: { $0.connectionsPerAddress = 0 })
        let port = server.port
        let statuses = try await onThread { try fetchConcurrently(port: port, count: 200, target: "/sleep/50") }
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == 200 })
        await server.shutdown()
    }

    @Test func keepAliveConnectionIsReused() async throws {
        let server = try makeServer()
        let port = server.port
        let responses = try await onThread {
            let connection = try RawConnection(port: port)
            var responses: [WireResponse] = []
            for target in ["/immediate", "/async", "/nowhere", "/immediate"] {
                try connection.sendRequest("GET", target)
                responses.append(try connection.readResponse())
            }
            try connection.sendRequest("POST", "/echo", body: Array(#"{"name":"a","quantity":1}"#.utf8))
            responses.append(try connection.readResponse())
            return responses
        }
        #expect(responses.map(\.status) == [200, 200, 404, 200, 201])
        #expect(responses.allSatisfy { $0.headers["Connection"]?.lowercased() != "close" })
        await server.shutdown()
    }

    @Test func shutdownWaitsForInFlightAsyncRequest() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        let port = server.port
        async let slow = fetch(port: port, "/sleep/700")
        try await recorder.waitForHandlers(1)
        let started = ContinuousClock.now
        await server.shutdown()
        let waited = ContinuousClock.now - started
        let response = try await slow
        #expect(response.status == 200)
        #expect(response.text == "slept")
        #expect(response.headers["Connection"]?.lowercased() == "close")
        #expect(waited >= .milliseconds(200))
        #expect(connectionRefused(port: port))
        #expect(server.port == 0)
    }

    @Test func shutdownGivesUpOnHungHandlerAfterGracePeriod() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder, grace: .milliseconds(200))
        let port = server.port
        async let hung = fetch(port: port, "/sleep/3000")
        try await recorder.waitForHandlers(1)
        let started = ContinuousClock.now
        await server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(2))
        let response = try await hung
        #expect(response.status == 503)
        #expect(response.text.contains("shutting_down"))
        #expect(connectionRefused(port: port))
    }

    @Test func newConnectionsAreRefusedWhileDraining() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        let port = server.port
        // Long enough that a loaded machine still checks the refusal while it runs.
        async let slow = fetch(port: port, "/sleep/3000")
        try await recorder.waitForHandlers(1)
        async let stopping: Void = server.shutdown()
        _ = try await eventually(every: .milliseconds(20)) {
            server.core.inFlight == 0 || connectionRefused(port: port)
        }
        #expect(server.core.inFlight == 1, "refused while the slow request is still in progress")
        #expect(try await slow.status == 200)
        await stopping
    }

    @Test func requestsInFlightAreCountedByTheirConnections() async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        defer { Task { await server.shutdown() } }
        let port = server.port
        #expect(server.core.inFlight == 0)
        // Three requests in progress on three connections, and a fourth connection kept open
        // after its request was answered: three in flight.
        let idle = try RawConnection(port: port)
        try idle.sendRequest("GET", "/immediate")
        #expect(try idle.readResponse().status == 200)
        async let slow = onThread { try fetchConcurrently(port: port, count: 3, target: "/sleep/400") }
        try await recorder.waitForHandlers(3)
        // The kept connection's request is counted until libmicrohttpd's completion callback,
        // which may come just after the client has read the answer.
        #expect(try await eventually { server.core.inFlight == 3 })
        #expect(try await slow == [200, 200, 200])
        #expect(try await eventually { server.core.inFlight == 0 })
        // A client that leaves while its request is parked: no longer in flight once completed.
        try await onThread {
            let leaving = try RawConnection(port: port)
            try leaving.sendRequest("GET", "/sleep/200")
        }
        try await recorder.waitForHandlers(4)
        #expect(try await eventually { server.core.inFlight == 0 })
        // The kept-alive connection still answers.
        try idle.sendRequest("GET", "/immediate")
        #expect(try idle.readResponse().status == 200)
        #expect(try await eventually { server.core.inFlight == 0 })
    }

    @Test func everyRequestStateIsReleased() async throws {
        weak var core: ServerCore?
        let recorder = Recorder()
        let live: Locked<Int>
        do {
            let server = try makeServer(recorder: recorder, maxBodyBytes: 1024, grace: .milliseconds(300))
            core = server.core
            live = server.core.liveRequests
            let port = server.port
            _ = try await fetch(port: port, "/immediate")
            _ = try await fetch(port: port, "/async")
            _ = try await fetch(port: port, "/nowhere")
            _ = try await fetch(port: port, "/echo", method: "POST", body: [UInt8](repeating: 1, count: 4096))
            _ = try await onThread { try fetchConcurrently(port: port, count: 20, target: "/sleep/20") }
            // A client that leaves while its asynchronous request is parked.
            try await onThread {
                let connection = try RawConnection(port: port)
                try connection.sendRequest("GET", "/async")
            }
            // A client that leaves in the middle of its body.
            try await onThread {
                let connection = try RawConnection(port: port)
                try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nabc")
            }
            async let hung = fetch(port: port, "/sleep/2000")
            try await recorder.waitForHandlers(21)
            await server.shutdown()
            #expect(try await hung.status == 503)
        }
        #expect(live.withLock { $0 } == 0)
        // Handler tasks still sleeping keep the core until they finish.
        try await Task.sleep(for: .seconds(2))
        #expect(core == nil)
    }

    @Test func startingOnAPortInUseFails() async throws {
        let first = try makeServer()
        var configuration = HTTPServer.Configuration(port: first.port)
        configuration.threadPoolSize = 1
        let second = HTTPServer(configuration: configuration, router: Router())
        let error = #expect(throws: HTTPServerError.self) { try second.start() }
        #expect(error?.kind == .addressInUse)
        #expect(error?.description.contains("\(first.port)") == true)
        #expect(throws: HTTPServerError.self) { try first.start() }
        await first.shutdown()
    }

    @Test func ipv6Loopback() async throws {
        let server = HTTPServer(configuration: .init(host: "::1", threadPoolSize: 1), router: Router())
        try server.start()
        #expect(server.port > 0)
        await server.shutdown()
    }
}
