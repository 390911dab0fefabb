#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One part of a multipart/form-data body (RFC 7578).
public struct MultipartPart: Hashable, Sendable {
    /// The form field's name (Content-Disposition name).
    public let name: String
    /// The file's name as the browser sent it (only for file fields), never trusted for anything but display.
    public let filename: String?
    /// The part's Content-Type, if sent.
    public let contentType: String?
    /// The part's content, byte for byte.
    public let body: [UInt8]

    /// A part; the server makes them from a request's body (and tests make their own).
    public init(name: String, filename: String? = nil, contentType: String? = nil, body: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.body = body
    }
}

/// Why a request's body could not be read as `multipart/form-data`.
public enum MultipartError: Error, Hashable, Sendable {
    /// The Content-Type is not `multipart/form-data`.
    case notMultipart
    /// The Content-Type has no usable `boundary` parameter (missing, repeated, empty, longer than
    /// 70 characters, or with a character RFC 2046 does not allow).
    case missingBoundary
    /// The delimiters, a part's header fields or its Content-Disposition are wrong.
    case malformed
    /// The body has more than ``Multipart/maxParts`` parts.
    case tooManyParts
}

extension MultipartError: HTTPErrorConvertible {
    /// 415 `unsupported_media_type` for ``notMultipart``; otherwise 400 `malformed_form`.
    public var httpError: HTTPError {
        switch self {
        case .notMultipart:
            HTTPError(
                .unsupportedMediaType, type: "unsupported_media_type",
                message: "The request body must be multipart/form-data.")
        case .missingBoundary:
            HTTPError(
                .badRequest, type: "malformed_form", message: "The multipart/form-data body has no usable boundary.")
        case .malformed:
            HTTPError(.badRequest, type: "malformed_form", message: "The multipart/form-data body is malformed.")
        case .tooManyParts:
            HTTPError(
                .badRequest, type: "malformed_form",
                message: "The form has more than \(Multipart.maxParts) parts.")
        }
    }
}

/// Reads `multipart/form-data` bodies (RFC 7578, framed as RFC 2046 §5.1.1 says).
///
/// - The boundary comes from the Content-Type's `boundary` parameter (quoted or not; the
///   parameter name and the media type compare case-insensitively): 1 to 70 of RFC 2046's
///   `bchars`, not ending with a space. A repeated `boundary` parameter is not usable.
/// - The preamble (before the first delimiter) and the epilogue (after the close delimiter) are
///   ignored. The first delimiter may open the body (`--boundary`); every other one is
///   `CRLF--boundary`.
/// - `CRLF--boundary` is a delimiter only when followed by `--` (the close delimiter) or by
///   optional spaces and tabs (transport padding) and CRLF; anything else after it is part of the
///   body being read. A body ends at the CRLF before its delimiter, so it may hold any byte, CRLFs,
///   NULs and `--boundary` not at the start of a line included.
/// - A part's header fields end with an empty line; lines end with CRLF or a bare LF; names
///   compare case-insensitively; at most ``maxHeaderBytes`` per part. A part needs one
///   `Content-Disposition: form-data` with a `name`; `filename*` (RFC 5987, UTF-8 or ISO-8859-1)
///   wins over `filename`. Its quoted strings take no backslash escapes, as browsers send them (the
///   boundary's do). `Content-Type` is kept as sent;
///   other fields (`Content-Transfer-Encoding`, deprecated by RFC 7578) are ignored.
/// - At most ``maxParts`` parts.
///
/// Bodies are never converted to text. The delimiter is searched with `memchr` for its CR and a
/// comparison at each CR; no CR occurs inside the delimiter after its first byte, so a partial
/// match never overlaps the next candidate and the search is linear in the body's length.
enum Multipart {
    /// The most parts a body may have.
    static let maxParts = 100
    /// The most bytes of header fields (with their line ends and the empty line) a part may have.
    static let maxHeaderBytes = 8 << 10
    /// The longest boundary RFC 2046 allows.
    static let maxBoundaryLength = 70

    /// The parts of `body`, with the boundary from `contentType`.
    static func parts(contentType: String?, body: [UInt8]) throws(MultipartError) -> [MultipartPart] {
        let boundary = try boundary(contentType: contentType)
        return try body.withUnsafeBufferPointer { (bytes) throws(MultipartError) -> [MultipartPart] in
            try Reader(bytes: bytes, boundary: boundary).parts()
        }
    }

    /// The boundary of a `multipart/form-data` Content-Type.
    static func boundary(contentType: String?) throws(MultipartError) -> [UInt8] {
        guard let contentType else { throw .notMultipart }
        let bytes = Array(contentType.utf8)
        let typeEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        guard lowercased(trimmed(bytes[..<typeEnd])) == Array("multipart/form-data".utf8) else {
            throw .notMultipart
        }
        guard let parsed = parameterized(bytes[...]) else { throw .missingBoundary }
        let boundaries = parsed.parameters.filter { $0.name == Array("boundary".utf8) }
        guard boundaries.count == 1, let boundary = boundaries.first?.value, isBoundary(boundary) else {
            throw .missingBoundary
        }
        return boundary
    }

    /// 1 to 70 `bchars` (RFC 2046 §5.1.1), the last one not a space.
    static func isBoundary(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maxBoundaryLength, bytes.last != UInt8(ascii: " ") else {
            return false
        }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                "'()+_,-./:=? ".utf8.contains(byte)
            }
        }
    }

    // MARK: - The body

    /// What follows `--boundary` where a delimiter was found.
    private enum Delimiter {
        /// Another part, whose header fields start at this index.
        case part(Int)
        /// The close delimiter: the epilogue follows.
        case close
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// `--boundary`: the first delimiter may open the body without a CRLF.
        let dashBoundary: [UInt8]
        /// `CRLF--boundary`.
        let delimiter: [UInt8]

        init(bytes: UnsafeBufferPointer<UInt8>, boundary: [UInt8]) {
            self.bytes = bytes
            dashBoundary = Array("--".utf8) + boundary
            delimiter = Array("\r\n--".utf8) + boundary
        }

        func parts() throws(MultipartError) -> [MultipartPart] {
            var next: Delimiter
            if matches(dashBoundary, at: 0), let opening = delimiter(after: dashBoundary.count) {
                next = opening
            } else if let found = findDelimiter(from: 0) {
                next = found.delimiter
            } else {
                throw .malformed
            }
            var parts: [MultipartPart] = []
            while case .part(let start) = next {
                guard parts.count < Multipart.maxParts else { throw .tooManyParts }
                let head = try headers(from: start)
                guard let found = findDelimiter(from: head.bodyStart) else { throw .malformed }
                parts.append(
                    MultipartPart(
                        name: head.name, filename: head.filename, contentType: head.contentType,
                        body: Array(UnsafeBufferPointer(rebasing: bytes[head.bodyStart..<found.start]))))
                next = found.delimiter
            }
            return parts
        }

        /// Whether `pattern` occurs at `index`.
        private func matches(_ pattern: [UInt8], at index: Int) -> Bool {
            guard index >= 0, bytes.count - index >= pattern.count, let base = bytes.baseAddress else {
                return false
            }
            return pattern.withUnsafeBufferPointer { pattern in
                guard let patternBase = pattern.baseAddress else { return true }
                return memcmp(base + index, patternBase, pattern.count) == 0
            }
        }

        /// What a delimiter whose `--boundary` ends at `index` introduces, or `nil` when what
        /// follows makes it no delimiter.
        private func delimiter(after index: Int) -> Delimiter? {
            if matches([UInt8(ascii: "-"), UInt8(ascii: "-")], at: index) {
                return .close
            }
            var position = index
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")
            {
                position += 1
            }
            guard matches([UInt8(ascii: "\r"), UInt8(ascii: "\n")], at: position) else { return nil }
            return .part(position + 2)
        }

        /// The first delimiter (`CRLF--boundary` and what makes it one) at or after `from`: where
        /// its CRLF starts, and what it introduces.
        private func findDelimiter(from: Int) -> (start: Int, delimiter: Delimiter)? {
            guard let base = bytes.baseAddress else { return nil }
            var position = from
            while position < bytes.count {
                guard let found = memchr(base + position, 0x0D, bytes.count - position) else { return nil }
                let start = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if matches(delimiter, at: start), let kind = delimiter(after: start + delimiter.count) {
                    return (start, kind)
                }
                position = start + 1
            }
            return nil
        }

        /// A part's header fields from `start` to the empty line, read for what a part needs.
        private func headers(from start: Int) throws(MultipartError) -> PartHead {
            guard let base = bytes.baseAddress else { throw .malformed }
            let limit = min(bytes.count, start + Multipart.maxHeaderBytes)
            var disposition: [UInt8]?
            var contentType: [UInt8]?
            var position = start
            while true {
                guard position < limit, let found = memchr(base + position, 0x0A, limit - position) else {
                    throw .malformed
                }
                let lineFeed = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                var line = bytes[position..<lineFeed]
                if line.last == UInt8(ascii: "\r") {
                    line = line.dropLast()
                }
                position = lineFeed + 1
                if line.isEmpty {
                    break
                }
                guard !line.contains(UInt8(ascii: "\r")), let colon = line.firstIndex(of: UInt8(ascii: ":")),
                    isToken(line[..<colon])
                else {
                    throw .malformed
                }
                let name = Multipart.lowercased(line[..<colon])
                let value = Array(Multipart.trimmed(line[(colon + 1)...]))
                if name == Array("content-disposition".utf8) {
                    guard disposition == nil else { throw .malformed }
                    disposition = value
                } else if name == Array("content-type".utf8) {
                    guard contentType == nil else { throw .malformed }
                    contentType = value
                }
            }
            guard let disposition else { throw .malformed }
            let (name, filename) = try Multipart.formData(disposition)
            return PartHead(
                name: name, filename: filename, contentType: contentType.map { String(decoding: $0, as: UTF8.self) },
                bodyStart: position)
        }

        private func isToken(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            MessageFraming.isToken(String(decoding: bytes, as: UTF8.self))
        }
    }

    private struct PartHead {
        let name: String
        let filename: String?
        let contentType: String?
        let bodyStart: Int
    }

    // MARK: - Content-Disposition

    /// The `name` and the file name of a `form-data` Content-Disposition.
    private static func formData(_ value: [UInt8]) throws(MultipartError) -> (name: String, filename: String?) {
        guard let parsed = parameterized(value[...], backslashEscapes: false),
            lowercased(parsed.value) == Array("form-data".utf8)
        else {
            throw .malformed
        }
        var name: [UInt8]?
        var filename: [UInt8]?
        var extendedFilename: [UInt8]?
        for parameter in parsed.parameters {
            switch parameter.name {
            case Array("name".utf8):
                guard name == nil else { throw .malformed }
                name = parameter.value
            case Array("filename".utf8):
                guard filename == nil else { throw .malformed }
                filename = parameter.value
            case Array("filename*".utf8):
                guard extendedFilename == nil else { throw .malformed }
                extendedFilename = parameter.value
            default:
                continue
            }
        }
        guard let name else { throw .malformed }
        if let extendedFilename {
            return (String(decoding: name, as: UTF8.self), try extendedValue(extendedFilename))
        }
        return (String(decoding: name, as: UTF8.self), filename.map { String(decoding: $0, as: UTF8.self) })
    }

    /// An RFC 5987 `ext-value` (`UTF-8''%E2%82%AC.txt`) decoded; UTF-8 and ISO-8859-1 are read.
    private static func extendedValue(_ value: [UInt8]) throws(MultipartError) -> String {
        let quote = UInt8(ascii: "'")
        guard let first = value.firstIndex(of: quote),
            let second = value[(first + 1)...].firstIndex(of: quote)
        else {
            throw .malformed
        }
        let charset = lowercased(value[..<first])
        var decoded: [UInt8] = []
        var index = second + 1
        while index < value.count {
            let byte = value[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < value.count, let high = hexValue(value[index + 1]),
                    let low = hexValue(value[index + 2])
                else {
                    throw .malformed
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                guard isAttributeCharacter(byte) else { throw .malformed }
                decoded.append(byte)
                index += 1
            }
        }
        switch charset {
        case Array("utf-8".utf8):
            let text = String(decoding: decoded, as: UTF8.self)
            guard text.utf8.elementsEqual(decoded) else { throw .malformed }
            return text
        case Array("iso-8859-1".utf8):
            var text = ""
            text.unicodeScalars.append(contentsOf: decoded.map { Unicode.Scalar($0) })
            return text
        default:
            throw .malformed
        }
    }

    /// RFC 5987's `attr-char`.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - Header values with parameters

    /// A header value of the form `value *( ";" name "=" ( token / quoted-string ) )`: the value
    /// and the parameters in order, names lowercased, quoted strings unescaped. `nil` when a
    /// parameter has no `=`, an empty name or value, an unterminated quoted string, or something
    /// other than `;` after a quoted string. Spaces and tabs around the delimiters are allowed.
    ///
    /// With `backslashEscapes` off, a backslash in a quoted string is itself: what browsers send in
    /// a part's `Content-Disposition` (the HTML standard escapes only `"`, CR and LF there, as
    /// `%22`, `%0D`, `%0A`), so a field named `a\` ends at its closing quote.
    static func parameterized(
        _ bytes: ArraySlice<UInt8>, backslashEscapes: Bool = true
    ) -> (value: [UInt8], parameters: [Parameter])? {
        let semicolon = UInt8(ascii: ";")
        var index = bytes.firstIndex(of: semicolon) ?? bytes.endIndex
        let value = Array(trimmed(bytes[bytes.startIndex..<index]))
        var parameters: [Parameter] = []
        while index < bytes.endIndex {
            // At a `;`.
            index += 1
            index = skippingSpaces(bytes, from: index)
            guard index < bytes.endIndex else { break }
            guard let equals = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == semicolon }),
                bytes[equals] == UInt8(ascii: "=")
            else {
                return nil
            }
            let name = lowercased(trimmed(bytes[index..<equals]))
            guard !name.isEmpty else { return nil }
            index = skippingSpaces(bytes, from: equals + 1)
            var parameterValue: [UInt8] = []
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                var closed = false
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    }
                    if backslashEscapes && byte == UInt8(ascii: "\\") {
                        guard index < bytes.endIndex else { return nil }
                        parameterValue.append(bytes[index])
                        index += 1
                    } else {
                        parameterValue.append(byte)
                    }
                }
                guard closed else { return nil }
                index = skippingSpaces(bytes, from: index)
                guard index == bytes.endIndex || bytes[index] == semicolon else { return nil }
            } else {
                let end = bytes[index...].firstIndex(of: semicolon) ?? bytes.endIndex
                parameterValue = Array(trimmed(bytes[index..<end]))
                guard !parameterValue.isEmpty else { return nil }
                index = end
            }
            parameters.append(Parameter(name: name, value: parameterValue))
        }
        return (value, parameters)
    }

    /// One parameter of a header value: its name lowercased, its value unquoted.
    struct Parameter {
        let name: [UInt8]
        let value: [UInt8]
    }

    private static func skippingSpaces(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int {
        var index = index
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index
    }

    private static func trimmed<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> Bytes.SubSequence
    where Bytes.Element == UInt8 {
        var result = bytes[...]
        while let first = result.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            result = result.dropFirst()
        }
        while let last = result.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            result = result.dropLast()
        }
        return result
    }

    private static func lowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }
}
