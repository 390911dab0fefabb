import StoreSQL

/// Type OIDs of the built-in PostgreSQL types the driver treats specially (`pg_type.oid`, stable
/// across versions).
enum PostgresTypeOID {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let numeric: UInt32 = 1700
    /// Lets the server infer the parameter's type from the statement.
    static let unspecified: UInt32 = 0
}

/// The bound values of one statement, laid out the way `PQexecParams` wants them.
///
/// Every value's bytes live in one contiguous buffer: text and integers in PostgreSQL's text format
/// (NUL-terminated), blobs in binary format (`bytea`, with an explicit length). `NULL` has no bytes.
struct PostgresParameters {
    /// The declared type of each parameter: `bytea` for blobs, otherwise left for the server to infer.
    private(set) var types: [UInt32] = []
    /// 1 for binary, 0 for text.
    private(set) var formats: [Int32] = []
    private(set) var lengths: [Int32] = []
    /// The start of each value in `storage`, or `nil` for `NULL`.
    private var offsets: [Int?] = []
    private var storage: [UInt8] = []

    var count: Int { types.count }

    /// No parameters.
    static var none: PostgresParameters { PostgresParameters() }

    private init() {}

    /// Encodes `values`; throws when a value cannot be sent (text with a NUL character, which
    /// PostgreSQL cannot store and libpq would silently cut off).
    init(_ values: [SQLValue]) throws(DatabaseError) {
        types.reserveCapacity(values.count)
        formats.reserveCapacity(values.count)
        lengths.reserveCapacity(values.count)
        offsets.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            switch value {
            case .null:
                append(type: PostgresTypeOID.unspecified, format: 0, length: 0, offset: nil)
            case .integer(let integer):
                let start = storage.count
                storage.append(contentsOf: String(integer).utf8)
                storage.append(0)
                append(type: PostgresTypeOID.unspecified, format: 0, length: 0, offset: start)
            case .text(let text):
                let start = storage.count
                storage.append(contentsOf: text.utf8)
                if storage[start...].contains(0) {
                    throw DatabaseError(
                        kind: .other, code: "22021",
                        message: "parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold")
                }
                storage.append(0)
                append(type: PostgresTypeOID.unspecified, format: 0, length: 0, offset: start)
            case .blob(let bytes):
                guard let length = Int32(exactly: bytes.count) else {
                    throw DatabaseError(
                        kind: .other, code: "54000", message: "parameter $\(index + 1) is too large to send")
                }
                let start = storage.count
                storage.append(contentsOf: bytes)
                append(type: PostgresTypeOID.bytea, format: 1, length: length, offset: start)
            }
        }
    }

    private mutating func append(type: UInt32, format: Int32, length: Int32, offset: Int?) {
        types.append(type)
        formats.append(format)
        lengths.append(length)
        offsets.append(offset)
    }

    /// Calls `body` with the parameter arrays libpq expects; the pointers are valid only inside `body`.
    func withUnsafeArrays<Result>(
        _ body: (
            _ types: UnsafePointer<UInt32>?, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
            _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?
        ) -> Result
    ) -> Result {
        // An empty buffer may have no base address; a one-byte buffer always has one.
        let bytes = storage.isEmpty ? [0] : storage
        return bytes.withUnsafeBufferPointer { buffer in
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base = buffer.baseAddress else { return nil }
                return UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
            }
            return types.withUnsafeBufferPointer { types in
                values.withUnsafeBufferPointer { values in
                    lengths.withUnsafeBufferPointer { lengths in
                        formats.withUnsafeBufferPointer { formats in
                            body(types.baseAddress, values.baseAddress, lengths.baseAddress, formats.baseAddress)
                        }
                    }
                }
            }
        }
    }
}

/// Decodes one text-format result value by its column type.
enum PostgresValueDecoder {
    /// The ``SQLValue`` for `bytes`, the text-format value of a column of type `oid`.
    ///
    /// `int2`/`int4`/`int8` become integers, `bool` becomes 0 or 1, `bytea` becomes a blob; every
    /// other type (including `numeric`, which would lose precision as an integer) stays text.
    static func value(
        _ bytes: UnsafeBufferPointer<UInt8>, oid: UInt32, column: String
    ) throws(DatabaseError)
        -> SQLValue
    {
        switch oid {
        case PostgresTypeOID.int2, PostgresTypeOID.int4, PostgresTypeOID.int8:
            guard let integer = parseInteger(bytes) else { throw .decoding(column: column, expected: "an integer") }
            return .integer(integer)
        case PostgresTypeOID.bool:
            guard bytes.count == 1 else { throw .decoding(column: column, expected: "a boolean") }
            switch bytes[0] {
            case UInt8(ascii: "t"): return .integer(1)
            case UInt8(ascii: "f"): return .integer(0)
            default: throw .decoding(column: column, expected: "a boolean")
            }
        case PostgresTypeOID.bytea:
            guard let blob = decodeBytea(bytes) else { throw .decoding(column: column, expected: "bytea") }
            return .blob(blob)
        default:
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Parses an optionally signed decimal integer, rejecting overflow and any other character.
    static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { return nil }
        var result: Int64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            // Accumulate negatively so that Int64.min parses without overflowing.
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            result = next
            index += 1
        }
        if negative { return result }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(result)
        return overflow ? nil : positive
    }

    /// Decodes `bytea` in text format: the `\x` hex form (the default `bytea_output`) or the older
    /// escape form.
    static func decodeBytea(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x") {
            return decodeHex(UnsafeBufferPointer(rebasing: bytes[2...]))
        }
        return decodeEscape(bytes)
    }

    private static func decodeHex(_ digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The escape form: `\\` is a backslash, `\nnn` an octal byte, anything else itself.
    private static func decodeEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index += 1
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                result.append(byte)
                index += 2
                continue
            }
            guard index + 3 < bytes.count else { return nil }
            var octal: UInt16 = 0
            for offset in 1...3 {
                let digit = bytes[index + offset]
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
                octal = octal * 8 + UInt16(digit - UInt8(ascii: "0"))
            }
            guard let value = UInt8(exactly: octal) else { return nil }
            result.append(value)
            index += 4
        }
        return result
    }
}
