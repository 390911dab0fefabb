import CheckoutKit
import StoreAPI

/// A log line written into memory sized for it beforehand: each literal, number and string copied
/// in place, without an array's checks and growth for every part. The access log writes one for
/// every request.
///
/// `capacity` must hold what is written; ``ServerLog`` sizes it from the strings' lengths. Past it,
/// a write is dropped (the line comes out cut short) rather than written out of bounds.
struct LineWriter: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private(set) var count = 0

    /// Writes a line of at most `capacity` bytes with `write` into memory of its own (on the
    /// stack when it is small) and hands the bytes written to `body`.
    static func withLine<Result>(
        capacity: Int, _ write: (inout LineWriter) -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, capacity)) { buffer in
            guard let base = buffer.baseAddress else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            var writer = LineWriter(base: base, capacity: buffer.count)
            write(&writer)
            return body(UnsafeBufferPointer(start: base, count: writer.count))
        }
    }

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Whether `length` more bytes fit.
    private func fits(_ length: Int) -> Bool {
        length <= capacity - count
    }

    mutating func write(_ byte: UInt8) {
        guard fits(1) else { return }
        base[count] = byte
        count += 1
    }

    mutating func write(_ literal: StaticString) {
        let length = literal.utf8CodeUnitCount
        guard fits(length) else { return }
        (base + count).update(from: literal.utf8Start, count: length)
        count += length
    }

    /// The decimal digits of a non-negative `value` (a negative one is written as 0), left-padded
    /// with zeros to `width`.
    mutating func writeDecimal(_ value: Int64, width: Int = 1) {
        var digits = 1
        var rest = max(0, value) / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let length = max(width, digits)
        guard fits(length) else { return }
        rest = max(0, value)
        for index in stride(from: count + length - 1, through: count, by: -1) {
            base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += length
    }

    /// The 16 lowercase hexadecimal digits of `value`.
    mutating func writeHex(_ value: UInt64) {
        guard fits(16) else { return }
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(60 - 4 * index)) & 15)
            base[count + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
        count += 16
    }

    /// `text` as a JSON string literal, escaped as ``CheckoutKit/JSONText`` escapes it. Text that
    /// needs no escape (a route, a method) is copied in the same pass that checks it.
    mutating func writeJSONString(_ text: String) {
        var text = text
        let plain = text.withUTF8 { source in !source.contains(where: JSONText.needsEscaping) }
        guard plain else {
            var escaped: [UInt8] = []
            JSONText.append(text, to: &escaped)
            write(escaped)
            return
        }
        text.withUTF8 { source in
            guard let start = source.baseAddress, fits(source.count + 2) else { return }
            let quoted = base + count
            quoted[0] = UInt8(ascii: "\"")
            (quoted + 1).update(from: start, count: source.count)
            quoted[source.count + 1] = UInt8(ascii: "\"")
            count += source.count + 2
        }
    }

    private mutating func write(_ bytes: [UInt8]) {
        guard fits(bytes.count) else { return }
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
        }
        count += bytes.count
    }

    /// The instant `milliseconds` after 1970 as ``CheckoutKit/InstantText`` writes it (24 bytes).
    mutating func writeInstant(millisecondsSince1970 milliseconds: Int64) {
        guard fits(InstantText.length) else { return }
        InstantText.write(
            millisecondsSince1970: milliseconds,
            to: UnsafeMutableBufferPointer(start: base + count, count: InstantText.length))
        count += InstantText.length
    }
}
