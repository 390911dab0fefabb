import Testing

/// The reliability tests' client reads what a server sends as `URLSession` would have: a body by
/// its length or its chunks, and an answer cut short (a server killed mid-answer) as a failure.
@Suite("The reliability tests' HTTP client") struct WireHTTPTests {
    private static func parse(_ text: String) throws -> (status: Int, body: String) {
        let answer = try WireHTTP.parse(Array(text.utf8))
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }

    @Test func aBodyByItsLength() throws {
        let answer = try Self.parse("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX: y\r\n\r\nhello")
        #expect(answer.status == 201 && answer.body == "hello")
        #expect(try Self.parse("HTTP/1.1 204 No Content\r\n\r\n").body == "")
        #expect(try Self.parse("HTTP/1.0 503 Service Unavailable\r\n\r\nuntil the end").body == "until the end")
    }

    @Test func aBodyInChunks() throws {
        let answer = try Self.parse(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=1\r\n world\r\n0\r\n\r\n")
        #expect(answer.status == 200 && answer.body == "hello world")
    }

    @Test(arguments: [
        "HTTP/1.1 201 Created\r\nContent-Length: 10\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
        "HTTP/1.1 201 Created\r\nContent-Len",
        "",
        "garbage\r\n\r\n",
    ])
    func anAnswerCutShortIsAFailure(_ text: String) {
        #expect(throws: WireHTTP.Failure.self) { try Self.parse(text) }
    }
}
