import CheckoutKit
import Foundation
import HTTPServer

/// Whether a request body holds a card number in any value a handler can read from it: the body
/// as text, every field of a form as decoded (`+` and `%XX`), and for JSON every decoded value —
/// each string (keys too), and each number by its exact decimal digits, so a card number written
/// as `4.242424242424242e15` or with `\u` escapes is found too.
///
/// The body is judged as every kind a handler could read it as, since the route, not the body,
/// decides that: JSON when it opens like JSON, and a form whenever it has escapes to decode.
///
/// It imports nothing of the store's beyond ``CheckoutKit/CardNumberDetector`` and the HTTP
/// library's form decoding, so the fuzz targets for forms and request bodies (Fuzz/) compile it
/// as it is and check that nothing it lets through decodes to a card number.
enum CardNumberScan {
    enum Verdict: Equatable, Sendable {
        case clean
        case cardNumber
        /// The body is JSON and holds a value the scan cannot decode (`1e999999999`): it cannot
        /// be judged, so it must be refused, never let through.
        case unreadableJSON
    }

    static func scan(body: [UInt8]) -> Verdict {
        if CardNumberDetector.containsCardNumber(String(decoding: body, as: UTF8.self)) { return .cardNumber }
        // A form's fields as a handler decodes them. Without `%` the decoding only turns `+` into a
        // space, a separator the text scan already knows.
        if body.contains(UInt8(ascii: "%")),
            Request.formItems(of: body).contains(where: {
                CardNumberDetector.containsCardNumber($0.name) || CardNumberDetector.containsCardNumber($0.value)
            })
        {
            return .cardNumber
        }
        guard isJSON(body), decodingMayReveal(body) else { return .clean }
        guard let document = try? decoder.decode(ScannedJSON.self, from: Data(body)) else { return .unreadableJSON }
        return document.holdsCardNumber ? .cardNumber : .clean
    }

    /// Whether the body is meant as JSON: its first byte other than white space opens an object,
    /// an array or a string (a form's first field name never does).
    static func isJSON(_ body: [UInt8]) -> Bool {
        guard let first = body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            return false
        }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
    }

    /// Whether a JSON body's decoded values can hold digits its text does not show as they are:
    /// a string with an escape, or a number with a fraction or an exponent. Most bodies have
    /// neither, and the text scan has judged them whole.
    static func decodingMayReveal(_ body: [UInt8]) -> Bool {
        var inString = false
        var previous: UInt8 = 0
        for byte in body {
            if inString {
                if byte == UInt8(ascii: "\\") { return true }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                if previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9") { return true }
            }
            previous = byte
        }
        return false
    }

    private static let decoder = JSONDecoder()
}

/// A JSON document reduced to what the guard looks at: its strings and numbers.
private enum ScannedJSON: Decodable {
    case text(String)
    /// A number by its exact decimal value (`Decimal` reads the digits as written, when its range
    /// holds them), and by the whole number a handler reading it as an integer gets: through a
    /// `Double`, so that `4.2424242424242419999e15` is `4242424242424242` to it.
    case number(Decimal?, integer: Int64?)
    case list([ScannedJSON])
    case object([String: ScannedJSON])
    case other

    var holdsCardNumber: Bool {
        switch self {
        case .text(let text): CardNumberDetector.containsCardNumber(text)
        case .number(let number, let integer):
            (number.map { CardNumberDetector.containsCardNumber($0.description) } ?? false)
                || (integer.map { CardNumberDetector.containsCardNumber(String($0)) } ?? false)
        case .list(let values): values.contains { $0.holdsCardNumber }
        case .object(let members):
            members.contains { CardNumberDetector.containsCardNumber($0.key) || $0.value.holdsCardNumber }
        case .other: false
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: ScannedJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(ScannedJSON.self, forKey: key) }
            self = .object(members)
        } else if var list = try? decoder.unkeyedContainer() {
            var values: [ScannedJSON] = []
            while !list.isAtEnd { values.append(try list.decode(ScannedJSON.self)) }
            self = .list(values)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() || (try? value.decode(Bool.self)) != nil {
                self = .other
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else {
                // A number neither reads (`1e999999999`) cannot be judged: the scan fails.
                let double = try? value.decode(Double.self)
                let decimal = double == nil ? try value.decode(Decimal.self) : try? value.decode(Decimal.self)
                self = .number(decimal, integer: double.flatMap { Int64(exactly: $0.rounded()) })
            }
        }
    }
}
