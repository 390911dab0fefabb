/// The checks of a request's framing that RFC 9112 asks of a server and libmicrohttpd 0.9.75
/// leaves to its application, made before any of the body is read.
///
/// A request whose length two parties could read differently is how one request is smuggled inside
/// another: a proxy in front frames it by one header field, this server by another, and the rest of
/// the first request becomes the start of the next one on the connection — someone else's. So a
/// message that is framed ambiguously or is malformed where framing is decided is refused, and its
/// connection closed after the answer: nothing else sent on it is ever served.
///
/// Refused with 400 `malformed_request` (RFC 9112 §3.2, §5, §6.1, §6.3; RFC 9110 §5.1, §5.5):
/// - both `Content-Length` and `Transfer-Encoding`;
/// - `Content-Length` that is not a plain decimal number, or repeated with different values;
/// - `Transfer-Encoding` in an HTTP/1.0 request;
/// - no `Host` in an HTTP/1.1 request, or more than one `Host` in any request;
/// - a method or a header field name that is not a token (a space before the colon, a control
///   character), or a field value with a control character other than a tab (NUL, a bare CR).
///
/// Answered with 501 `unsupported_transfer_coding`: a `Transfer-Encoding` other than `chunked`
/// alone (the only coding the server reads).
///
/// What libmicrohttpd parses before the application sees anything is not checked here. It refuses
/// a malformed request line, a `Content-Length` it cannot parse and a header line without a colon
/// itself (400), and accepts a bare LF as a line end, which RFC 9112 §2.2 allows a recipient to do;
/// it stops reading a request target at a NUL, so what follows one is never seen, by this check or
/// by a handler.
enum MessageFraming {
    /// What is wrong with a request's framing, or `nil` when nothing is.
    static func problem(method: String, version: String, headers: HTTPHeaders) -> HTTPError? {
        guard isToken(method) else { return malformed("The request method is not a valid token.") }
        var hosts = 0
        var lengths: [String] = []
        var codings: [String] = []
        for field in headers {
            guard isToken(field.name) else {
                return malformed("A header field name holds a character a name cannot hold.")
            }
            guard isFieldValue(field.value) else {
                return malformed("A header field value holds a control character.")
            }
            if HTTPHeaders.namesEqual(field.name, "Host") {
                hosts += 1
            } else if HTTPHeaders.namesEqual(field.name, "Content-Length") {
                lengths.append(field.value)
            } else if HTTPHeaders.namesEqual(field.name, "Transfer-Encoding") {
                codings += field.value.split(separator: ",").map { trimmed($0).lowercased() }.filter { !$0.isEmpty }
            }
        }
        if hosts > 1 { return malformed("The request has more than one Host header field.") }
        if hosts == 0 && version == "HTTP/1.1" {
            return malformed("An HTTP/1.1 request must have a Host header field.")
        }
        guard lengths.allSatisfy(isDecimal) else { return malformed("The Content-Length is not a decimal number.") }
        if let first = lengths.first, lengths.contains(where: { $0 != first }) {
            return malformed("The request has Content-Length header fields with different values.")
        }
        if headers.contains("Transfer-Encoding") {
            if !lengths.isEmpty {
                return malformed("The request has both Content-Length and Transfer-Encoding.")
            }
            if version != "HTTP/1.1" {
                return malformed("Transfer-Encoding needs HTTP/1.1.")
            }
            if codings.isEmpty { return malformed("The Transfer-Encoding names no coding.") }
            guard codings == ["chunked"] else {
                return HTTPError(
                    .notImplemented, type: "unsupported_transfer_coding",
                    message: "The only transfer coding this server reads is chunked.",
                    headers: ["Connection": "close"])
            }
        }
        return nil
    }

    private static func malformed(_ message: String) -> HTTPError {
        HTTPError(.badRequest, type: "malformed_request", message: message, headers: ["Connection": "close"])
    }

    /// A token (RFC 9110 §5.6.2): one or more of the visible ASCII characters other than delimiters.
    static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { !$0.isEmpty && $0.allSatisfy(isTokenByte) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A field value (RFC 9110 §5.5): visible characters, spaces, tabs and bytes above ASCII; no
    /// other control character (NUL, CR, LF, DEL).
    private static func isFieldValue(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) } }
    }

    private static func isDecimal(_ text: String) -> Bool {
        let value = trimmed(Substring(text))
        return !value.isEmpty && value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(HTTPHeaders.trimmingOptionalWhitespace(text))
    }
}
