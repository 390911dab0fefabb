import CheckoutKit

/// A reader for the plainest JSON objects only — strings and objects of them, no escapes — so that
/// the hottest request bodies need no general decoder.
///
/// It reads `{"payment_method": {"type": "card", "token": "tok_visa"}, …}` and gives up (`nil`) on
/// anything else: numbers, `true`, `false`, `null`, arrays, a backslash or a control character in
/// a string, invalid UTF-8, a key twice in one object, nesting deeper than ``maximumDepth``,
/// anything after the object. A caller that gets `nil` hands the body to `JSONDecoder`, which
/// reads every JSON and says what is wrong; so whatever this reader accepts must mean to the
/// caller exactly what it means to `JSONDecoder`, and a test compares the two.
enum PlainJSON {
    case string(String)
    case object([(key: String, value: PlainJSON)])

    /// Objects inside objects at most this deep (the top object is depth 1).
    static let maximumDepth = 3

    /// The object `bytes` hold, or `nil` when they are not one this reader takes.
    static func object(_ bytes: [UInt8]) -> [(key: String, value: PlainJSON)]? {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard case .object(let members)? = reader.object(depth: 1) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? members : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        mutating func object(depth: Int) -> PlainJSON? {
            guard depth <= PlainJSON.maximumDepth, take(UInt8(ascii: "{")) else { return nil }
            var members: [(key: String, value: PlainJSON)] = []
            skipSpace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                guard !members.contains(where: { $0.key == key }) else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let value = value(depth: depth) else { return nil }
                members.append((key, value))
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}")) ? .object(members) : nil
            }
        }

        mutating func value(depth: Int) -> PlainJSON? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string().map(PlainJSON.string)
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            default: return nil
            }
        }

        /// A string with no escape and no control character, as valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            var ascii = true
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let slice = bytes[start..<position]
                    position += 1
                    // Invalid UTF-8 is refused, never repaired with U+FFFD. ASCII, what every
                    // client sends, is valid as it is, and made a string without the generic
                    // validation (about 700 instructions a string).
                    return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                position += 1
            }
            return nil
        }
    }
}

extension CheckoutRequest {
    /// The request read from the plain spelling every client sends —
    /// `{"payment_method": {"type": …, "token": …}, "expected_total": {"amount": …, "currency": …}}`,
    /// in any order and spacing — or `nil` for any other spelling, valid or not, which `JSONDecoder`
    /// then reads (and explains, when it is wrong).
    public init?(plainJSON body: [UInt8]) {
        guard let members = PlainJSON.object(body), members.count == 2 else { return nil }
        var method: PaymentMethodBody?
        var total: Money?
        for member in members {
            switch (member.key, member.value) {
            case ("payment_method", .object(let fields)):
                method = Self.method(fields)
            case ("expected_total", .object(let fields)):
                total = Self.money(fields)
            default:
                return nil
            }
        }
        guard let method, let total else { return nil }
        self.init(paymentMethod: method, expectedTotal: total)
    }

    private static func method(_ fields: [(key: String, value: PlainJSON)]) -> PaymentMethodBody? {
        guard let values = strings(fields, named: ["type", "token"]), let type = values[0] else { return nil }
        return PaymentMethodBody(type: type, token: values[1])
    }

    private static func money(_ fields: [(key: String, value: PlainJSON)]) -> Money? {
        guard let values = strings(fields, named: ["amount", "currency"]),
            let amount = values[0], let code = values[1], let currency = Currency(code: code)
        else { return nil }
        return try? Money(amount: amount, currency: currency)
    }

    /// The values of an object's fields, in the order of `names`, `nil` for one it lacks — or `nil`
    /// when it has a field not named, or one whose value is not a string.
    private static func strings(_ fields: [(key: String, value: PlainJSON)], named names: [String]) -> [String?]? {
        var values = [String?](repeating: nil, count: names.count)
        for field in fields {
            guard let index = names.firstIndex(of: field.key), case .string(let text) = field.value else { return nil }
            values[index] = text
        }
        return values
    }
}
