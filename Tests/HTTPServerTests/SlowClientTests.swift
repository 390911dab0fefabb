import Foundation
import Testing

@testable import HTTPServer

/// Clients that open connections and never finish their requests — by accident or on purpose —
/// must not keep the server from everyone else.
@Suite(.serialized)
struct SlowClientTests {
    /// Sends half a request head: the request line and one field, never the blank line.
    private static let halfHead = "GET /immediate HTTP/1.1\r\nHost: x\r\n"

    /// One address holding far more half-sent requests than its share gets only its share; a
    /// client at another address is served meanwhile, every time.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
        let server = try makeServer(configure: { configuration in
            configuration.connectionLimit = 64
            configuration.connectionsPerAddress = 16
            configuration.headerDeadline = .seconds(60)
        })
        let port = server.port
        let held = try await onThread {
            var connections: [RawConnection] = []
            for _ in 0..<200 {
                guard let connection = try? RawConnection(port: port, timeoutSeconds: 2, from: "127.0.0.2") else {
                    continue
                }
                try? connection.send(Self.halfHead)
                connections.append(connection)
            }
            return connections
        }
        // Give the server a moment to accept (and refuse) them all.
        try await Task.sleep(for: .milliseconds(300))
        let open = try await onThread { held.filter { !$0.closes(within: 0.05) }.count }
        #expect(open == 16, "only the address's share stays open")
        for _ in 0..<20 {
            let response = try await fetch(port: port, "/immediate")
            #expect(response.status == 200)
        }
        withExtendedLifetime(held) {}
        await server.shutdown()
    }

    /// A client trickling its header fields a byte at a time never finishes them in time: the
    /// connection is closed at the header deadline, although it is never idle long enough for
    /// the inactivity timeout.
    @Test func headersHaveADeadlineThatTricklingDoesNotReset() async throws {
        let server = try makeServer(configure: { configuration in
            configuration.headerDeadline = .seconds(1)
            configuration.connectionTimeout = 30
        })
        let port = server.port
        let outcome = try await onThread { () -> (closed: Bool, seconds: Double) in
            let connection = try RawConnection(port: port, timeoutSeconds: 2, from: "127.0.0.3")
            let start = Date()
            let bytes =
                Array("GET /immediate HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)
                + Array(repeating: UInt8(ascii: "y"), count: 200)
            for byte in bytes {
                if (try? connection.send([byte])) == nil { return (true, Date().timeIntervalSince(start)) }
                if connection.closes(within: 0.1) { return (true, Date().timeIntervalSince(start)) }
                if Date().timeIntervalSince(start) > 15 { break }
            }
            return (false, Date().timeIntervalSince(start))
        }
        #expect(outcome.closed)
        #expect(outcome.seconds < 10, "closed after \(outcome.seconds) s")
        #expect(try await fetch(port: port, "/immediate").status == 200)
        await server.shutdown()
    }

    /// A keep-alive connection is served as long as its requests come in time, and each request
    /// gets the whole deadline again.
    @Test func eachRequestOnAKeptConnectionGetsTheWholeDeadline() async throws {
        let server = try makeServer(configure: { configuration in configuration.headerDeadline = .milliseconds(800) })
        let port = server.port
        let statuses = try await onThread {
            let connection = try RawConnection(port: port)
            var statuses: [Int] = []
            for _ in 0..<4 {
                Thread.sleep(forTimeInterval: 0.5)
                try connection.sendRequest("GET", "/immediate")
                statuses.append(try connection.readResponse().status)
            }
            return statuses
        }
        #expect(statuses == [200, 200, 200, 200])
        await server.shutdown()
    }

    /// Many slow clients at many addresses, each within its share, while a normal client keeps
    /// being served at once.
    @Test func manySlowClientsWhileOthersAreServed() async throws {
        let server = try makeServer(configure: { configuration in
            configuration.connectionLimit = 1024
            configuration.connectionsPerAddress = 64
            configuration.headerDeadline = .seconds(2)
        })
        let port = server.port
        let slow = try await onThread {
            var connections: [RawConnection] = []
            for index in 0..<600 {
                let source = "127.0.1.\(10 + index / 60)"
                guard let connection = try? RawConnection(port: port, timeoutSeconds: 2, from: source) else {
                    continue
                }
                try? connection.send(Self.halfHead)
                connections.append(connection)
            }
            return connections
        }
        #expect(slow.count == 600)
        for _ in 0..<50 {
            #expect(try await fetch(port: port, "/immediate").status == 200)
        }
        // At the deadline the slow ones are let go, and the server is as it was.
        let closed = try await onThread { slow.filter { $0.closes(within: 5) }.count }
        #expect(closed == 600)
        #expect(try await fetch(port: port, "/immediate").status == 200)
        await server.shutdown()
    }
}
