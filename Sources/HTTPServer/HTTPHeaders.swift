/// An ordered list of HTTP header fields.
///
/// Names compare case-insensitively (ASCII) and keep the spelling they were added with. A name can
/// appear several times (`Set-Cookie`); the subscript reads the first value, ``values(for:)`` reads
/// them all.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name, spelled as it was added.
        public var name: String
        /// The field value.
        public var value: String

        /// A field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// No fields.
    public init() {
        fields = []
    }

    /// The given fields, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The given fields, in order: `["Content-Type": "text/plain", "Cache-Control": "no-store"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there is no field.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`; setting replaces every field of that name (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { HTTPHeaders.namesEqual($0.name, name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { HTTPHeaders.namesEqual($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces the first field named `name` and removes the others, or appends one.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = fields.firstIndex(where: { HTTPHeaders.namesEqual($0.name, name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[first].value = value
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if HTTPHeaders.namesEqual(fields[index].name, name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.namesEqual($0.name, name) }
    }

    /// Fields compare in order, names case-insensitively, values exactly.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
    }

    /// One `Name: value` line per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison of two header names, without allocating.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                zip(left, right).allSatisfy { $0 == $1 || asciiLower($0) == asciiLower($1) }
            }
        }
    }

    /// `text` without the spaces and tabs at either end: the optional whitespace around a field
    /// value or a list element (RFC 9110 §5.6.3). Nothing else is trimmed, and nothing is copied.
    public static func trimmingOptionalWhitespace(_ text: Substring) -> Substring {
        var bytes = text.utf8
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            bytes = bytes.dropFirst()
        }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes = bytes.dropLast()
        }
        return Substring(bytes)
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
