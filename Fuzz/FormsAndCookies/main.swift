// libFuzzer target: a form body (`application/x-www-form-urlencoded`) and a `Cookie` header, read by
// the server's Request, agree with a reference that follows the byte-level definitions (the URL
// standard's form parser; RFC 6265's cookie pairs), and percent-encoding then decoding gives back
// the text. No card number survives decoding: a body the store's card-number scan lets through
// holds none in any field as a handler reads it.
import CheckoutKit

@testable import HTTPServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormsAndCookies(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    let request = Request(method: .post, target: "/basket", headers: ["Cookie": text], body: bytes)

    // The form.
    let items = request.formItems
    let expected = Reference.formItems(Array(text.utf8))
    check(items == expected, "form \(bytes): \(items) but the reference reads \(expected)")
    let encoded = items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    let again = Request(method: .post, target: "/basket", body: Array(encoded.utf8)).formItems
    check(again == items, "form fields encoded and read again changed: \(items) → \(again)")
    if CardNumberScan.scan(body: bytes) == .clean {
        for item in items {
            check(
                !CardNumberDetector.containsCardNumber(item.name) && !CardNumberDetector.containsCardNumber(item.value),
                "a card number in a form field got through the scan: \(bytes) → \(item)")
        }
    }

    // The cookies.
    let cookies = request.cookies
    let expectedCookies = Reference.cookies(Array(text.utf8))
    check(cookies == expectedCookies, "cookies \(bytes): \(cookies) but the reference reads \(expectedCookies)")
    for (name, value) in cookies {
        check(request.cookie(name) == value, "cookie(\(name)) disagrees with cookies")
    }

    // Percent-encoding.
    check(Encoding.percentDecoded(Substring(encode(text))) == text, "encode then decode changed \(bytes)")
    return 0
}

/// Everything but unreserved characters percent-encoded, as a browser sends form fields.
func encode(_ text: String) -> String {
    Encoding.percentEncoded(text) { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }
}

enum Reference {
    /// Split on `&` bytes, drop empty pieces, split each at its first `=`, then decode `+` as a
    /// space and `%XX` as a byte.
    static func formItems(_ bytes: [UInt8]) -> [QueryItem] {
        bytes.split(separator: UInt8(ascii: "&")).map { piece in
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = equals.map { piece[..<$0] } ?? piece[...]
            let value = equals.map { piece[($0 + 1)...] } ?? []
            return QueryItem(
                name: referencePercentDecoded(name, plusAsSpace: true),
                value: referencePercentDecoded(value, plusAsSpace: true))
        }
    }

    /// Split on `;` bytes; a pair needs an `=`; name and value lose surrounding spaces and tabs, the
    /// value one pair of double quotes; an empty name is skipped; both are percent-decoded; the
    /// first of a repeated name wins.
    static func cookies(_ bytes: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: ";")) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = trimmed(pair[..<equals])
            var value = trimmed(pair[(equals + 1)...])
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard !name.isEmpty else { continue }
            let decodedName = referencePercentDecoded(name, plusAsSpace: false)
            if result[decodedName] == nil {
                result[decodedName] = referencePercentDecoded(value, plusAsSpace: false)
            }
        }
        return result
    }

    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }
}
