import Foundation
import Testing

@testable import HTTPServer

/// Request smuggling (RFC 9112 §6.1, §6.3): a request whose framing two parties could read
/// differently is answered 400 (501 for a transfer coding the server does not read) and its
/// connection closed, so the request sent behind it on the same connection — in the same packet,
/// as a smuggler sends it — is never served.
@Suite(.serialized)
struct FramingTests {
    /// A request behind the refused one on the same connection. Were it served, the access log
    /// would show `/inspect`.
    static let victim =
        "GET /inspect?q=victim HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer victim-token\r\n\r\n"

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let head: String
        let body: String
        let status: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "Content-Length and Transfer-Encoding",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: "0\r\n\r\n", status: 400),
        Case(
            name: "Transfer-Encoding and Content-Length, the other order",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 40\r\n\r\n",
            body: "0\r\n\r\n", status: 400),
        Case(
            name: "two different Content-Lengths",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n",
            body: "hello", status: 400),
        Case(
            name: "a space before the colon",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding : chunked\r\n\r\n",
            body: "0\r\n\r\n", status: 400),
        Case(
            name: "a space inside a header name",
            head: "GET /immediate HTTP/1.1\r\nHost: localhost\r\nX Forwarded: 1\r\n\r\n", body: "", status: 400),
        Case(
            name: "HTTP/1.1 without Host", head: "GET /immediate HTTP/1.1\r\nAccept: */*\r\n\r\n", body: "",
            status: 400),
        Case(
            name: "two Hosts", head: "GET /immediate HTTP/1.1\r\nHost: localhost\r\nHost: elsewhere\r\n\r\n",
            body: "", status: 400),
        Case(
            name: "two Hosts in HTTP/1.0",
            head: "GET /immediate HTTP/1.0\r\nHost: localhost\r\nHost: elsewhere\r\n\r\n",
            body: "", status: 400),
        Case(
            name: "a bare CR in a value", head: "GET /immediate HTTP/1.1\r\nHost: localhost\r\nX-Note: a\rb\r\n\r\n",
            body: "", status: 400),
        Case(
            name: "a control character in a value",
            head: "GET /immediate HTTP/1.1\r\nHost: localhost\r\nX-Note: a\u{1}b\r\n\r\n", body: "", status: 400),
        Case(
            name: "a control character in a name",
            head: "GET /immediate HTTP/1.1\r\nHost: localhost\r\nX-No\u{7}te: ab\r\n\r\n", body: "", status: 400),
        Case(
            name: "Transfer-Encoding in HTTP/1.0",
            head: "POST /echo HTTP/1.0\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n", body: "0\r\n\r\n",
            status: 400),
        Case(
            name: "an unknown transfer coding",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: xchunked\r\n\r\n", body: "0\r\n\r\n",
            status: 501),
        Case(
            name: "a coding before chunked",
            head: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            body: "0\r\n\r\n", status: 501),
        Case(
            name: "chunked twice",
            head:
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: "0\r\n\r\n", status: 501),
    ]

    @Test(arguments: cases)
    func ambiguousFramingIsRefusedAndTheConnectionClosed(_ framing: Case) async throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        let port = server.port
        let (response, closed) = try await onThread {
            let connection = try RawConnection(port: port)
            // The smuggler's request and the victim's, in one write.
            try connection.send(framing.head + framing.body + Self.victim)
            let response = try connection.readResponse()
            return (response, connection.closes(within: 2))
        }
        #expect(response.status == framing.status)
        #expect(response.headers["Connection"]?.lowercased() == "close")
        #expect(response.text.contains(framing.status == 501 ? "unsupported_transfer_coding" : "malformed_request"))
        // The answer is the application's, with its headers.
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(closed, "the connection stays open after a refused request")
        await server.shutdown()
        let routes = recorder.logged.map(\.route)
        #expect(!routes.contains("/inspect"), "the request behind it was served: \(routes)")
        #expect(recorder.logged.map(\.status.code) == [framing.status])
    }

    @Test func wellFramedRequestsKeepTheirConnection() async throws {
        let server = try makeServer()
        let port = server.port
        let (first, second, third) = try await onThread {
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "1a\r\n{\"name\":\"sock\",\"quantity\":\r\n2\r\n2}\r\n0\r\n\r\n")
            let first = try connection.readResponse()
            // One Content-Length repeated with the same value frames the body the same way for everyone.
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 27\r\nContent-Length: 27\r\n\r\n"
                    + "{\"name\":\"cap\",\"quantity\":1}")
            let second = try connection.readResponse()
            // HTTP/1.0 needs no Host.
            try connection.send("GET /immediate HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let third = try connection.readResponse()
            return (first, second, third)
        }
        #expect(first.status == 201)
        #expect(first.text.contains("\"sock\""))
        #expect(second.status == 201)
        #expect(second.text.contains("\"cap\""))
        #expect(third.status == 200)
        await server.shutdown()
    }

    @Test func theRulesOneByOne() {
        func problem(_ fields: [(String, String)], method: String = "GET", version: String = "HTTP/1.1") -> Int? {
            MessageFraming.problem(method: method, version: version, headers: HTTPHeaders(fields))?.status.code
        }
        #expect(problem([("Host", "a")]) == nil)
        #expect(problem([("Host", "a"), ("Transfer-Encoding", " Chunked ")]) == nil)
        #expect(problem([("Host", "a"), ("Content-Length", "12")]) == nil)
        #expect(problem([("Host", "a"), ("X-Folded", "a\tb é")]) == nil)
        #expect(problem([], version: "HTTP/1.0") == nil)
        #expect(problem([("Host", "a")], method: "G ET") == 400)
        #expect(problem([("Host", "a")], method: "GET\u{0}") == 400)
        #expect(problem([("Host", "a"), ("Content-Length", "+5")]) == 400)
        #expect(problem([("Host", "a"), ("Content-Length", "5, 5")]) == 400)
        #expect(problem([("Host", "a"), ("Content-Length", "")]) == 400)
        #expect(problem([("Host", "a"), ("Transfer-Encoding", "")]) == 400)
        #expect(problem([("Host", "a"), ("Transfer-Encoding", "identity")]) == 501)
        #expect(problem([("Host", "a"), ("X-A", "a\u{7F}")]) == 400)
        #expect(problem([("Host", "a"), ("", "a")]) == 400)
        #expect(problem([("Host", "a"), ("Nämé", "a")]) == 400)
    }
}

@Suite struct OptionalWhitespaceTests {
    @Test func onlySpacesAndTabsAtEitherEndAreTrimmed() {
        #expect(
            HTTPHeaders.trimmingOptionalWhitespace(" \t value with  inner \t space\t ") == "value with  inner \t space")
        #expect(HTTPHeaders.trimmingOptionalWhitespace("\t \t") == "")
        #expect(HTTPHeaders.trimmingOptionalWhitespace("") == "")
        // HTTP's optional whitespace is spaces and tabs only: a no-break space, a line break and a
        // character beyond ASCII stay.
        #expect(HTTPHeaders.trimmingOptionalWhitespace("\u{A0}token\u{A0}") == "\u{A0}token\u{A0}")
        #expect(HTTPHeaders.trimmingOptionalWhitespace("\ntoken\r") == "\ntoken\r")
        #expect(HTTPHeaders.trimmingOptionalWhitespace(" é ") == "é")
    }
}
