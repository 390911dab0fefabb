import Foundation
import Testing

@testable import HTTPServer

/// A part as the upload route answers it, to compare with what was sent.
private struct EchoedPart: Codable, Equatable {
    var name: String
    var filename: String?
    var contentType: String?
    var body: [UInt8]

    init(_ part: MultipartPart) {
        name = part.name
        filename = part.filename
        contentType = part.contentType
        body = part.body
    }
}

/// What a browser sends for one form field.
private struct Field {
    var disposition: String
    var contentType: String?
    var body: [UInt8]
}

/// A body as a browser frames it: `--boundary CRLF`, header fields, an empty line, the content,
/// and `CRLF--boundary--CRLF` at the end.
private func formBody(boundary: String, _ fields: [Field]) -> [UInt8] {
    var body: [UInt8] = []
    for field in fields {
        body += Array("--\(boundary)\r\nContent-Disposition: \(field.disposition)\r\n".utf8)
        if let contentType = field.contentType {
            body += Array("Content-Type: \(contentType)\r\n".utf8)
        }
        body += Array("\r\n".utf8) + field.body + Array("\r\n".utf8)
    }
    return body + Array("--\(boundary)--\r\n".utf8)
}

/// The parts of `body` read in process, as a handler reads them.
private func parts(contentType: String?, _ body: [UInt8]) throws(MultipartError) -> [MultipartPart] {
    var headers = HTTPHeaders()
    if let contentType { headers.add(name: "Content-Type", value: contentType) }
    return try Request(method: .post, target: "/upload", headers: headers, body: body).multipartParts()
}

private func multipartServer() throws -> HTTPServer {
    try makeServer(maxBodyBytes: 4 << 20) { router in
        router.post("/upload") { request, _ in
            try .json(request.multipartParts().map(EchoedPart.init))
        }
    }
}

private func upload(port: Int, contentType: String?, _ body: [UInt8]) async throws -> WireResponse {
    try await fetch(
        port: port, "/upload", method: "POST", headers: contentType.map { [("Content-Type", $0)] } ?? [], body: body)
}

private func echoed(_ response: WireResponse) throws -> [EchoedPart] {
    try JSONDecoder().decode([EchoedPart].self, from: Data(response.body))
}

@Suite(.serialized)
struct MultipartTests {
    static let boundary = "----WebKitFormBoundaryx7ZkQ3pLm9Rt2Wb"

    /// File content no browser would think twice about: every byte value, NULs, CRLFs, `--`,
    /// the boundary's beginning on a line of its own, the whole boundary not at the start of a line
    /// and the whole boundary at the start of a line but followed by more boundary characters.
    static let awkwardFile: [UInt8] = {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]
        bytes += (0...255).map { UInt8($0) }
        bytes += Array("\r\n--\r\n--".utf8) + [0] + Array("\r\n".utf8)
        bytes += Array("\r\n--\(boundary.dropLast(3))\r\n".utf8)
        bytes += Array("x--\(boundary)\r\n".utf8)
        bytes += Array("\r\n--\(boundary)Q\r\n".utf8)
        bytes += Array("\r\n--\(boundary) x\r\n".utf8)
        bytes += [0x0D, 0x0D, 0x0A, 0x0D]
        return bytes
    }()

    @Test func aBrowsersFormIsReadBackExactly() async throws {
        let server = try multipartServer()
        let body = formBody(
            boundary: Self.boundary,
            [
                Field(disposition: #"form-data; name="title""#, body: Array("Blue mug — 350 ml".utf8)),
                Field(
                    disposition: #"form-data; name="image"; filename="mug.png""#, contentType: "image/png",
                    body: Self.awkwardFile),
                Field(disposition: #"form-data; name="note""#, body: Array("line one\r\nline two\r\n".utf8)),
            ])
        let response = try await upload(
            port: server.port, contentType: "multipart/form-data; boundary=\(Self.boundary)", body)
        #expect(response.status == 200)
        #expect(
            try echoed(response) == [
                EchoedPart(MultipartPart(name: "title", body: Array("Blue mug — 350 ml".utf8))),
                EchoedPart(
                    MultipartPart(name: "image", filename: "mug.png", contentType: "image/png", body: Self.awkwardFile)),
                EchoedPart(MultipartPart(name: "note", body: Array("line one\r\nline two\r\n".utf8))),
            ])
        await server.shutdown()
    }

    /// A quoted boundary (here with a space and a colon, which need the quotes), a media type and
    /// parameter name in another case, a preamble, transport padding and an epilogue.
    @Test func aQuotedBoundaryWithPreamblePaddingAndEpilogue() async throws {
        let server = try multipartServer()
        let body = Array(
            ("This is the preamble; it is ignored.\r\n"
                + "--a b:c \t\r\nContent-Disposition: form-data; name=sku\r\n\r\nMUG-1"
                + "\r\n--a b:c\r\ncontent-disposition: FORM-DATA; NAME=\"qty\"\r\n\r\n3"
                + "\r\n--a b:c--  \r\nThe epilogue, also ignored.\r\n--a b:c\r\n").utf8)
        let response = try await upload(
            port: server.port, contentType: #"Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c""#, body)
        #expect(response.status == 200)
        #expect(
            try echoed(response) == [
                EchoedPart(MultipartPart(name: "sku", body: Array("MUG-1".utf8))),
                EchoedPart(MultipartPart(name: "qty", body: Array("3".utf8))),
            ])
        await server.shutdown()
    }

    /// `filename*` (RFC 5987) wins over `filename`; a backslash in a quoted name is itself, as
    /// browsers send it (they write `"` as `%22`), so a name may end with one.
    @Test func extendedFilenameAndEscapes() async throws {
        let server = try multipartServer()
        let body = formBody(
            boundary: "XyZ",
            [
                Field(
                    disposition:
                        #"form-data; name="catalog"; filename="rates.csv"; filename*=UTF-8''%E2%82%AC%20rates.csv"#,
                    contentType: "text/csv", body: Array("sku,price\r\nMUG-1,9.50\r\n".utf8)),
                Field(
                    disposition: #"form-data; name="say %22hi%22; back\slash\"; filename="a\b.txt""#,
                    body: Array("x".utf8)),
                Field(
                    disposition: #"form-data; filename*=iso-8859-1'fr'caf%E9.txt; name="latin""#, body: []),
            ])
        let response = try await upload(port: server.port, contentType: "multipart/form-data; boundary=XyZ", body)
        #expect(response.status == 200)
        #expect(
            try echoed(response) == [
                EchoedPart(
                    MultipartPart(
                        name: "catalog", filename: "€ rates.csv", contentType: "text/csv",
                        body: Array("sku,price\r\nMUG-1,9.50\r\n".utf8))),
                EchoedPart(
                    MultipartPart(name: #"say %22hi%22; back\slash\"#, filename: #"a\b.txt"#, body: Array("x".utf8))),
                EchoedPart(MultipartPart(name: "latin", filename: "café.txt", body: [])),
            ])
        await server.shutdown()
    }

    /// A file field left empty: the browser sends `filename=""` and no content.
    @Test func anEmptyFileField() async throws {
        let server = try multipartServer()
        let body = formBody(
            boundary: Self.boundary,
            [
                Field(
                    disposition: #"form-data; name="image"; filename="""#, contentType: "application/octet-stream",
                    body: [])
            ])
        let response = try await upload(
            port: server.port, contentType: "multipart/form-data; boundary=\(Self.boundary)", body)
        #expect(response.status == 200)
        #expect(
            try echoed(response) == [
                EchoedPart(
                    MultipartPart(name: "image", filename: "", contentType: "application/octet-stream", body: []))
            ])
        await server.shutdown()
    }

    @Test func notMultipartIs415AndABadBoundaryIs400() async throws {
        let server = try multipartServer()
        let body = formBody(boundary: "b", [Field(disposition: #"form-data; name="a""#, body: [1])])
        for contentType in [nil, "application/x-www-form-urlencoded", "multipart/mixed; boundary=b", "text/plain"] {
            let response = try await upload(port: server.port, contentType: contentType, body)
            #expect(response.status == 415, "\(contentType ?? "none")")
            #expect(response.text == "415 unsupported_media_type: The request body must be multipart/form-data.\n")
        }
        for contentType in [
            "multipart/form-data", "multipart/form-data; charset=utf-8", "multipart/form-data; boundary=",
            #"multipart/form-data; boundary="""#, "multipart/form-data; boundary=b; boundary=b",
            "multipart/form-data; boundary=\(String(repeating: "x", count: 71))", "multipart/form-data; boundary=a@b",
            #"multipart/form-data; boundary="b "#, "multipart/form-data; boundary",
        ] {
            let response = try await upload(port: server.port, contentType: contentType, body)
            #expect(response.status == 400, "\(contentType)")
            #expect(response.text == "400 malformed_form: The multipart/form-data body has no usable boundary.\n")
            #expect(throws: MultipartError.missingBoundary) { try parts(contentType: contentType, body) }
        }
        let longest = String(repeating: "x", count: 70)
        #expect(
            try parts(
                contentType: "multipart/form-data; boundary=\(longest)",
                formBody(boundary: longest, [Field(disposition: #"form-data; name="a""#, body: [1])])
            ).count == 1)
        await server.shutdown()
    }

    /// Bodies that are not framed right, answered 400 through the router's error answer.
    @Test func malformedBodies() async throws {
        let server = try multipartServer()
        let contentType = "multipart/form-data; boundary=b"
        let cases: [(String, String)] = [
            ("no closing delimiter", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n"),
            ("no delimiter at all", "Content-Disposition: form-data; name=\"a\"\r\n\r\nvalue"),
            ("empty body", ""),
            ("a part without a name", "--b\r\nContent-Disposition: form-data; filename=\"x\"\r\n\r\nv\r\n--b--\r\n"),
            ("a part without Content-Disposition", "--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--\r\n"),
            ("a part without header fields", "--b\r\n\r\nv\r\n--b--\r\n"),
            ("not form-data", "--b\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--b--\r\n"),
            ("two names", "--b\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nv\r\n--b--\r\n"),
            (
                "two Content-Dispositions",
                "--b\r\nContent-Disposition: form-data; name=a\r\nContent-Disposition: form-data; name=b\r\n\r\nv\r\n--b--\r\n"
            ),
            ("an unterminated quoted string", "--b\r\nContent-Disposition: form-data; name=\"a\r\n\r\nv\r\n--b--\r\n"),
            (
                "a header line without a colon",
                "--b\r\nContent-Disposition: form-data; name=a\r\nnonsense\r\n\r\nv\r\n--b--\r\n"
            ),
            ("a bare CR in a header line", "--b\r\nContent-Disposition: form-data; name=a\rX: y\r\n\r\nv\r\n--b--\r\n"),
            (
                "a bad filename*",
                "--b\r\nContent-Disposition: form-data; name=a; filename*=UTF-8''%E2%8\r\n\r\nv\r\n--b--\r\n"
            ),
            (
                "a filename* that is not UTF-8",
                "--b\r\nContent-Disposition: form-data; name=a; filename*=UTF-8''%FF\r\n\r\nv\r\n--b--\r\n"
            ),
            ("header fields without their end", "--b\r\nContent-Disposition: form-data; name=a\r\n--b--\r\n"),
        ]
        for (name, text) in cases {
            let response = try await upload(port: server.port, contentType: contentType, Array(text.utf8))
            #expect(response.status == 400, "\(name)")
            #expect(response.text == "400 malformed_form: The multipart/form-data body is malformed.\n", "\(name)")
            #expect(throws: MultipartError.malformed, "\(name)") {
                try parts(contentType: contentType, Array(text.utf8))
            }
        }
        await server.shutdown()
    }

    /// Header fields may end with a bare LF; a part's header fields may take up to 8 KiB.
    @Test func headerLinesAndTheirLimit() throws {
        let contentType = "multipart/form-data; boundary=b"
        let bareLF = Array("--b\r\nContent-Disposition: form-data; name=a\nContent-Type: text/plain\n\nv\r\n--b--".utf8)
        #expect(
            try parts(contentType: contentType, bareLF) == [
                MultipartPart(name: "a", contentType: "text/plain", body: [118])
            ])

        func withHeaders(of size: Int) -> [UInt8] {
            let first = "Content-Disposition: form-data; name=a\r\n"
            let filler =
                "X-Filler: " + String(repeating: "f", count: size - first.utf8.count - "X-Filler: \r\n\r\n".utf8.count)
            return Array("--b\r\n\(first)\(filler)\r\n\r\nv\r\n--b--\r\n".utf8)
        }
        #expect(try parts(contentType: contentType, withHeaders(of: 8192)).count == 1)
        #expect(throws: MultipartError.malformed) { try parts(contentType: contentType, withHeaders(of: 8193)) }
    }

    @Test func atMostAHundredParts() async throws {
        let server = try multipartServer()
        let contentType = "multipart/form-data; boundary=\(Self.boundary)"
        func fields(_ count: Int) -> [UInt8] {
            formBody(
                boundary: Self.boundary,
                (0..<count).map { Field(disposition: "form-data; name=\"f\($0)\"", body: Array("\($0)".utf8)) })
        }
        let hundred = try await upload(port: server.port, contentType: contentType, fields(100))
        #expect(hundred.status == 200)
        #expect(try echoed(hundred).map(\.name) == (0..<100).map { "f\($0)" })
        let tooMany = try await upload(port: server.port, contentType: contentType, fields(101))
        #expect(tooMany.status == 400)
        #expect(tooMany.text == "400 malformed_form: The form has more than 100 parts.\n")
        #expect(throws: MultipartError.tooManyParts) { try parts(contentType: contentType, fields(101)) }
        await server.shutdown()
    }

    /// The delimiter search is linear: 8 MiB of near-delimiters (CRs, CRLFs, the boundary's
    /// beginning on every line) is read in well under a second, even in a debug build.
    @Test func searchingABigBodyIsLinear() throws {
        let boundary = "----WebKitFormBoundaryx7ZkQ3pLm9Rt2Wb"
        let size = 8 << 20
        let patterns: [[UInt8]] = [
            [0x0D],
            Array("\r\n--".utf8),
            Array("\r\n--\(boundary.dropLast())".utf8),
            Array("\r\n--\(boundary)Q".utf8),
        ]
        for pattern in patterns {
            var content: [UInt8] = []
            content.reserveCapacity(size + pattern.count)
            while content.count < size { content += pattern }
            let body = formBody(
                boundary: boundary,
                [Field(disposition: #"form-data; name="file"; filename="f""#, body: content)])
            let clock = ContinuousClock()
            var read: [MultipartPart] = []
            let elapsed = try clock.measure {
                read = try parts(contentType: "multipart/form-data; boundary=\(boundary)", body)
            }
            #expect(read.count == 1 && read.first?.body == content)
            #expect(elapsed < .seconds(3), "\(pattern.count)-byte pattern: \(elapsed)")
        }
    }

    @Test func errorsAnswerAsHTTPErrors() {
        #expect(MultipartError.notMultipart.httpError.status == .unsupportedMediaType)
        #expect(MultipartError.notMultipart.httpError.type == "unsupported_media_type")
        for error in [MultipartError.missingBoundary, .malformed, .tooManyParts] {
            #expect(error.httpError.status == .badRequest)
            #expect(error.httpError.type == "malformed_form")
        }
    }
}
