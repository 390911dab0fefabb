import CheckoutKit
import Foundation
import HTTPServer

/// Refuses, with 422, any request whose body or idempotency key holds something that looks like a
/// card number — before any handler sees it, so it is never stored, logged or echoed.
///
/// A body is judged as text with ``CheckoutKit/CardNumberDetector`` and, when it is JSON, also by
/// its decoded values, as a handler would see them: every string (keys too), and every number by
/// its exact decimal digits — so a card number written as `4.242424242424242e15` or with `\u`
/// escapes is found too.
///
/// Login bodies are exempt: a password is never stored or logged, and refusing passwords that
/// happen to look like card numbers would lock people out.
struct CardNumberGuard: Middleware {
    static let exempt: Set<String> = ["/api/login", "/auth/login"]

    func handle(_ request: Request, context: RequestContext, next: Responder) async throws -> Response {
        if !request.body.isEmpty, !Self.exempt.contains(context.route ?? request.path),
            Self.holdsCardNumber(body: request.body)
        {
            throw CheckoutError.cardNumberRejected
        }
        if let key = request.headers["Idempotency-Key"], CardNumberDetector.containsCardNumber(key) {
            throw CheckoutError.cardNumberRejected
        }
        return try await next(request, context)
    }

    /// Whether a request body holds a card number in any of its values.
    static func holdsCardNumber(body: [UInt8]) -> Bool {
        if CardNumberDetector.containsCardNumber(String(decoding: body, as: UTF8.self)) { return true }
        guard decodingMayReveal(body) else { return false }
        return (try? decoder.decode(ScannedJSON.self, from: Data(body)))?.holdsCardNumber ?? false
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
    /// A number by its exact decimal value (`Decimal` reads the digits as written).
    case number(Decimal)
    case list([ScannedJSON])
    case object([String: ScannedJSON])
    case other

    var holdsCardNumber: Bool {
        switch self {
        case .text(let text): CardNumberDetector.containsCardNumber(text)
        case .number(let number): CardNumberDetector.containsCardNumber(number.description)
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
                self = .number(try value.decode(Decimal.self))
            }
        }
    }
}
